// One valid call per operation, made through the generated clients, so generic tests can reach every operation and branch.
import type { SvcClient } from "../../generated/client/index.js";
import type { ManagementClient } from "../../generated/management/index.js";
import type { bareClient } from "./mock.ts";
import { validCalls } from "../../src/contract/valid-calls.ts";
import { contract, operation, operations } from "./contract.ts";

export const USER_ID = "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f";
/** The second user of the examples' story (patient-0002), whose deletion they follow. */
export const SECOND_USER_ID = "8d2e4f6a-1b3c-4d5e-9f7a-2b4c6d8e0f1a";
export const ORDER_ID = "7a1d9c3b-2e4f-4a6b-8c0d-1e2f3a4b5c6d";
export const LAB_TEST_ID = "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b";
export const TEAM_ID = "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";
export const SECOND_TEAM_ID = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
export const API_KEY_ID = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f";
export const MANAGEMENT_KEY_ID = "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
export const WEBHOOK_ID = "1e2d3c4b-5a69-4788-9a0b-c1d2e3f4a5b6";
export const PIPELINE_ID = "8f7e6d5c-4b3a-4291-8a0b-1c2d3e4f5a6b";

/** The six summary operations of 4.14, one per resource. */
export const SUMMARY_OPERATIONS = [
  "listActivitySummaries",
  "listBodySummaries",
  "listMealSummaries",
  "listProfileSummaries",
  "listSleepSummaries",
  "listWorkoutSummaries",
] as const;

export interface CallInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
}

/** A valid request for every operation of the contract, keyed by operationId: each operation's own x-svc-valid-call. */
export const VALID_CALLS: Record<string, CallInit> = Object.fromEntries(
  Object.entries(validCalls(contract, operations)).map(([operationId, call]) => [
    operationId,
    { params: { path: call.path, query: call.query }, ...("body" in call ? { body: call.body } : {}) },
  ]),
);

export interface CallResult {
  status: number;
  data: unknown;
  error: unknown;
  response: Response;
}

/** Calls an operation by its id through a package client (or bare openapi-fetch), with its valid call merged with `init`. */
export async function callOperation(
  api: SvcClient | ManagementClient | ReturnType<typeof bareClient>,
  operationId: string,
  init: CallInit = {},
): Promise<CallResult> {
  const { method, template } = operation(operationId);
  const base = VALID_CALLS[operationId] ?? {};
  const merged = {
    params: { path: { ...base.params?.path, ...init.params?.path }, query: { ...base.params?.query, ...init.params?.query } },
    ...("body" in init ? { body: init.body } : "body" in base ? { body: base.body } : {}),
    headers: { ...base.headers, ...init.headers },
  };
  // The table is keyed by operationId at run time; the client's per-path types cannot follow that.
  const send = (api as unknown as Record<string, (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>>)[method];
  const { data, error, response } = await send!(template, merged);
  return { status: response.status, data, error, response };
}
