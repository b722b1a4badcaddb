// The contract a replay judges with, read and compiled once a process: a process may replay many failures (a test, a
// script going through a report's ids), and compiling the contract's schemas again for each one costs more than the
// replay's requests. Nothing here is changed by a replay: what it learns goes into its own redactor and fixtures.
import type { JsonObject } from "../../contract/json.ts";
import { listOperations, type ContractOperation } from "../../contract/operations.ts";
import { createRouter, type Router } from "../../contract/router.ts";
import { validCalls, type ValidCall } from "../../contract/valid-calls.ts";
import { ContractValidator } from "../../contract/validator.ts";
import { readBundle } from "../package-files.ts";

export interface ReplayContract {
  document: JsonObject;
  operations: ContractOperation[];
  validator: ContractValidator;
  validCalls: Record<string, ValidCall>;
  /** A replayed request's path parameters, read back from its URL. */
  router: Router;
}

let loaded: Promise<ReplayContract> | undefined;

async function load(): Promise<ReplayContract> {
  const document = (await readBundle()) as JsonObject;
  const operations = listOperations(document);
  return { document, operations, validator: new ContractValidator(document), validCalls: validCalls(document, operations), router: createRouter(document) };
}

export function replayContract(): Promise<ReplayContract> {
  loaded ??= load().catch((error: unknown) => {
    // A failed read is not kept: the next replay reads again.
    loaded = undefined;
    throw error;
  });
  return loaded;
}
