// Every operation, every declared response and every named example is reachable in the mock through the generated client.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, declaredExamples, operations, responseExample } from "../support/contract.ts";
import { callOperation, VALID_CALLS } from "../support/calls.ts";
import { clientFor, prefer } from "../support/mock.ts";

describe("the valid-call table", () => {
  it("has a valid call for every operation of the contract", () => {
    expect(Object.keys(VALID_CALLS).sort()).toEqual(operations.map((op) => op.operationId).sort());
  });
});

for (const op of operations) {
  describe(`${op.method} ${op.template} (${op.operationId})`, () => {
    for (const [status, names] of declaredExamples(op)) {
      for (const name of names) {
        it(`answers ${status} with example "${name}" when asked with Prefer`, async () => {
          const result = await callOperation(clientFor(op.template), op.operationId, prefer(`code=${status}, example=${name}`));
          expect(result.status).toBe(status);
          const body = status < 400 ? result.data : result.error;
          expect(body).toEqual(responseExample(op.operationId, status, name));
          assertMatchesContract(op.operationId, status, body);
          expect(result.response.headers.get("x-svc-mock-contract-violation")).toBeNull();
        });
      }
    }
  });
}
