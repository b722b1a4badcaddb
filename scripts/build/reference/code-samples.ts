// Makes each operation's request samples (a curl command and the call through the package's client) from its valid call
// and its credential, for the reference's x-codeSamples tabs.
import { Credentials, CREDENTIAL_PLACEHOLDERS, type CredentialOption } from "../../../src/contract/credentials.ts";
import { listOperations, type ContractOperation } from "../../../src/contract/operations.ts";
import { validCall, type ValidCall } from "../../../src/contract/valid-calls.ts";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { operationRows, tableOf } from "../generate-tables.ts";

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** A server's address with its variables at their defaults. */
export function serverUrl(server: JsonObject): string {
  const variables = (server.variables ?? {}) as Record<string, { default: string }>;
  return String(server.url).replace(/\{(\w+)\}/g, (_, name: string) => variables[name]!.default);
}

/** The service's base address: the contract's first server. */
export function serviceBaseUrl(document: JsonObject): string {
  const server = ((document.servers ?? []) as JsonObject[])[0];
  if (!isObject(server) || typeof server.url !== "string") throw new Error("reference: the contract names no server");
  return serverUrl(server);
}

/** The request's address: the path template filled with the call's values, and its query. */
export function requestUrl(baseUrl: string, op: ContractOperation, call: ValidCall): string {
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.path[name]!));
  const query = new URLSearchParams(Object.entries(call.query).map(([name, value]) => [name, String(value)])).toString();
  return `${baseUrl}${path}${query ? `?${query}` : ""}`;
}

/** A single-quoted shell word: nothing inside is expanded. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function curlSample(op: ContractOperation, call: ValidCall, baseUrl: string, header: string | undefined, placeholder: string | undefined): string {
  const lines = [`curl -X ${op.method} ${shellQuote(requestUrl(baseUrl, op, call))}`];
  if (header !== undefined) lines.push(`-H ${shellQuote(`${header}: ${placeholder}`)}`);
  if (call.body !== undefined) {
    lines.push(`-H 'content-type: application/json'`);
    lines.push(`-d ${shellQuote(JSON.stringify(call.body, null, 2))}`);
  }
  return lines.join(" \\\n  ");
}

/** A TypeScript literal of a JSON value, indented to sit at `indent`. */
function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
}

function clientSample(op: ContractOperation, call: ValidCall, baseUrl: string, option: string | undefined): string {
  const table = tableOf(op.template);
  const settings = [
    `baseUrl: ${JSON.stringify(baseUrl)}`,
    ...(option ? [`${option}: ${JSON.stringify(CREDENTIAL_PLACEHOLDERS[option as CredentialOption])}`] : []),
  ];
  const params: string[] = [];
  if (Object.keys(call.path).length > 0) params.push(`path: ${literal(call.path, "    ")}`);
  if (Object.keys(call.query).length > 0) params.push(`query: ${literal(call.query, "    ")}`);
  const init: string[] = [];
  if (params.length > 0) init.push(`  params: {\n    ${params.join(",\n    ")},\n  },`);
  if (call.body !== undefined) init.push(`  body: ${literal(call.body, "  ")},`);
  const args = [JSON.stringify(op.template), ...(init.length > 0 ? [`{\n${init.join("\n")}\n}`] : [])];
  return [
    `import { ${table.factory} } from "${table.entry}";`,
    "",
    `const api = ${table.factory}({ ${settings.join(", ")} });`,
    `const answer = await api.${op.method}(${args.join(", ")});`,
    "if (answer.ok) console.log(answer.status, answer.data);",
    "else console.error(answer.status, answer.error);",
  ].join("\n");
}

/** Each operation's samples, by operationId: curl first, then the client. */
export function codeSamples(document: JsonObject): Record<string, CodeSample[]> {
  const baseUrl = serviceBaseUrl(document);
  const rows = new Map(operationRows(document).map((row) => [row.operationId, row]));
  const credentials = new Credentials(document);
  const samples: Record<string, CodeSample[]> = {};
  for (const op of listOperations(document)) {
    const call = validCall(document, op);
    const option = rows.get(op.operationId)?.credential ?? undefined;
    const scheme = op.securitySchemes[0];
    const header = scheme === undefined ? undefined : credentials.scheme(scheme)?.header;
    samples[op.operationId] = [
      { lang: "Shell", label: "curl", source: curlSample(op, call, baseUrl, header, option && CREDENTIAL_PLACEHOLDERS[option as CredentialOption]) },
      { lang: "TypeScript", label: "Client", source: clientSample(op, call, baseUrl, option) },
    ];
  }
  return samples;
}

/** Sets `x-codeSamples` on every operation of the reference's document. */
export function addCodeSamples(document: JsonObject): void {
  const samples = codeSamples(document);
  for (const op of listOperations(document)) op.operation["x-codeSamples"] = samples[op.operationId];
}
