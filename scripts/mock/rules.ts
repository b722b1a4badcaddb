// Picks the documented branch the mock answers from the interface document's rules, when the caller did not choose one with a Prefer header.
export type MockRule = (request: { body: unknown; query: URLSearchParams }) => string | undefined;

function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** Prefer values, by operationId. Each names a response code or example the contract declares. */
export const MOCK_RULES: Record<string, MockRule> = {
  // 4.4: 202 at once, unless the caller waits for completion (then 200, as if it finished within 20 s).
  bulkImportConnections: ({ body }) => (field(body, "wait_for_completion") === true ? "code=200" : "code=202"),
  // 4.1: MEDFED and MAIDFED are replaced by the plan of the patient's address state (the patient is the end user of the
  // path; which of its addresses counts is not shown). The mock answers the one state-plan example whatever the address.
  createInsurance: ({ body }) =>
    ["MEDFED", "MAIDFED"].includes(String(field(body, "payor_code"))) ? "code=200, example=medicare_inferred_from_state" : undefined,
  // 4.14: the one filtered example the contract has; other filters get the unfiltered list.
  listOrders: ({ query }) => (query.get("interpretation") === "abnormal" ? "code=200, example=abnormal_results" : undefined),
};
