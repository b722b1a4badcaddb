// Every operation, every declared response and every named example is reachable in the mock through the generated client:
// by Prefer, by each operation's own valid call, and by each branch of the document's rules the operation declares.
import { describe, expect, it } from "vitest";
import { mockBranches } from "../../src/mock/branches.ts";
import { assertMatchesContract, DECLARED_EXAMPLES_AT_LEAST, declaredExamples, exampleNames, operations, responseExample } from "../support/contract.ts";
import { callOperation, VALID_CALLS } from "../support/calls.ts";
import { clientFor, prefer } from "../support/mock.ts";

/** The branches (`x-svc-mock-branches`) the contract declared when this was written: the floor of the loop over them. */
const BRANCHES_AT_LEAST = 6;
let branches = 0;
let answers = 0;

describe("the valid-call table", () => {
  it("has a valid call for every operation of the contract", () => {
    expect(Object.keys(VALID_CALLS).sort()).toEqual(operations.map((op) => op.operationId).sort());
  });
});

for (const op of operations) {
  describe(`${op.method} ${op.template} (${op.operationId})`, () => {
    it("answers its own valid call (x-svc-valid-call) with a declared success, without Prefer", async () => {
      const result = await callOperation(clientFor(op.template), op.operationId);
      expect(result.status, JSON.stringify(result.error)).toBeLessThan(300);
      assertMatchesContract(op.operationId, result.status, result.data);
    });

    for (const branch of mockBranches(op)) {
      branches += 1;
      it(`takes branch ${branch.name} when the request meets it, without Prefer`, async () => {
        const when = branch.when;
        const body = VALID_CALLS[op.operationId]!.body as Record<string, unknown> | undefined;
        const init =
          when === undefined ? {} : when.in === "query" ? { params: { query: { [when.field]: when.is[0] } } } : { body: { ...body, [when.field]: when.is[0] } };
        const result = await callOperation(clientFor(op.template), op.operationId, init);
        const answered = result.status < 400 ? result.data : result.error;
        if (branch.answer.code !== undefined) expect(result.status).toBe(branch.answer.code);
        const example = branch.answer.example ?? exampleNames(op.operationId, result.status)[0]!;
        expect(answered).toEqual(responseExample(op.operationId, result.status, example));
      });
    }

    for (const [status, names] of declaredExamples(op)) {
      for (const name of names) {
        answers += 1;
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

// Counted as the tests above were made: branches or examples read as none would make no test, and pass.
describe("what the loops above ran over", () => {
  it(`every declared answer, at least ${DECLARED_EXAMPLES_AT_LEAST}, and every branch, at least ${BRANCHES_AT_LEAST}`, () => {
    expect(answers).toBeGreaterThanOrEqual(DECLARED_EXAMPLES_AT_LEAST);
    expect(branches).toBeGreaterThanOrEqual(BRANCHES_AT_LEAST);
  });
});
