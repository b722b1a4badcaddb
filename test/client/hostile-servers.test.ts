// The client against servers that misbehave on purpose (test/support/hostile-servers.ts), with and without retries:
// every call settles with a typed error naming what is wrong, after as many attempts as its retries allow, and no
// credential leaves its origin. A call that never settled would meet the test's timeout: no wall-clock bound here fails
// a call that is merely slow on a busy machine.
import diagnostics from "node:diagnostics_channel";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ApiConnectionError,
  ApiRedirectError,
  ApiResponseTooLargeError,
  ApiTimeoutError,
  createClient,
  isApiError,
  type ApiError,
} from "../../generated/client/index.js";
import { startHostile, startRecorder, type HostileKind } from "../support/hostile-servers.ts";

const API_KEY = "sk_test_hostile_servers_0001";
const TIMEOUT_MS = 500;
const LIMIT = 4 * 1024 * 1024;
const RETRY = { retries: 1, initialDelayMs: 1, maxDelayMs: 1 };

let recorder: Awaited<ReturnType<typeof startRecorder>>;
/** Every address a socket of this process connected to while the tests ran. */
const connectedTo: string[] = [];
const onSocket = ({ socket }: { socket: net.Socket }) => socket.once("connect", () => connectedTo.push(`${socket.remoteAddress}:${socket.remotePort}`));

beforeAll(async () => {
  recorder = await startRecorder();
  diagnostics.subscribe("net.client.socket", onSocket as (message: unknown) => void);
});
afterAll(async () => {
  diagnostics.unsubscribe("net.client.socket", onSocket as (message: unknown) => void);
  await recorder.close();
});

/** What a kind must give: the error's class and words, or the answer; and how many attempts a retrying GET makes. */
const EXPECTED: Record<HostileKind, { error?: { type: Function; says: RegExp }; status?: number; attemptsWithRetry: number }> = {
  "never-answers": { error: { type: ApiTimeoutError, says: /no complete answer within 500 ms/ }, attemptsWithRetry: 2 },
  "headers-then-silence": { error: { type: ApiTimeoutError, says: /no complete answer/ }, attemptsWithRetry: 2 },
  "huge-length-trickled": { error: { type: ApiResponseTooLargeError, says: /maxResponseBytes, 4194304/ }, attemptsWithRetry: 1 },
  "endless-chunked": { error: { type: ApiResponseTooLargeError, says: /maxResponseBytes, 4194304/ }, attemptsWithRetry: 1 },
  "malformed-json": { error: { type: Error, says: /answered 200 without the JSON body/ }, attemptsWithRetry: 1 },
  "invalid-utf8": { error: { type: Error, says: /answered 200 in bytes that are not UTF-8/ }, attemptsWithRetry: 1 },
  "gzip-bomb": { error: { type: ApiResponseTooLargeError, says: /maxResponseBytes/ }, attemptsWithRetry: 1 },
  "unknown-encoding": { error: { type: Error, says: /Content-Encoding zstd/ }, attemptsWithRetry: 1 },
  "redirect-loop": { error: { type: ApiRedirectError, says: /answered 302, a redirect to \/v3\/lab_tests\/labs: not followed/ }, attemptsWithRetry: 1 },
  "redirect-elsewhere": { error: { type: ApiRedirectError, says: /answered 307, a redirect to http:\/\/127\.0\.0\.2/ }, attemptsWithRetry: 1 },
  "cut-mid-body": { error: { type: ApiConnectionError, says: /the connection failed/ }, attemptsWithRetry: 2 },
  "huge-headers": { error: { type: ApiConnectionError, says: /the connection failed/ }, attemptsWithRetry: 2 },
  "byte-a-second": { error: { type: ApiTimeoutError, says: /no complete answer/ }, attemptsWithRetry: 2 },
  "http10-no-length": { status: 200, attemptsWithRetry: 1 },
  "retry-after-a-day": { status: 429, attemptsWithRetry: 1 },
};

describe.concurrent("the client against a hostile server", () => {
  for (const [kind, expected] of Object.entries(EXPECTED) as [HostileKind, (typeof EXPECTED)[HostileKind]][]) {
    for (const retry of [undefined, RETRY]) {
      it(`${kind}${retry ? ", retrying" : ""}: ${expected.error ? expected.error.type.name : `answers ${expected.status}`}`, async () => {
        const server = await startHostile(kind, { elsewhere: recorder.origin, byteIntervalMs: 1000 });
        try {
          // The short timeout where it is what must fire; elsewhere one a loaded machine never meets.
          const timeoutMs = expected.error?.type === ApiTimeoutError ? TIMEOUT_MS : 10_000;
          const api = createClient({ baseUrl: server.url, apiKey: API_KEY, timeoutMs, maxResponseBytes: LIMIT, ...(retry ? { retry } : {}) });
          const settled = await api.GET("/v3/lab_tests/labs").then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          if (expected.error) {
            expect("error" in settled, JSON.stringify(settled)).toBe(true);
            const error = (settled as { error: Error }).error;
            expect(error).toBeInstanceOf(expected.error.type);
            expect(error.message).toMatch(expected.error.says);
            expect(error.message).toMatch(/^GET \/v3\/lab_tests\/labs/);
          } else {
            const { value } = settled as { value: Awaited<ReturnType<typeof api.GET<"/v3/lab_tests/labs">>> };
            expect(value.status).toBe(expected.status);
          }
          expect(server.heads).toHaveLength(retry ? expected.attemptsWithRetry : 1);
        } finally {
          await server.close();
        }
      });
    }
  }
});

describe("credentials stay on their origin", () => {
  it("follows no redirect to another origin, for a GET or a POST: nothing connects there and no key arrives", async () => {
    const server = await startHostile("redirect-elsewhere", { elsewhere: recorder.origin });
    try {
      const api = createClient({ baseUrl: server.url, apiKey: API_KEY, retry: true });
      const created = await api.POST("/v2/user", { body: { client_user_id: "patient-0001" } }).catch((e: unknown) => e);
      const listed = await api.GET("/v3/lab_tests/labs").catch((e: unknown) => e);
      for (const error of [created, listed]) {
        expect(error).toBeInstanceOf(ApiRedirectError);
        expect((error as ApiRedirectError).status).toBe(307);
        expect((error as ApiRedirectError).location).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/v[23]\//);
      }
      expect(server.heads).toHaveLength(2);
      expect(server.heads.every((head) => head.includes(API_KEY))).toBe(true);
      expect(recorder.heads).toEqual([]);
      expect(connectedTo.filter((address) => address.startsWith("127.0.0.2"))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("sees its connections watched: a request sent to the other origin on purpose is seen (the watch can fail)", async () => {
    await fetch(`${recorder.origin}/seen`).then((response) => response.text());
    expect(recorder.heads.length).toBeGreaterThan(0);
    expect(connectedTo.some((address) => address.startsWith("127.0.0.2"))).toBe(true);
    recorder.heads.length = 0;
    connectedTo.length = 0;
  });
});

describe("waits without timeoutMs, on fake timers", () => {
  const day = 86_400_000;
  const tooMany = () =>
    new Response('{"code":"rate_limited","message":"Too many requests."}', {
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "86400" },
    });

  it("returns a 429 asking for a day at once: a Retry-After over maxRetryAfterMs (60 s) ends the retries", async () => {
    vi.useFakeTimers();
    try {
      const fetch = vi.fn(async () => tooMany());
      const answer = await createClient({ baseUrl: "http://api.invalid", apiKey: API_KEY, retry: true, fetch }).GET("/v3/lab_tests/labs");
      expect(answer.status).toBe(429);
      expect(fetch).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("waits out exactly the day when maxRetryAfterMs allows it, then tries again", async () => {
    vi.useFakeTimers();
    try {
      const fetch = vi.fn(async () => tooMany());
      const call = createClient({ baseUrl: "http://api.invalid", apiKey: API_KEY, retry: { retries: 1, maxRetryAfterMs: 2 * day }, fetch }).GET(
        "/v3/lab_tests/labs",
      );
      await vi.advanceTimersByTimeAsync(day - 1);
      expect(fetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch).toHaveBeenCalledTimes(2);
      expect((await call).status).toBe(429);
    } finally {
      vi.useRealTimers();
    }
  });

  it("with timeoutMs, retries a body that stalls: the timeout covers the body and the retry covers the timeout", async () => {
    vi.useFakeTimers();
    try {
      let attempts = 0;
      // The first answer's body never ends; the second is whole.
      const fetch = vi.fn(async (request: Request) => {
        attempts++;
        if (attempts === 2) return new Response("[]", { status: 200, headers: { "content-type": "application/json" } });
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("["));
            request.signal.addEventListener("abort", () => controller.error(request.signal.reason));
          },
        });
        return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
      });
      const call = createClient({ baseUrl: "http://api.invalid", apiKey: API_KEY, timeoutMs: 30_000, retry: { retries: 1, initialDelayMs: 10 }, fetch }).GET(
        "/v3/lab_tests/labs",
      );
      await vi.advanceTimersByTimeAsync(30_000 + 10);
      const answer = await call;
      expect(fetch).toHaveBeenCalledTimes(2);
      expect(answer.ok).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("messages", () => {
  it("quote no answer body: an error body's message stays in error.body", async () => {
    const fetch = async () =>
      new Response('{"code":"not_found","message":"No user with email ann@example.com"}', { status: 404, headers: { "content-type": "application/json" } });
    const error = (await createClient({ baseUrl: "http://api.invalid", apiKey: API_KEY, throwOnError: true, fetch })
      .GET("/v2/user/{user_id}/info/latest", { params: { path: { user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f" } } })
      .catch((e: unknown) => e)) as ApiError;
    expect(isApiError(error)).toBe(true);
    expect(error.message).not.toMatch(/ann@example\.com/);
    expect((error.body as { message: string }).message).toMatch(/ann@example\.com/);
  });
});
