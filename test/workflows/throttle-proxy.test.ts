// The proxy that keeps respect's requests to verify's --rate: it forwards requests and answers unchanged (status,
// headers, body), spaces them by the limiter, and answers 502 naming the target when the target cannot be reached.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RateLimiter } from "../../scripts/verify/http.ts";
import { startThrottleProxy, type ThrottleProxy } from "../../scripts/verify/throttle-proxy.ts";
import { freePort } from "../support/net.ts";

let proxy: ThrottleProxy;
beforeAll(async () => {
  proxy = await startThrottleProxy(inject("mockUrl"), new RateLimiter(20));
});
afterAll(() => proxy.close());

const KEY = { "x-svc-api-key": "sk_test_0000_not_a_real_key" };

describe("the throttling proxy", () => {
  it("forwards a request and its answer unchanged", async () => {
    for (const [path, init] of [
      ["/v3/lab_tests/labs", { headers: KEY }],
      ["/v2/user", { method: "POST", headers: { ...KEY, "content-type": "application/json" }, body: JSON.stringify({ client_user_id: "patient-0001" }) }],
      ["/v2/user", { method: "POST", headers: { ...KEY, "content-type": "application/json" }, body: "{" }],
    ] as const) {
      const [direct, proxied] = await Promise.all([fetch(`${inject("mockUrl")}${path}`, init), fetch(`${proxy.url}${path}`, init)]);
      expect([proxied.status, proxied.headers.get("content-type"), await proxied.text()]).toEqual([direct.status, direct.headers.get("content-type"), await direct.text()]);
    }
  });

  it("spaces requests by the limiter, concurrent ones included", async () => {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${proxy.url}/v3/lab_tests/labs`, { headers: KEY })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Six requests at 20 a second: at least five intervals of 50 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("answers 502 naming the target when it cannot be reached", async () => {
    const nowhere = await startThrottleProxy(`http://127.0.0.1:${await freePort()}`, new RateLimiter(undefined));
    try {
      const answer = await fetch(`${nowhere.url}/v3/lab_tests/labs`);
      expect(answer.status).toBe(502);
      expect(((await answer.json()) as { message: string }).message).toContain("verify could not reach http://127.0.0.1:");
    } finally {
      await nowhere.close();
    }
  });
});
