// Reads each operation's valid call (`x-svc-valid-call`, written beside the operation in its path file) from the bundle,
// with the request example it names resolved, for the tests, the benchmarks and the reference's request samples.
import { deref, type ContractOperation } from "./operations.ts";
import { isObject, type JsonObject } from "./json.ts";

export const VALID_CALL = "x-svc-valid-call";

/** A request the contract accepts, as the client is called: path and query parameters, and the JSON body if any. */
export interface ValidCall {
  path: Record<string, string>;
  query: Record<string, unknown>;
  /** The request body's example the call sends (x-svc-valid-call's body_example); absent for an operation without a body. */
  body?: unknown;
}

/** The valid call an operation declares; throws naming the operation when it has none or names a missing example. */
export function validCall(document: JsonObject, op: ContractOperation): ValidCall {
  const declared = op.operation[VALID_CALL];
  if (!isObject(declared)) throw new Error(`${op.operationId} declares no ${VALID_CALL}`);
  const call: ValidCall = {
    path: { ...((declared.path ?? {}) as Record<string, string>) },
    query: { ...((declared.query ?? {}) as Record<string, unknown>) },
  };
  if (typeof declared.body_example === "string") {
    const media = (op.requestBody?.content as JsonObject | undefined)?.["application/json"];
    const example = isObject(media) && isObject(media.examples) ? media.examples[declared.body_example] : undefined;
    if (example === undefined)
      throw new Error(`${op.operationId}: ${VALID_CALL} names body_example ${declared.body_example}, which its request body does not have`);
    call.body = deref(document, example).value;
  }
  return call;
}

/** Every operation's valid call, by operationId. */
export function validCalls(document: JsonObject, operations: ContractOperation[]): Record<string, ValidCall> {
  return Object.fromEntries(operations.map((op) => [op.operationId, validCall(document, op)]));
}
