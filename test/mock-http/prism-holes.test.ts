// Shows each gap in Prism's own request handling on bare Prism, and that the mock's host closes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertMatchesContract, responseExample } from "../support/contract.ts";
import { LAB_TEST_ID } from "../support/calls.ts";
import { startBarePrism, type BarePrism } from "../support/bare-prism.ts";
import { mockUrl, TEST_API_KEY } from "../support/mock.ts";

let bare: BarePrism;
beforeAll(async () => {
  bare = await startBarePrism();
}, 60_000);
afterAll(() => bare?.stop());

const headers = { "x-svc-api-key": TEST_API_KEY, "content-type": "application/json" };

async function both(path: string, init: RequestInit = {}) {
  const send = async (base: string) => {
    const response = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers as object) } });
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>) };
  };
  return { prism: await send(bare.url), mock: await send(mockUrl) };
}

describe("where an operation declares 422, Prism answers with that example", () => {
  it("so bare Prism blames size for page=0; the mock names page", async () => {
    const { prism, mock } = await both(`/v3/lab_tests/${LAB_TEST_ID}/markers?page=0`);
    expect(prism.status).toBe(422);
    expect(prism.body).toEqual(responseExample("listLabTestMarkers", 422, "invalid_request"));
    expect(mock.status).toBe(422);
    expect(mock.body?.details).toEqual([{ location: "query", field: "page", message: "must be >= 1" }]);
  });
});

describe("malformed JSON", () => {
  it("gets a 400 in a shape the contract does not have from bare Prism; the mock answers the contract's 400", async () => {
    const { prism, mock } = await both("/v2/link/token", { method: "POST", body: "{" });
    expect(prism.status).toBe(400);
    expect(() => assertMatchesContract("createLinkToken", 400, prism.body)).toThrow();
    expect(mock.status).toBe(400);
    assertMatchesContract("createLinkToken", 400, mock.body);
    expect(mock.body?.details).toEqual([{ location: "body", field: "", message: "is not valid JSON" }]);
  });
});

describe("x-svc-path-aliases", () => {
  it("bare Prism does not know /v2/providers/; the mock answers it like /v2/providers", async () => {
    const { prism, mock } = await both("/v2/providers/");
    expect(prism.status).toBe(404);
    expect(mock.status).toBe(200);
    expect(mock.body).toEqual((await both("/v2/providers")).mock.body);
  });
});

describe("bulk import answers 202 at once unless the caller waits (4.4)", () => {
  it("bare Prism answers the lowest 2xx, 200; the mock answers 202", async () => {
    const { prism, mock } = await both("/v2/link/bulk_import", { method: "POST", body: JSON.stringify({ provider: "oura", connections: [] }) });
    expect(prism.status).toBe(200);
    expect(mock.status).toBe(202);
    expect(mock.body).toEqual(responseExample("bulkImportConnections", 202, "accepted"));
  });
});
