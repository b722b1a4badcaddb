// paginate yields every item of a paged list across pages, ends by `pages` or, when it is null, at a short page, and keeps to the bounds.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, createClient } from "../../generated/client/index.js";
import { json, startStub, type StubServer } from "../support/stub-server.ts";
import { client } from "../support/mock.ts";
import { responseExample } from "../support/contract.ts";
import { LAB_TEST_ID } from "../support/calls.ts";

let stub: StubServer;
/** The list the stub pages through, whether it reports `total` and `pages`, and a page that fails. */
let list = { count: 0, counted: true, failOnPage: 0 };

beforeAll(async () => {
  stub = await startStub((arrival, res) => {
    const page = Number(arrival.url.searchParams.get("page"));
    const size = Number(arrival.url.searchParams.get("size"));
    if (page === list.failOnPage) return json(res, 404, { code: "not_found", message: "Gone." });
    const ids = Array.from({ length: list.count }, (_, i) => i + 1).slice((page - 1) * size, page * size);
    const key = arrival.url.pathname === "/v3/orders" ? "orders" : "markers";
    const pages = Math.ceil(list.count / size);
    json(res, 200, { [key]: ids.map((id) => ({ id })), total: list.counted ? list.count : null, page, size, pages: list.counted ? pages : null });
  });
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.arrivals.length = 0;
});

const api = () => createClient({ baseUrl: stub.url, apiKey: "sk_test_a" });
const markers = (query: { page?: number; size?: number } = {}) =>
  api().paginate("GET", "/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: LAB_TEST_ID }, query } });

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
const ids = (items: { id: number }[]) => items.map((item) => item.id);
const pagesAsked = () => stub.arrivals.map((a) => Number(a.url.searchParams.get("page")));

describe("paginate", () => {
  for (const counted of [true, false]) {
    const how = counted ? "stops after page `pages`" : "stops at the first short page when `pages` is null";
    it(`${how} (25 items, size 10: three pages)`, async () => {
      list = { count: 25, counted, failOnPage: 0 };
      expect(ids(await collect(markers({ size: 10 })))).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(pagesAsked()).toEqual([1, 2, 3]);
    });

    it(`${how} when the items fill the last page exactly (20 items, size 10)`, async () => {
      list = { count: 20, counted, failOnPage: 0 };
      expect(ids(await collect(markers({ size: 10 })))).toHaveLength(20);
      // Without a count, only an empty page says the list has ended.
      expect(pagesAsked()).toEqual(counted ? [1, 2] : [1, 2, 3]);
    });
  }

  it("asks for the contract's default size, 50, when none is given", async () => {
    list = { count: 120, counted: true, failOnPage: 0 };
    expect(await collect(markers())).toHaveLength(120);
    expect(stub.arrivals.map((a) => a.url.searchParams.get("size"))).toEqual(["50", "50", "50"]);
  });

  it("pages at the largest size, 100", async () => {
    list = { count: 150, counted: false, failOnPage: 0 };
    expect(await collect(markers({ size: 100 }))).toHaveLength(150);
    expect(pagesAsked()).toEqual([1, 2]);
  });

  it("starts at the page it is given", async () => {
    list = { count: 30, counted: true, failOnPage: 0 };
    expect(ids(await collect(markers({ page: 2, size: 10 })))).toEqual(Array.from({ length: 20 }, (_, i) => i + 11));
  });

  it("yields nothing for an empty list, after one request", async () => {
    list = { count: 0, counted: true, failOnPage: 0 };
    expect(await collect(markers())).toEqual([]);
    expect(stub.arrivals).toHaveLength(1);
  });

  for (const [query, message] of [
    [{ size: 0 }, /size must be an integer from 1 to 100/],
    [{ size: 101 }, /size must be an integer from 1 to 100/],
    [{ size: 2.5 }, /size must be an integer/],
    [{ page: 0 }, /page must be an integer >= 1/],
  ] as const) {
    it(`refuses ${JSON.stringify(query)} before any request`, async () => {
      await expect(collect(markers(query))).rejects.toThrow(message);
      expect(stub.arrivals).toHaveLength(0);
    });
  }

  it("throws ApiError when a page fails, after yielding the pages before it", async () => {
    list = { count: 30, counted: true, failOnPage: 2 };
    const seen: number[] = [];
    const error = await (async () => {
      for await (const marker of markers({ size: 10 })) seen.push(marker.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(seen).toHaveLength(10);
  });

  it("pages a POST list, sending the same body with every page", async () => {
    list = { count: 15, counted: false, failOnPage: 0 };
    const body = { lab_test_ids: ["5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b"] };
    const items = await collect(api().paginate("POST", "/v3/lab_tests/list_order_set_markers", { params: { query: { size: 10 } }, body }));
    expect(items).toHaveLength(15);
    expect(stub.arrivals.map((a) => JSON.parse(a.body))).toEqual([body, body]);
  });

  it("pages the order list", async () => {
    list = { count: 3, counted: true, failOnPage: 0 };
    const orders = await collect(api().paginate("GET", "/v3/orders", { params: { query: { interpretation: "abnormal", size: 2 } } }));
    // The stub's orders carry numeric ids only; the contract's are strings.
    expect(orders.map((order) => order.id as unknown)).toEqual([1, 2, 3]);
    expect(stub.arrivals.map((a) => a.url.searchParams.get("interpretation"))).toEqual(["abnormal", "abnormal"]);
  });

  it("refuses an operation that is not paged", async () => {
    // @ts-expect-error the labs list is not paged
    await expect(collect(api().paginate("GET", "/v3/lab_tests/labs"))).rejects.toThrow(/not a paged operation/);
  });

  it("reads the mock's marker list to its end", async () => {
    const page = responseExample("listLabTestMarkers", 200, "first_page") as { markers: unknown[]; pages: number };
    const all = await collect(client().paginate("GET", "/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: LAB_TEST_ID } } }));
    // The static mock answers the same example for every page, so the count is its markers times its pages.
    expect(all).toHaveLength(page.markers.length * page.pages);
  });
});
