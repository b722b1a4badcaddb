// Every paged list (x-svc-paging) and filter (x-svc-filter) the contract marks, through the generated client against the
// mock: a page holds at most `size` items, `page` and `size` echo the request, `pages` agrees with `total`, the pages
// together are the whole list, a page past the last is empty, and a filter keeps only the items that match it. The
// operations come from the marks, never from a list kept here.
import { describe, expect, it } from "vitest";
import { collectionMarks, filterValues, matchesFilter } from "../../src/contract/collections.ts";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { contract, operations } from "../support/contract.ts";
import { callOperation } from "../support/calls.ts";
import { clientFor } from "../support/mock.ts";
import { createClient } from "../../generated/client/index.js";

const marked = operations.map((op) => ({ op, marks: collectionMarks(contract, op) }));
const paged = marked.filter(({ marks }) => marks.paging !== undefined);
const filtered = marked.flatMap(({ op, marks }) => marks.filters.map((filter) => ({ op, filter })));
/** The paged lists and filters the contract marked when this was written: the floor of the loops over them. */
const PAGED_AT_LEAST = 5;
const FILTERS_AT_LEAST = 5;

type Page = Record<string, unknown> & { total: number; page: number; size: number; pages: number };

async function list(operationId: string, template: string, query: Record<string, unknown>): Promise<Page> {
  const result = await callOperation(clientFor(template), operationId, { params: { query } });
  expect(result.status, JSON.stringify(result.error)).toBe(200);
  return result.data as Page;
}

describe("the marks", () => {
  it(`mark every operation that takes page and size as paged (at least ${PAGED_AT_LEAST}), and at least ${FILTERS_AT_LEAST} filters`, () => {
    const takesPaging = operations.filter((op) => ["page", "size"].every((name) => op.parameters.some((p) => p.in === "query" && p.name === name)));
    expect(paged.map(({ op }) => op.operationId).sort()).toEqual(takesPaging.map((op) => op.operationId).sort());
    expect(paged.length).toBeGreaterThanOrEqual(PAGED_AT_LEAST);
    expect(filtered.length).toBeGreaterThanOrEqual(FILTERS_AT_LEAST);
  });
});

for (const { op, marks } of paged) {
  const { items } = marks.paging!;
  describe(`${op.operationId}: its pages`, () => {
    it("hold at most size items, echo page and size, agree with total, and together are the whole list", async () => {
      const whole = await list(op.operationId, op.template, {});
      const all = whole[items] as unknown[];
      expect(all.length).toBeGreaterThan(0);
      for (const size of [1, 2]) {
        const pages = Math.ceil(whole.total / size);
        const seen: unknown[] = [];
        for (let page = 1; page <= pages; page++) {
          const answer = await list(op.operationId, op.template, { page, size });
          const held = answer[items] as unknown[];
          expect(held.length).toBeLessThanOrEqual(size);
          expect({ page: answer.page, size: answer.size, total: answer.total, pages: answer.pages }).toEqual({ page, size, total: whole.total, pages });
          seen.push(...held);
        }
        expect(seen).toEqual(all);
      }
    });

    it("past the last is empty, and says which page it is", async () => {
      const answer = await list(op.operationId, op.template, { page: 999, size: 1 });
      expect(answer[items]).toEqual([]);
      expect(answer.page).toBe(999);
      expect(answer.pages).toBe(answer.total);
    });
  });
}

for (const { op, filter } of filtered) {
  describe(`${op.operationId}: the ${filter.parameter} filter`, () => {
    it(`keeps only the ${filter.items} whose ${filter.field} matches, and some for each value the list holds`, async () => {
      const whole = await list(op.operationId, op.template, {});
      const values = filterValues(whole[filter.items] as unknown[], filter);
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) {
        const kept = (await list(op.operationId, op.template, { [filter.parameter]: filter.match === "all" ? [value] : value }))[filter.items] as unknown[];
        expect(kept.length, `${filter.parameter}=${value}`).toBeGreaterThan(0);
        for (const item of kept) expect(matchesFilter(item, filter, [value]), `${filter.parameter}=${value}: ${JSON.stringify(item).slice(0, 200)}`).toBe(true);
      }
    });
  });
}

describe("the stateful mock's bulk operations", () => {
  it("are paged and filtered as the contract marks them", async () => {
    const mock: RunningMock = await startMock({ port: 0, stateful: {} });
    try {
      const api = createClient({ baseUrl: mock.url, apiKey: "sk_test_collections_0123456789" });
      const user = await api.POST("/v2/user", { body: { client_user_id: "collections-1" } });
      expect(user.status).toBe(200);
      const userId = user.status === 200 ? user.data.user_id : "";
      const connection = { user_id: userId, access_token: "a", refresh_token: "r", provider_id: "p", expires_at: 1, oauth_scopes: [] };
      for (const provider of ["oura", "oura", "whoop"])
        expect((await api.POST("/v2/link/bulk_import", { body: { provider, connections: [connection] } })).ok).toBe(true);
      const page = await api.GET("/v2/link/bulk_op", { params: { query: { provider: "oura", page: 2, size: 1 } } });
      expect(page.status).toBe(200);
      if (page.status !== 200) return;
      expect({ ...page.data, bulk_ops: page.data.bulk_ops.map((op) => op.provider) }).toEqual({ bulk_ops: ["oura"], total: 2, page: 2, size: 1, pages: 2 });
    } finally {
      await mock.stop();
    }
  });
});
