// Reads the bundled contract for tests: its operations, their declared examples, and an Ajv validator of requests and responses.
import { readFileSync } from "node:fs";
import { ContractValidator } from "../../scripts/lib/contract-validator.ts";
import { deref, listOperations, type ContractOperation } from "../../scripts/lib/operations.ts";
import { bundleJsonPath } from "../../scripts/lib/paths.ts";
import type { JsonObject } from "../../scripts/lib/walk.ts";

export const contract = JSON.parse(readFileSync(bundleJsonPath, "utf8")) as JsonObject;
export const operations = listOperations(contract);
export const validator = new ContractValidator(contract);

export function operation(operationId: string): ContractOperation {
  const found = operations.find((op) => op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the contract`);
  return found;
}

/** The value of a named example of an operation's JSON response, as the contract declares it. */
export function responseExample(operationId: string, status: number, name: string): unknown {
  const responses = operation(operationId).operation.responses as JsonObject;
  const response = deref(contract, responses[String(status)]);
  const media = (response.content as JsonObject)["application/json"] as JsonObject;
  const example = deref(contract, (media.examples as JsonObject)[name]);
  if (example === undefined) throw new Error(`${operationId} ${status} has no example ${name}`);
  return example.value;
}

/** The value of a named example of an operation's JSON request body. */
export function requestExample(operationId: string, name: string): unknown {
  const body = deref(contract, operation(operationId).operation.requestBody);
  const media = (body.content as JsonObject)["application/json"] as JsonObject;
  const example = deref(contract, (media.examples as JsonObject)[name]);
  if (example === undefined) throw new Error(`${operationId} request has no example ${name}`);
  return example.value;
}

export function exampleNames(operationId: string, status: number): string[] {
  const responses = operation(operationId).operation.responses as JsonObject;
  const response = deref(contract, responses[String(status)]);
  return Object.keys(((response.content as JsonObject)["application/json"] as JsonObject).examples as JsonObject);
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
