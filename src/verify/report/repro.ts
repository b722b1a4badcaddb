// A failed request as a reader can send it again: the exact method, URL, headers and body verify sent (its own values,
// which are nobody's data), each credential read from an environment variable the run names once at its top, a body
// that cannot stand in a shell quote written to a file beside the report, and what the run created that the request
// names (a user, a team, a key), so that `--replay <failure id>` can create it again.
export type { Need, ReproRequest };
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CredentialOption } from "../../contract/credentials.ts";
import type { Need, ReplayStep, ReproRequest, Sent } from "../check.ts";
import type { Fixtures } from "../fixtures.ts";
import { headerVariable } from "../gateway-headers.ts";
import { scrubDeep } from "../redact-again.ts";

/** The environment variable a reproduction reads each credential from. */
export const CREDENTIAL_VARIABLES: Record<CredentialOption, string> = {
  apiKey: "SVC_API_KEY",
  managementKey: "SVC_MANAGEMENT_KEY",
  linkToken: "SVC_LINK_TOKEN",
};
/** A credential the run made itself (a team API key an answer gave): never written; --replay makes a new one. */
export const CREATED_CREDENTIAL_VARIABLE = "SVC_CREATED_CREDENTIAL";

/** Where a run's credentials come from, as its top line and its report name them. */
export interface CredentialVariable {
  variable: string;
  header: string;
  /**
   * given (a flag: never printed), placeholder (the reference's), invented (verify's own, for a loopback server), made
   * (by the run), header (a `--header`'s value: never printed).
   */
  origin: "given" | "placeholder" | "invented" | "made" | "header";
  /** Printed only for a placeholder or a key verify invented on a loopback server. */
  value?: string;
}

/** A body stands in a shell quote when every character is printable ASCII and it is short enough to read on a line. */
const INLINE_BODY = /^[\x20-\x7e]{0,4096}$/;

/** A shell word in single quotes: nothing inside is expanded. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The request as one line of shell; the body's file named as the reader's shell finds it (`bodyDir`). */
export function curlLine(request: ReproRequest, bodyDir = "."): string {
  const words = ["curl", "-sS", "-i", "-X", request.method, quoted(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    // Double quotes: the variable is expanded, and nothing of the key is written.
    words.push("-H", request.variables.includes(name) ? `"${name}: ${value}"` : quoted(`${name}: ${value}`));
  }
  if (request.bodyFile !== undefined) words.push("--data-binary", quoted(`@${path.join(bodyDir, request.bodyFile)}`));
  else if (request.body !== undefined) words.push("--data-raw", quoted(request.body));
  return words.join(" ");
}

/** The most body files one run writes: a server failing everything must not fill the disk. */
const MAX_BODY_FILES = 500;

/** Makes each failure's reproduction, knowing the run's credentials, what it created and where its report goes. */
export class Reproductions {
  readonly #variables = new Map<string, string>();
  readonly #credentialHeaders: Set<string>;
  readonly #reportDir: string;
  readonly #fixtures: () => Fixtures | undefined;
  readonly #scrub: (text: string) => string;
  readonly #added: { name: string; value: string }[];
  #files = 0;

  /**
   * `credentialHeaders`: every header name that carries a credential; `scrub`: what takes out of a request what a
   * server sent in marked fields (verify passed it on: it is still the server's).
   */
  constructor(options: {
    reportDir: string;
    credentialHeaders: Iterable<string>;
    fixtures: () => Fixtures | undefined;
    scrub: (text: string) => string;
    /** The headers the sender added to every request (`--header`), credentials each: the request kept had them too. */
    added?: { name: string; value: string }[];
  }) {
    this.#reportDir = options.reportDir;
    this.#added = options.added ?? [];
    this.#credentialHeaders = new Set([...options.credentialHeaders, ...this.#added.map(({ name }) => name)].map((name) => name.toLowerCase()));
    this.#fixtures = options.fixtures;
    this.#scrub = options.scrub;
  }

  /** A credential's value and the variable that stands for it. */
  name(value: string, variable: string): void {
    this.#variables.set(value, variable);
  }

  /** The failure's request as kept and as a `curl` line; its body written beside the report when it must be. */
  make(id: string, { request: sent, answered, expect, steps: own, rule, keptBefore }: Sent): { request: ReproRequest; curl: string } {
    // Read now, as the check is recorded in plan order: every write kept before it is there, whatever ran at once.
    const steps = keptBefore === undefined ? own : [...(this.#fixtures()?.keptBefore(keptBefore) ?? []), ...(own ?? [])];
    const request = {
      ...sent,
      url: this.#scrub(sent.url),
      ...(sent.body === undefined ? {} : { body: this.#scrub(sent.body) }),
      // As the sender sent it: the added headers over any of the same name.
      headers: {
        ...Object.fromEntries(Object.entries(sent.headers).filter(([name]) => !this.#added.some((added) => added.name.toLowerCase() === name.toLowerCase()))),
        ...Object.fromEntries(this.#added.map(({ name, value }) => [name, value])),
      },
    };
    const headers: Record<string, string> = {};
    const variables: string[] = [];
    const needs: Need[] = [];
    const fixtures = this.#fixtures();
    for (const [name, value] of Object.entries(request.headers)) {
      if (!this.#credentialHeaders.has(name.toLowerCase())) {
        headers[name] = this.#scrub(value);
        continue;
      }
      const variable = this.#variables.get(value) ?? (fixtures?.linkToken === value ? CREDENTIAL_VARIABLES.linkToken : CREATED_CREDENTIAL_VARIABLE);
      headers[name] = `$${variable}`;
      variables.push(name);
      if (variable === CREATED_CREDENTIAL_VARIABLE) needs.push({ param: "credential", value: headers[name]!, ...madeCredential(fixtures, value) });
      else if (fixtures?.linkToken === value) needs.push({ param: "link_token", value: headers[name]!, create: "createLinkToken", pointer: "/link_token" });
    }
    for (const record of fixtures?.created ?? []) {
      if (request.url.includes(record.id) || request.body?.includes(record.id) === true) {
        if (!needs.some((need) => need.value === record.id))
          needs.push({ param: record.lifecycle.param, value: record.id, create: record.lifecycle.create.operationId });
      }
    }
    const kept: ReproRequest = {
      method: request.method,
      url: request.url,
      headers,
      variables,
      needs,
      ...(answered === undefined ? {} : { answered }),
      ...(expect === undefined ? {} : { expect }),
      ...(steps === undefined || steps.length === 0 ? {} : { steps: this.#scrubbed(steps) }),
      ...(rule === undefined ? {} : { rule }),
    };
    if (request.body !== undefined) {
      kept.body = request.body;
      if (!INLINE_BODY.test(request.body) && this.#files < MAX_BODY_FILES) {
        kept.bodyFile = path.join("bodies", `${id}.body`);
        mkdirSync(path.join(this.#reportDir, "bodies"), { recursive: true });
        writeFileSync(path.join(this.#reportDir, kept.bodyFile), request.body);
        this.#files++;
      }
    }
    return { request: kept, curl: curlLine(kept, path.relative(process.cwd(), this.#reportDir) || ".") };
  }

  /** A check's steps as the request is kept: what a server sent in marked fields taken out of each text, as from its url and body. */
  #scrubbed(steps: ReplayStep[]): ReplayStep[] {
    // Field names are the contract's; the values are what a server may have sent.
    return steps.map((step) => ({ operationId: step.operationId, call: scrubDeep(step.call, (text) => this.#scrub(text)) }));
  }
}

/** The create whose answer gave a credential the run made, and where in that answer. */
function madeCredential(fixtures: Fixtures | undefined, value: string): { create: string; pointer?: string } {
  for (const record of fixtures?.created ?? []) {
    const body = record.made.body;
    if (typeof body !== "object" || body === null) continue;
    const field = Object.entries(body).find(([, each]) => each === value)?.[0];
    if (field !== undefined) return { create: record.lifecycle.create.operationId, pointer: `/${field}` };
  }
  return { create: "unknown" };
}

/** What a run tells of its credentials: the variable each is read from, and its value where it is nobody's secret. */
export interface NamedCredential extends CredentialVariable {
  /** The value the variable stands for, to find it in a request (never written unless `value` says so). */
  secretValue?: string;
}

/**
 * The run's credentials as reproductions read them: a key given with a flag is never printed; a placeholder (the
 * reference's) or a key verify invented for the stateful mock on a loopback server is, so its line runs as printed.
 */
export function credentialVariables(
  options: { loopback: boolean; given: { apiKey: boolean; managementKey: boolean }; credentials: Partial<Record<CredentialOption, string>> },
  invented: { apiKey: boolean; managementKey: boolean },
  headerOf: { header(option: CredentialOption): string },
): NamedCredential[] {
  const named: NamedCredential[] = [];
  for (const option of ["apiKey", "managementKey", "linkToken"] as const) {
    const value = options.credentials[option];
    if (value === undefined) continue;
    let header: string;
    try {
      header = headerOf.header(option);
    } catch {
      continue;
    }
    const given = option !== "linkToken" && options.given[option];
    const origin: CredentialVariable["origin"] = given ? "given" : option !== "linkToken" && invented[option] ? "invented" : "placeholder";
    named.push({ variable: CREDENTIAL_VARIABLES[option], header, origin, secretValue: value, ...(origin !== "given" && options.loopback ? { value } : {}) });
  }
  return named;
}

/** The `--header` values as reproductions read them: each from its own variable, never printed. */
export function headerVariables(headers: { name: string; value: string }[]): NamedCredential[] {
  return headers.map(({ name, value }) => ({ variable: headerVariable(name), header: name, origin: "header", secretValue: value }));
}

const ORIGINS: Record<CredentialVariable["origin"], string> = {
  given: "the key given on the command line (not printed: export it yourself)",
  placeholder: "the reference's placeholder, which the package's mock takes",
  invented: "invented by verify for this run on a loopback server",
  made: "made by the run (not written: --replay makes a new one)",
  header: "the value given with --header (not printed: export it yourself)",
};

/** One shell line a variable: an `export` a reader can paste where the value may be printed, a comment where not. */
export function credentialLines(variables: CredentialVariable[]): string[] {
  const lines = variables.map(
    (each) => `${each.value === undefined ? `# ${each.variable}` : `export ${each.variable}=${quoted(each.value)}`}  # ${each.header}: ${ORIGINS[each.origin]}`,
  );
  return [...lines, `# ${CREATED_CREDENTIAL_VARIABLE}  # a credential an answer gave (a team API key the run created): ${ORIGINS.made}`];
}
