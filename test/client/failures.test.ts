// No answer is never mistaken for an API error: a failed connection, a timeout (before or during the body) and the caller's abort each have their own error.
// A body past the limit is not read, and the length a Content-Length declared for it is given to the caller.
import { AsyncLocalStorage, createHook } from "node:async_hooks";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiConnectionError, ApiTimeoutError, createClient, isApiError } from "../../generated/client/index.js";
import { readText } from "../../src/client/body.ts";
import { freePort } from "../support/net.ts";
import { json, startStub, type StubServer } from "../support/stub-server.ts";

let stub: StubServer;
/** How the stub misbehaves: answer after a delay, stall after the head, or cut the body short. */
let mode: "slow" | "stall-body" | "reset-body" | "declares-huge" | "chunked-over" = "slow";

beforeAll(async () => {
  stub = await startStub((_, res) => {
    if (mode === "slow") {
      setTimeout(() => json(res, 200, []), 300);
    } else if (mode === "declares-huge") {
      res.writeHead(200, { "content-type": "application/json", "content-length": "10000000000" });
      res.write("[");
    } else if (mode === "chunked-over") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`[${" ".repeat(4096)}]`);
    } else if (mode === "stall-body") {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write("[");
    } else {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write("[", () => res.destroy());
    }
  });
});
afterAll(() => stub.close());

const api = (options: { timeoutMs?: number } = {}) => createClient({ baseUrl: stub.url, apiKey: "sk_test_a", ...options });

describe("failures without an answer", () => {
  it("throws ApiConnectionError, with the cause, when nothing listens, its message naming the system's code, host and port", async () => {
    const port = await freePort();
    const error = await createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "sk_test_a" })
      .GET("/v3/lab_tests/labs")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(isApiError(error)).toBe(false);
    expect((error as ApiConnectionError).cause).toBeDefined();
    expect((error as ApiConnectionError).operation.operationId).toBe("listLabs");
    // Node's fetch says "fetch failed"; the system's words are two causes down.
    expect((error as Error).message).toBe(`GET /v3/lab_tests/labs: the connection failed (connect ECONNREFUSED 127.0.0.1:${port})`);
  });

  it("names the deepest cause it is given (an AggregateError's first error, a chain that loops cut short), or the cause itself", () => {
    const operation = { method: "GET", path: "/v3/lab_tests/labs", operationId: "listLabs" };
    const both = new TypeError("fetch failed", {
      cause: new AggregateError([new Error("connect ECONNREFUSED ::1:4010"), new Error("connect ECONNREFUSED 127.0.0.1:4010")], ""),
    });
    expect(new ApiConnectionError(operation, both).message).toBe("GET /v3/lab_tests/labs: the connection failed (connect ECONNREFUSED ::1:4010)");
    const looping = new Error("loops") as Error & { cause: unknown };
    looping.cause = looping;
    expect(new ApiConnectionError(operation, looping).message).toBe("GET /v3/lab_tests/labs: the connection failed (loops)");
    expect(new ApiConnectionError(operation, new TypeError("Failed to fetch")).message).toBe("GET /v3/lab_tests/labs: the connection failed (Failed to fetch)");
    expect(new ApiConnectionError(operation, "gone").message).toBe("GET /v3/lab_tests/labs: the connection failed (gone)");
  });

  it("throws ApiConnectionError when the connection is cut while the body is read", async () => {
    mode = "reset-body";
    await expect(api().GET("/v3/lab_tests/labs")).rejects.toBeInstanceOf(ApiConnectionError);
  });

  it("throws ApiTimeoutError when the answer takes longer than the client's timeoutMs", async () => {
    mode = "slow";
    const error = await api({ timeoutMs: 50 })
      .GET("/v3/lab_tests/labs")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).timeoutMs).toBe(50);
  });

  it("lets a call's timeoutMs override the client's, both ways", async () => {
    mode = "slow";
    await expect(api({ timeoutMs: 5_000 }).GET("/v3/lab_tests/labs", { timeoutMs: 50 })).rejects.toBeInstanceOf(ApiTimeoutError);
    const answer = await api({ timeoutMs: 50 }).GET("/v3/lab_tests/labs", { timeoutMs: 5_000 });
    expect(answer.status).toBe(200);
  });

  it("throws ApiTimeoutError when the body stalls after the head arrived", async () => {
    mode = "stall-body";
    await expect(api({ timeoutMs: 150 }).GET("/v3/lab_tests/labs")).rejects.toBeInstanceOf(ApiTimeoutError);
  });

  it("throws the caller's own abort reason, not a timeout", async () => {
    mode = "slow";
    const controller = new AbortController();
    const reason = new Error("the user left the page");
    setTimeout(() => controller.abort(reason), 30);
    await expect(api().GET("/v3/lab_tests/labs", { signal: controller.signal })).rejects.toBe(reason);
  });

  it("throws at once for a signal that is already aborted, sending nothing", async () => {
    const before = stub.arrivals.length;
    const reason = new Error("already gone");
    await expect(api().GET("/v3/lab_tests/labs", { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(stub.arrivals.length).toBe(before);
  });

  it("throws a request that cannot be built as the caller's own error, not ApiConnectionError", async () => {
    let sent = 0;
    const counting = createClient({ baseUrl: "http://x.invalid", apiKey: "sk_test_a", fetch: () => (sent++, Promise.resolve(new Response("{}"))) });
    const body = { user_id: 10n } as unknown as { user_id: string };
    const error = await counting.POST("/v2/link/token", { body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiConnectionError);
    expect(sent).toBe(0);
  });

  it("throws a failure of a custom fetch as ApiConnectionError", async () => {
    const failing = createClient({ baseUrl: "http://x.invalid", apiKey: "sk_test_a", fetch: () => Promise.reject(new TypeError("fetch failed")) });
    await expect(failing.GET("/v3/lab_tests/labs")).rejects.toBeInstanceOf(ApiConnectionError);
  });

  it("keeps no timer alive after a call: the process could exit", async () => {
    mode = "slow";
    // Only the timers the call made, followed through its async context: counting the process's active timers
    // also counted those of whatever else the worker was running (the suite shares its workers between files).
    const call = new AsyncLocalStorage<true>();
    const made = new Map<number, { hasRef?: () => boolean }>();
    let seen = 0;
    const hook = createHook({
      init(id, type, _trigger, resource) {
        if (type !== "Timeout" || !call.getStore()) return;
        seen++;
        made.set(id, resource as { hasRef?: () => boolean });
      },
      destroy(id) {
        made.delete(id);
      },
    }).enable();
    try {
      await call.run(true, () => api({ timeoutMs: 10_000 }).GET("/v3/lab_tests/labs"));
      // Destroy hooks run after the tick that cleared the timer.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      hook.disable();
    }
    // The call's own timeout timer was seen, and none of its timers is left holding the process open.
    expect(seen).toBeGreaterThan(0);
    expect([...made.values()].filter((timer) => timer.hasRef?.() !== false)).toEqual([]);
  });
});

describe("a body past the limit", () => {
  it("is refused before a byte is read when its Content-Length says so, with the length it declared", async () => {
    mode = "declares-huge";
    expect(await readText(await fetch(`${stub.url}/v3/lab_tests/labs`), 1024)).toEqual({ unread: "too_large", declared: 10_000_000_000 });
  });

  it("is cut off at the limit when no Content-Length said so, and names no length", async () => {
    mode = "chunked-over";
    expect(await readText(await fetch(`${stub.url}/v3/lab_tests/labs`), 1024)).toEqual({ unread: "too_large" });
  });
});

describe("a server that accepts and never answers", () => {
  it("is cut off by the timeout", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      await expect(createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "sk_test_a", timeoutMs: 100 }).GET("/v3/lab_tests/labs")).rejects.toBeInstanceOf(
        ApiTimeoutError,
      );
    } finally {
      silent.close();
    }
  });
});
