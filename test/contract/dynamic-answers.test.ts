// `Prefer: dynamic=true` asks Prism to invent an answer; an invented answer that breaks the contract is never sent. The
// mock under test here talks to a scripted stand-in for Prism, so each way Prism can fail is provoked on purpose.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHost } from "../../src/mock/host.ts";
import { readBundle } from "../../scripts/lib/paths.ts";
import { assertMatchesContract } from "../support/contract.ts";
import { TEST_API_KEY } from "../support/keys.ts";
import { json, startStub, type StubServer } from "../support/stub-server.ts";

type Script = (path: string) => { status: number; body: unknown; type?: string };

let script: Script = () => ({ status: 200, body: [] });
let prism: StubServer;
let mockUrl = "";
let prismUrl: () => Promise<string>;
let close: () => Promise<void>;

beforeAll(async () => {
  prism = await startStub((arrival, res) => {
    const { status, body, type } = script(arrival.url.pathname);
    if (type) {
      res.writeHead(status, { "content-type": type });
      return void res.end(JSON.stringify(body));
    }
    json(res, status, body);
  });
  prismUrl = async () => prism.url;
  const server = createMockHost({ document: await readBundle(), staticFiles: {}, prism: () => prismUrl() });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  mockUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(async () => {
  await close();
  await prism.close();
});

const labs = (prefer: string) => fetch(`${mockUrl}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": TEST_API_KEY, prefer } });

describe("dynamic answers (Prefer: dynamic=true)", () => {
  it("sends Prism's answer when it keeps the contract", async () => {
    const lab = { id: 7, slug: "quest", name: "Quest", first_line_address: "1 Main St", city: "Austin", zipcode: "78701", collection_methods: ["testkit"], sample_types: ["serum"] };
    script = () => ({ status: 200, body: [lab] });
    const answer = await labs("dynamic=true");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBeNull();
    expect(await answer.json()).toEqual([lab]);
  });

  it("never sends an invented answer that breaks the contract: it asks again, then sends the declared example and says why", async () => {
    const before = prism.arrivals.length;
    script = () => ({ status: 200, body: [{ id: "not-an-integer" }] });
    const answer = await labs("dynamic=true");
    expect(answer.status).toBe(200);
    expect(prism.arrivals.length - before).toBe(3);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toMatch(/broke the contract/);
    assertMatchesContract("listLabs", 200, await answer.json());
  });

  it("never forwards Prism's own 500 problem body or an undeclared 404: the declared example stands in", async () => {
    for (const [status, type] of [
      [500, "application/problem+json"],
      [404, "application/problem+json"],
    ] as const) {
      script = () => ({ status, body: { type: "https://stoplight.io/prism/errors#UNKNOWN", title: "Prism failed", status }, type });
      const answer = await labs("dynamic=true");
      expect(answer.status, String(status)).toBe(200);
      expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toMatch(new RegExp(`${status}`));
      assertMatchesContract("listLabs", 200, await answer.json());
    }
  });

  it("answers a status other than the one Prefer asked for with the declared example of the one asked for", async () => {
    script = () => ({ status: 200, body: [] });
    const answer = await labs("dynamic=true, code=401");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toMatch(/not the 401 asked for/);
    assertMatchesContract("listLabs", 401, await answer.json());
  });

  it("refuses a Prefer code the operation does not declare with the same 400, dynamic or not, without asking Prism", async () => {
    const before = prism.arrivals.length;
    for (const prefer of ["code=418", "dynamic=true, code=418"]) {
      const answer = await labs(prefer);
      expect(answer.status, prefer).toBe(400);
      expect(await answer.json()).toMatchObject({ code: "invalid_request", details: [{ location: "header", field: "prefer" }] });
    }
    expect(prism.arrivals.length).toBe(before);
  });

  it("sends the declared example, saying so, when Prism cannot be reached", async () => {
    prismUrl = async () => "http://127.0.0.1:9";
    try {
      const answer = await labs("dynamic=true");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBe("Prism did not answer");
      assertMatchesContract("listLabs", 200, await answer.json());
    } finally {
      prismUrl = async () => prism.url;
    }
  });
});
