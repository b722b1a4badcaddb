// A server that misbehaves on purpose (127.0.0.1): the client surfaces each fault as its typed error or as the declared or undeclared answer, and never crashes or hangs.
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { ApiConnectionError, ApiTimeoutError, createClient, isApiError, type ApiError } from "../../generated/client/index.js";
import { startStub, type StubServer } from "../support/stub-server.ts";

type Fault = (res: http.ServerResponse) => void;

let stub: StubServer;
let fault: Fault = () => undefined;

beforeAll(async () => {
  stub = await startStub((_, res) => fault(res));
});
afterAll(() => stub.close());

const api = (
  options: { timeoutMs?: number; throwOnError?: boolean; retry?: { retries: number; initialDelayMs?: number; maxDelayMs?: number } } = {},
  baseUrl = stub.url,
) => createClient({ baseUrl, apiKey: "sk_test_faults", ...options });

/**
 * Far beyond any call's time on the busiest machine, and within the test's own timeout: a call still unsettled then is
 * a hang. A stub that answers later than this proves a deadline fired, without timing the call.
 */
const HANG_GUARD_MS = 30_000;

/** Settles the call, or fails the test as a hang after `ms`: every fault must end in an answer or an error. */
async function settle<T>(call: Promise<T>, ms = HANG_GUARD_MS): Promise<{ value?: T; error?: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the client hung: no answer and no error within ${ms} ms`)), ms);
  });
  try {
    const value = await Promise.race([call, hang]);
    return { value };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("the client hung")) throw error;
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

const listLabs = (options?: Parameters<typeof api>[0], baseUrl?: string) => api(options, baseUrl).GET("/v3/lab_tests/labs");

function send(res: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** Writes raw bytes on the socket as the whole answer, bypassing Node's response framing. */
function rawAnswer(bytes: string): Fault {
  return (res) => {
    res.socket!.end(Buffer.from(bytes, "latin1"));
  };
}

describe("bodies that are not the JSON the contract declares", () => {
  for (const [what, status, body, type] of [
    ["a declared 200 with an HTML page", 200, "<html><body>Sign in</body></html>", "text/html"],
    ["a declared 200 whose JSON is cut short (a complete response)", 200, '{"labs":[{"id":', "application/json"],
    ["a declared 200 with bytes that are not UTF-8", 200, Buffer.from([0xff, 0xfe, 0x00, 0x7b]), "application/json"],
    ["a declared 200 of XML", 200, "<labs/>", "application/xml"],
    ["a declared 400 in plain text", 400, "Bad Request", "text/plain"],
    ["a declared 401 with an empty body", 401, "", "application/json"],
  ] as const) {
    it(`throws ApiError for ${what}`, async () => {
      fault = (res) => send(res, status, body, { "content-type": type });
      const { error } = await settle(listLabs());
      expect(isApiError(error), String(error)).toBe(true);
      expect((error as ApiError).status).toBe(status);
      expect((error as ApiError).operation.operationId).toBe("listLabs");
    });
  }

  it("reads a declared 200 by its body, not its label: JSON sent as text/plain is the answer", async () => {
    fault = (res) => send(res, 200, JSON.stringify({ labs: [] }), { "content-type": "text/plain" });
    const { value } = await settle(listLabs());
    expect(value?.status).toBe(200);
    expect(value?.ok).toBe(true);
    expect(value?.data).toEqual({ labs: [] });
  });
});

describe("statuses the operation does not declare", () => {
  for (const [status, body, type, expected] of [
    [418, JSON.stringify({ code: "teapot" }), "application/json", { code: "teapot" }],
    [502, "<h1>Bad gateway</h1>", "text/html", "<h1>Bad gateway</h1>"],
    [599, "", "text/plain", ""],
    [299, JSON.stringify([1]), "application/json", [1]],
    [404, JSON.stringify({ code: "not_found", message: "x" }), "application/problem+json", { code: "not_found", message: "x" }],
  ] as const) {
    it(`gives an undeclared ${status} as a failure value with the body as it came`, async () => {
      fault = (res) => send(res, status, body, { "content-type": type });
      const { value, error } = await settle(listLabs());
      expect(error).toBeUndefined();
      expect(value?.status).toBe(status);
      expect(value?.ok).toBe(false);
      expect((value as { error?: unknown }).error).toEqual(expected);
    });

    it(`throws ApiError for an undeclared ${status} with throwOnError`, async () => {
      fault = (res) => send(res, status, body, { "content-type": type });
      const { error } = await settle(listLabs({ throwOnError: true }));
      expect(isApiError(error), String(error)).toBe(true);
      expect((error as ApiError).status).toBe(status);
    });
  }
});

describe("empty bodies", () => {
  for (const [what, framing] of [
    ["Content-Length: 0", { "content-length": "0" }],
    ["an empty chunked body", { "transfer-encoding": "chunked" }],
  ] as const) {
    it(`gives an undeclared 503 with ${what} as the empty text it is, whatever its framing`, async () => {
      fault = (res) => {
        res.writeHead(503, { "content-type": "text/plain", ...framing });
        res.end();
      };
      const { value } = await settle(listLabs());
      expect(value?.status).toBe(503);
      expect((value as { error?: unknown }).error).toBe("");
    });

    it(`throws ApiError for a declared 200 with ${what}`, async () => {
      fault = (res) => {
        res.writeHead(200, { "content-type": "application/json", ...framing });
        res.end();
      };
      const { error } = await settle(listLabs());
      expect(isApiError(error), String(error)).toBe(true);
    });
  }
});

describe("answers cut off or malformed on the wire", () => {
  for (const status of [200, 400, 418]) {
    it(`throws ApiConnectionError for a ${status} whose body is shorter than its content-length, then the connection closes`, async () => {
      fault = (res) => {
        res.writeHead(status, { "content-type": "application/json", "content-length": "100" });
        res.write('{"labs":[', () => res.socket?.end());
      };
      const { error } = await settle(listLabs());
      expect(error).toBeInstanceOf(ApiConnectionError);
      expect(isApiError(error)).toBe(false);
    });
  }

  it("throws ApiConnectionError when the connection is reset before any answer", async () => {
    fault = (res) => res.socket?.resetAndDestroy();
    const { error } = await settle(listLabs());
    expect(error).toBeInstanceOf(ApiConnectionError);
  });

  it("throws ApiConnectionError when the connection is closed before any answer", async () => {
    fault = (res) => res.socket?.end();
    const { error } = await settle(listLabs());
    expect(error).toBeInstanceOf(ApiConnectionError);
  });

  it("throws ApiConnectionError when the connection is reset in the middle of the body", async () => {
    fault = (res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write(`{"labs":[${"1,".repeat(100)}`, () => res.socket?.resetAndDestroy());
    };
    const { error } = await settle(listLabs());
    expect(error).toBeInstanceOf(ApiConnectionError);
  });

  for (const [what, bytes] of [
    ["an answer that is not HTTP", "hello there\r\n\r\n"],
    ["two different content-lengths", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"],
    ["a broken chunked body", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"],
    ["a content-encoding the body is not in", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}"],
  ] as const) {
    it(`throws ApiConnectionError for ${what}`, async () => {
      fault = rawAnswer(bytes);
      const { error } = await settle(listLabs());
      expect(error).toBeInstanceOf(ApiConnectionError);
    });
  }

  it("neither crashes nor hangs on a status line outside 200-599", async () => {
    fault = rawAnswer("HTTP/1.1 600 Odd\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    const { value, error } = await settle(listLabs());
    // fetch refuses such a status; whichever way, it is the client's connection error or an undeclared answer.
    if (error !== undefined) expect(error).toBeInstanceOf(ApiConnectionError);
    else expect(value?.ok).toBe(false);
  });
});

/**
 * A stub of the test's own that answers with `slow`, closed when the test finishes: these tests wait out timeouts, so
 * they run at once, each on its own server; `closed` counts the connections it saw end.
 */
async function slowStub(test: TestContext, slow: Fault) {
  let closed = 0;
  const own = await startStub((_, res) => {
    res.on("close", () => closed++);
    slow(res);
  });
  test.onTestFinished(() => own.close());
  const labs = (options?: Parameters<typeof api>[0]) => listLabs(options, own.url);
  return { labs, arrivals: own.arrivals, closed: () => closed };
}

describe.concurrent("slow and endless answers, with timeoutMs", () => {
  it("throws ApiTimeoutError when the headers come too late", async (test) => {
    const { expect } = test;
    const stub = await slowStub(test, (res) => {
      // After the hang guard: an ApiTimeoutError, not the answer, is proof that the deadline fired.
      const timer = setTimeout(() => send(res, 200, "{}", { "content-type": "application/json" }), 2 * HANG_GUARD_MS);
      res.on("close", () => clearTimeout(timer));
    });
    const { error } = await settle(stub.labs({ timeoutMs: 300 }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it("throws ApiTimeoutError when the body trickles in too slowly", async (test) => {
    const { expect } = test;
    const stub = await slowStub(test, (res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write("{");
      // 1,000 bytes at 10 a second: the whole body would take 100 s, past the hang guard, were the deadline per read.
      const timer = setInterval(() => res.write(" "), 100);
      res.on("close", () => clearInterval(timer));
    });
    const { error } = await settle(stub.labs({ timeoutMs: 400 }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  for (const status of [200, 500]) {
    it(`throws ApiTimeoutError for an endless chunked ${status} body, and lets go of the connection`, async (test) => {
      const { expect } = test;
      const stub = await slowStub(test, (res) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.write("[");
        const timer = setInterval(() => res.write("1,".repeat(512)), 5);
        res.on("close", () => clearInterval(timer));
      });
      const { error } = await settle(stub.labs({ timeoutMs: 500 }));
      expect(error).toBeInstanceOf(ApiTimeoutError);
      // The stub's writes stop once the client has gone; otherwise it would stream for ever.
      await expect.poll(stub.closed, { timeout: 10_000 }).toBeGreaterThan(0);
    });
  }

  it("retries a GET whose connections are reset, then throws ApiConnectionError", async (test) => {
    const { expect } = test;
    const stub = await slowStub(test, (res) => res.socket?.resetAndDestroy());
    const { error } = await settle(stub.labs({ retry: { retries: 2, initialDelayMs: 10, maxDelayMs: 20 } }));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(stub.arrivals.length).toBe(3);
  });

  it("retries a GET whose answers are too slow, then throws ApiTimeoutError", async (test) => {
    const { expect } = test;
    const stub = await slowStub(test, (res) => {
      // After the hang guard: an ApiTimeoutError, not the answer, is proof that the deadline fired.
      const timer = setTimeout(() => send(res, 200, "{}", { "content-type": "application/json" }), 2 * HANG_GUARD_MS);
      res.on("close", () => clearTimeout(timer));
    });
    const { error } = await settle(stub.labs({ timeoutMs: 200, retry: { retries: 1, initialDelayMs: 10, maxDelayMs: 20 } }));
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });
});
