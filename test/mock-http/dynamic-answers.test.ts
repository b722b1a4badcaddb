// `Prefer: dynamic=true` asks Prism to invent an answer; an invented answer that breaks the contract is never sent. The
// mock under test here asks a scripted stand-in for Prism (the same seam as the real one, src/mock/prism.ts), so each
// way Prism can fail is provoked on purpose.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRISM_FAILED, PRISM_NOT_INSTALLED, type InventedAnswer, type InventRequest, type Inventor } from "../../src/mock/prism-answers.ts";
import { createMockHost } from "../../src/mock/host.ts";
import { readBundle } from "../../scripts/build/lib/paths.ts";
import { assertMatchesContract } from "../support/contract.ts";
import { TEST_API_KEY } from "../support/keys.ts";

let script: (request: InventRequest) => InventedAnswer | Promise<InventedAnswer> = () => ({ status: 200, body: [] });
/** What the stand-in was asked, in order. */
const asked: InventRequest[] = [];
const standIn: Inventor = async (request) => {
  asked.push(request);
  return script(request);
};

const hosts: { url: string; close(): Promise<void> }[] = [];
let mockUrl = "";
let withoutPrismUrl = "";

async function startHost(prism: Inventor | undefined): Promise<string> {
  const server = createMockHost({ document: await readBundle(), staticFiles: {}, ...(prism ? { prism } : {}) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  hosts.push({ url, close: () => new Promise((resolve) => server.close(() => resolve())) });
  return url;
}

beforeAll(async () => {
  mockUrl = await startHost(standIn);
  withoutPrismUrl = await startHost(undefined);
});

afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
});

const labs = (prefer: string, base = mockUrl) => fetch(`${base}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": TEST_API_KEY, prefer } });

describe("dynamic answers (Prefer: dynamic=true)", () => {
  it("sends Prism's answer when it keeps the contract", async () => {
    const lab = {
      id: 7,
      slug: "quest",
      name: "Quest",
      first_line_address: "1 Main St",
      city: "Austin",
      zipcode: "78701",
      collection_methods: ["testkit"],
      sample_types: ["serum"],
    };
    script = () => ({ status: 200, body: [lab] });
    const answer = await labs("dynamic=true");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBeNull();
    expect(await answer.json()).toEqual([lab]);
  });

  it("asks Prism for the canonical path, the caller's status and example, with the query and the parsed body", async () => {
    script = () => ({ status: 401, body: { code: "unauthorized", message: "invented" } });
    asked.length = 0;
    const answer = await fetch(`${mockUrl}/v3/lab_tests/labs?extra=1`, {
      headers: { "x-svc-api-key": TEST_API_KEY, prefer: "dynamic=true, code=401", accept: "application/json" },
    });
    expect(answer.status).toBe(401);
    expect(asked[0]).toMatchObject({
      method: "GET",
      path: "/v3/lab_tests/labs",
      code: 401,
      headers: { accept: "application/json", prefer: "dynamic=true, code=401" },
    });
    expect(asked[0]!.query.get("extra")).toBe("1");
    expect(asked[0]!.example).toBeUndefined();

    script = () => ({ status: 200, body: { link_token: "lt", link_web_url: "https://link.example/lt" } });
    asked.length = 0;
    const body = { user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f", provider: "oura" };
    await fetch(`${mockUrl}/v2/link/token`, {
      method: "POST",
      headers: { "x-svc-api-key": TEST_API_KEY, "content-type": "application/json", prefer: "dynamic=true, example=link_token" },
      body: JSON.stringify(body),
    });
    expect(asked[0]).toMatchObject({ method: "POST", path: "/v2/link/token", body, example: "link_token" });
  });

  it("never sends an invented answer that breaks the contract: it asks again, then sends the declared example and says why", async () => {
    asked.length = 0;
    script = () => ({ status: 200, body: [{ id: "not-an-integer" }] });
    const answer = await labs("dynamic=true");
    expect(answer.status).toBe(200);
    expect(asked.length).toBe(3);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toMatch(/broke the contract/);
    assertMatchesContract("listLabs", 200, await answer.json());
  });

  it("never forwards Prism's own 500 problem body or an undeclared 404: the declared example stands in", async () => {
    for (const status of [500, 404]) {
      script = () => ({ status, body: { type: "https://stoplight.io/prism/errors#UNKNOWN", title: "Prism failed", status, detail: "" } });
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

  it("sends the headers the contract requires of the invented answer's status, as a declared answer does (a 429's Retry-After)", async () => {
    script = () => ({ status: 429, body: { code: "rate_limited", message: "Slow down (invented)." } });
    const answer = await labs("dynamic=true, code=429");
    expect(answer.status).toBe(429);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBeNull();
    expect(answer.headers.get("retry-after")).toBe("30");
    expect(await answer.json()).toEqual({ code: "rate_limited", message: "Slow down (invented)." });
  });

  it("refuses a Prefer code the operation does not declare with the same 400, dynamic or not, without asking Prism", async () => {
    asked.length = 0;
    for (const prefer of ["code=418", "dynamic=true, code=418"]) {
      const answer = await labs(prefer);
      expect(answer.status, prefer).toBe(400);
      expect(await answer.json()).toMatchObject({ code: "invalid_request", details: [{ location: "header", field: "prefer" }] });
    }
    expect(asked.length).toBe(0);
  });

  it("sends the declared example, saying so, when Prism fails (it did not load, or threw), and asks it once", async () => {
    asked.length = 0;
    script = () => Promise.reject(new Error("Cannot find module 'fp-ts/Either'\nRequire stack: ..."));
    const answer = await labs("dynamic=true");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBe(PRISM_FAILED);
    expect(asked.length).toBe(1);
    assertMatchesContract("listLabs", 200, await answer.json());
  });

  it("sends the declared example, saying Prism is not installed, when the mock has no Prism", async () => {
    const answer = await labs("dynamic=true", withoutPrismUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBe(PRISM_NOT_INSTALLED);
    assertMatchesContract("listLabs", 200, await answer.json());
  });
});
