// Picks the documented branch the mock answers from the interface document's rules, when the caller did not choose one with a Prefer header.
import type { Choice } from "./answers.ts";

export type MockRule = (request: { body: unknown; query: URLSearchParams }) => Choice | undefined;

function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** Choices, by operationId. Each names a response code or example the contract declares. */
export const MOCK_RULES: Record<string, MockRule> = {
  // 4.4: 202 at once, unless the caller waits for completion (then 200, as if it finished within 20 s).
  bulkImportConnections: ({ body }) => (field(body, "wait_for_completion") === true ? { code: 200 } : { code: 202 }),
  // 4.1: MEDFED and MAIDFED are replaced by the plan of the patient's address state (the patient is the end user of the
  // path; which of its addresses counts is not shown). The mock answers the one state-plan example whatever the address.
  createInsurance: ({ body }) =>
    ["MEDFED", "MAIDFED"].includes(String(field(body, "payor_code"))) ? { code: 200, example: "medicare_inferred_from_state" } : undefined,
  // 4.14: the one filtered example the contract has; other filters get the unfiltered list.
  listOrders: ({ query }) => (query.get("interpretation") === "abnormal" ? { code: 200, example: "abnormal_results" } : undefined),
  // 7.3: a client_user_id that already belongs to a user (patient-0001, the examples' first user) answers 400 naming that user.
  createUser: ({ body }) => (field(body, "client_user_id") === "patient-0001" ? { code: 400, example: "user_already_exists" } : undefined),
  // 3: the examples' second user is the one whose sleep pull is Retrying; filtering on them answers that example.
  getHistoricalPullIntrospection: ({ query }) =>
    query.get("user_id") === "8d2e4f6a-1b3c-4d5e-9f7a-2b4c6d8e0f1a" ? { code: 200, example: "retrying" } : undefined,
};
