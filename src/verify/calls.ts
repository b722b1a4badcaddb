// Turns a call of an operation (path and query values, a JSON body, one credential header) into the HTTP request
// verify sends and into the validator's view of the same request, so what is checked against the contract is what is sent.
import type { ContractOperation } from "../contract/operations.ts";
import type { ContractValidator, RequestInput } from "../contract/validator.ts";
import type { HttpRequest } from "./sender.ts";

export interface Call {
  path: Record<string, string>;
  query: Record<string, unknown>;
  /** The JSON body; absent for no body at all. */
  body?: unknown;
}

export interface Credential {
  /** The header, as the contract's security scheme names it. */
  header: string;
  value: string;
}

/** Methods that change something on the server: run only against a test environment. */
export const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isWrite(op: ContractOperation): boolean {
  return WRITE_METHODS.has(op.method);
}

function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    // Arrays go as the contract's form style explodes them: one name=value per item.
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text === "" ? "" : `?${text}`;
}

export function callPath(op: ContractOperation, call: Call): string {
  return op.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(call.path[name] ?? `{${name}}`)) + queryString(call.query);
}

function headersOf(call: Call, credential: Credential | undefined): Record<string, string> {
  return {
    accept: "application/json",
    ...(call.body === undefined ? {} : { "content-type": "application/json" }),
    ...(credential === undefined ? {} : { [credential.header]: credential.value }),
  };
}

export function buildRequest(baseUrl: string, op: ContractOperation, call: Call, credential: Credential | undefined): HttpRequest {
  return {
    method: op.method,
    url: `${baseUrl}${callPath(op, call)}`,
    headers: headersOf(call, credential),
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  };
}

/** The request as ContractValidator.validateRequest reads it. */
export function requestInput(op: ContractOperation, call: Call, credential: Credential | undefined): RequestInput {
  const headers = Object.fromEntries(Object.entries(headersOf(call, credential)).map(([name, value]) => [name.toLowerCase(), value]));
  const url = new URL(callPath(op, call), "http://verify.invalid");
  return {
    pathParams: call.path,
    query: url.searchParams,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    contentType: headers["content-type"],
  };
}

/** Whether the contract's validator refuses the call: how every generator of calls confirms the side a call is on. */
export function refusedByContract(validator: ContractValidator, op: ContractOperation, call: Call, credential: Credential | undefined): boolean {
  const verdict = validator.validateRequest(op, requestInput(op, call, credential));
  return verdict.refusal !== undefined || verdict.details.length > 0;
}
