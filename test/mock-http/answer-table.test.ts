// The mock answers static requests from its table of the contract's examples instead of asking Prism; for every
// operation, declared status and named example, bare Prism gives the same status and the same JSON.
import createFetchClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../generated/schema.js";
import { DECLARED_EXAMPLES_AT_LEAST, declaredExamples, operations } from "../support/contract.ts";
import { callOperation } from "../support/calls.ts";
import { startBarePrism, type BarePrism } from "../support/bare-prism.ts";
import { clientFor, prefer, TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY } from "../support/mock.ts";

let bare: BarePrism;
let prism: ReturnType<typeof createFetchClient<paths>>;
beforeAll(async () => {
  bare = await startBarePrism();
  prism = createFetchClient<paths>({
    baseUrl: bare.url,
    headers: { "x-svc-api-key": TEST_API_KEY, "x-svc-link-token": TEST_LINK_TOKEN, "x-management-key": TEST_MANAGEMENT_KEY },
  });
}, 60_000);
afterAll(() => bare?.stop());

describe("the mock's answer table is what Prism answers", () => {
  let answers = 0;
  for (const op of operations) {
    for (const [status, names] of declaredExamples(op)) {
      for (const name of names) {
        answers += 1;
        it(`${op.operationId} ${status} ${name}`, async () => {
          const choice = prefer(`code=${status}, example=${name}`);
          const [fromTable, fromPrism] = await Promise.all([
            callOperation(clientFor(op.template), op.operationId, choice),
            callOperation(prism, op.operationId, choice),
          ]);
          expect(fromTable.status).toBe(status);
          expect(fromPrism.status).toBe(status);
          expect(status < 400 ? fromTable.data : fromTable.error).toEqual(status < 400 ? fromPrism.data : fromPrism.error);
        });
      }
    }
  }

  it(`compares every declared answer, at least ${DECLARED_EXAMPLES_AT_LEAST}`, () => {
    expect(answers).toBeGreaterThanOrEqual(DECLARED_EXAMPLES_AT_LEAST);
  });
});
