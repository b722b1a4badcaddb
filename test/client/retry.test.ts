// Retries: off by default, bounded, backed off with jitter, idempotent methods only, on 408, 429, 5xx and failed attempts, Retry-After up to a cap.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiConnectionError, ApiTimeoutError, createClient } from "../../generated/client/index.js";
import { backoffDelay, retryAfterMs, retryPolicy } from "../../src/client/retry.ts";
import { json, startStub, type StubServer } from "../support/stub-server.ts";

const LABS: unknown[] = [];
let stub: StubServer;
/** The statuses the stub answers, one per arrival; the last repeats. A header map may ride along. */
let script: { status: number; headers?: Record<string, string> }[] = [];

beforeAll(async () => {
  stub = await startStub((_, res, index) => {
    const step = script[Math.min(index, script.length - 1)]!;
    json(res, step.status, step.status === 200 ? LABS : { code: "unavailable", message: "Try again." }, step.headers);
  });
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.arrivals.length = 0;
});

const fast = { retries: 3, initialDelayMs: 20, maxDelayMs: 80 };
const api = (retry: unknown = fast) => createClient({ baseUrl: stub.url, apiKey: "sk_test_a", retry: retry as never });
const gaps = () => stub.arrivals.slice(1).map((a, i) => a.at - stub.arrivals[i]!.at);

describe("retries", () => {
  it("are off by default", async () => {
    script = [{ status: 503 }];
    const answer = await createClient({ baseUrl: stub.url, apiKey: "sk_test_a" }).GET("/v3/lab_tests/labs");
    expect(answer.status).toBe(503);
    expect(stub.arrivals).toHaveLength(1);
  });

  for (const status of [408, 429, 500, 502, 503, 504]) {
    it(`try a GET again on ${status}, at most \`retries\` times, and return the last answer`, async () => {
      script = [{ status }];
      const answer = await api().GET("/v3/lab_tests/labs");
      expect(answer.status).toBe(status);
      expect(stub.arrivals).toHaveLength(1 + fast.retries);
    });
  }

  for (const status of [400, 401, 404, 409, 422]) {
    it(`do not try again on ${status}`, async () => {
      script = [{ status }];
      await api().GET("/v3/lab_tests/labs");
      expect(stub.arrivals).toHaveLength(1);
    });
  }

  it("stop at the first success", async () => {
    script = [{ status: 503 }, { status: 502 }, { status: 200 }];
    const answer = await api().GET("/v3/lab_tests/labs");
    expect(answer.status).toBe(200);
    expect(stub.arrivals).toHaveLength(3);
  });

  it("never send a POST twice", async () => {
    script = [{ status: 503 }];
    const answer = await api().POST("/v2/link/token", { body: { user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f" } });
    expect(answer.status).toBe(503);
    expect(stub.arrivals).toHaveLength(1);
  });

  it("wait between half and all of initialDelayMs·2^n, capped at maxDelayMs", async () => {
    script = [{ status: 503 }];
    await api({ retries: 3, initialDelayMs: 40, maxDelayMs: 120 }).GET("/v3/lab_tests/labs");
    const ceilings = [40, 80, 120];
    gaps().forEach((gap, n) => {
      expect(gap).toBeGreaterThanOrEqual(ceilings[n]! / 2 - 2);
      // Generous above: the machine may be busy, but an unbounded or undoubled wait would still show.
      expect(gap).toBeLessThan(ceilings[n]! + 150);
    });
  });

  it("honour Retry-After in seconds", async () => {
    script = [{ status: 429, headers: { "retry-after": "1" } }, { status: 200 }];
    const answer = await api({ retries: 1, initialDelayMs: 1, maxDelayMs: 1 }).GET("/v3/lab_tests/labs");
    expect(answer.status).toBe(200);
    expect(gaps()[0]).toBeGreaterThanOrEqual(990);
  });

  it("return the answer at once when Retry-After asks for longer than maxRetryAfterMs", async () => {
    script = [{ status: 503, headers: { "retry-after": "120" } }, { status: 200 }];
    const answer = await api({ retries: 2, maxRetryAfterMs: 1_000 }).GET("/v3/lab_tests/labs");
    expect(answer.status).toBe(503);
    expect(stub.arrivals).toHaveLength(1);
  });

  it("follow the call's retry setting over the client's", async () => {
    script = [{ status: 503 }];
    await api().GET("/v3/lab_tests/labs", { retry: false });
    expect(stub.arrivals).toHaveLength(1);
    stub.arrivals.length = 0;
    await createClient({ baseUrl: stub.url, apiKey: "sk_test_a" }).GET("/v3/lab_tests/labs", { retry: { retries: 1, initialDelayMs: 1 } });
    expect(stub.arrivals).toHaveLength(2);
  });

  it("send the same request each time: headers, query and credential", async () => {
    script = [{ status: 500 }];
    await api({ retries: 2, initialDelayMs: 1 }).GET("/v3/orders", { params: { query: { interpretation: "abnormal", page: 2 } } });
    expect(stub.arrivals).toHaveLength(3);
    for (const arrival of stub.arrivals) {
      expect(arrival.url.search).toBe("?interpretation=abnormal&page=2");
      expect(arrival.headers["x-svc-api-key"]).toBe("sk_test_a");
    }
  });

  it("try again after a failed connection, then throw ApiConnectionError", async () => {
    let attempts = 0;
    const failing = createClient({
      baseUrl: "http://x.invalid",
      apiKey: "sk_test_a",
      retry: { retries: 2, initialDelayMs: 1 },
      fetch: () => {
        attempts++;
        return Promise.reject(new TypeError("fetch failed"));
      },
    });
    await expect(failing.GET("/v3/lab_tests/labs")).rejects.toBeInstanceOf(ApiConnectionError);
    expect(attempts).toBe(3);
  });

  it("give each attempt its own timeout, then throw ApiTimeoutError", async () => {
    let attempts = 0;
    const hanging = createClient({
      baseUrl: "http://x.invalid",
      apiKey: "sk_test_a",
      timeoutMs: 30,
      retry: { retries: 2, initialDelayMs: 1 },
      fetch: (request) => {
        attempts++;
        return new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason)));
      },
    });
    await expect(hanging.GET("/v3/lab_tests/labs")).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(attempts).toBe(3);
  });

  it("stop waiting when the caller aborts during a backoff", async () => {
    script = [{ status: 503 }];
    const controller = new AbortController();
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 50);
    await expect(api({ retries: 5, initialDelayMs: 10_000, maxDelayMs: 10_000 }).GET("/v3/lab_tests/labs", { signal: controller.signal })).rejects.toBe(reason);
    expect(stub.arrivals).toHaveLength(1);
  });
});

describe("the retry policy", () => {
  it("draws each backoff between half and all of its ceiling", () => {
    const policy = retryPolicy("GET", { initialDelayMs: 100, maxDelayMs: 1_000 })!;
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(policy, n, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(policy, n, () => 1))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3_000);
    expect(retryAfterMs("Sun, 22 Nov 2026 10:00:05 GMT", now)).toBe(5_000);
    expect(retryAfterMs("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("refuses settings that are not finite numbers >= 0", () => {
    expect(() => retryPolicy("GET", { retries: -1 })).toThrow(RangeError);
    expect(() => retryPolicy("GET", { maxDelayMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });

  it("has none for POST or PATCH whatever the setting", () => {
    expect(retryPolicy("POST", true)).toBeUndefined();
    expect(retryPolicy("PATCH", true)).toBeUndefined();
    expect(retryPolicy("DELETE", true)).toMatchObject({ retries: 2, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 });
  });
});
