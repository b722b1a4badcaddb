// Reads the bundled contract for tests: its operations, their declared examples, and an Ajv validator of requests and responses.
import { ContractValidator } from "../../src/contract/validator.ts";
import { deref, listOperations, type ContractOperation } from "../../src/contract/operations.ts";
import { readBundle } from "../../scripts/build/lib/paths.ts";
import type { JsonObject } from "../../src/contract/json.ts";

export const contract = (await readBundle()) as JsonObject;

/**
 * The operations the contract had when the suite was written (the interface document's 53): every test looping over
 * `operations` runs over at least these, so a contract read as empty (or a loop over nothing) fails rather than
 * passing with no case. Adding operations raises the count; removing one fails here first.
 */
export const OPERATIONS_AT_LEAST = 53;
export const operations = listOperations(contract);
if (operations.length < OPERATIONS_AT_LEAST)
  throw new Error(`the contract has ${operations.length} operations, fewer than the ${OPERATIONS_AT_LEAST} the tests loop over`);

/** The signed webhooks (event kinds) the contract had when the suite was written: the floor of every loop over them, as above. */
export const WEBHOOKS_AT_LEAST = 178;
export const webhookKinds = Object.keys((contract.webhooks ?? {}) as JsonObject);
if (webhookKinds.length < WEBHOOKS_AT_LEAST)
  throw new Error(`the contract has ${webhookKinds.length} webhooks, fewer than the ${WEBHOOKS_AT_LEAST} the tests loop over`);

/**
 * The declared answers (operation, status, named example) the contract had when the suite was written: the floor of the
 * loops over `declaredExamples`, which would pass with no case if examples were read as none.
 */
export const DECLARED_EXAMPLES_AT_LEAST = 816;

export const validator = new ContractValidator(contract);

export function operation(operationId: string): ContractOperation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the contract`);
  return found;
}

/** The JSON media type object of an operation's response for a status, or of its request body. */
function jsonMedia(operationId: string, status?: number): JsonObject {
  const op = operation(operationId).operation;
  const holder = status === undefined ? deref(contract, op.requestBody) : deref(contract, (op.responses as JsonObject)[String(status)]);
  return (holder.content as JsonObject)["application/json"] as JsonObject;
}

function exampleValue(media: JsonObject, name: string, where: string): unknown {
  const example = deref(contract, (media.examples as JsonObject)[name]);
  if (example === undefined) throw new Error(`${where} has no example ${name}`);
  // A copy: files share this module in a worker (isolate: false), and a test that changes what it got must not change the next one's.
  return structuredClone(example.value);
}

/** The value of a named example of an operation's JSON response, as the contract declares it. */
export function responseExample(operationId: string, status: number, name: string): unknown {
  return exampleValue(jsonMedia(operationId, status), name, `${operationId} ${status}`);
}

/** The value of a named example of an operation's JSON request body. */
export function requestExample(operationId: string, name: string): unknown {
  return exampleValue(jsonMedia(operationId), name, `${operationId} request`);
}

export function exampleNames(operationId: string, status: number): string[] {
  return Object.keys(jsonMedia(operationId, status).examples as JsonObject);
}

/** Throws with the violations when a response body does not match the operation's declared response. */
export function assertMatchesContract(operationId: string, status: number, body: unknown): void {
  const violations = validator.validateResponse(operation(operationId), status, body);
  if (violations.length > 0) {
    throw new Error(`${operationId} ${status} breaks the contract: ${JSON.stringify(violations)}`);
  }
}

/** Every declared response status of an operation with the names of its JSON examples. */
export function declaredExamples(op: ContractOperation): [number, string[]][] {
  const responses = op.operation.responses as JsonObject;
  return Object.keys(responses)
    .filter((status) => /^\d{3}$/.test(status))
    .map((status) => [Number(status), exampleNames(op.operationId, Number(status))]);
}
