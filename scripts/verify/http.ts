// Sends verify's requests to the server under test: at most `rate` a second across every caller, each with a deadline
// that covers the body too; never throws, so a refused connection or a silent server becomes a check that names it.
import { setTimeout as sleep } from "node:timers/promises";

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type HttpAnswer =
  | { kind: "answer"; status: number; headers: Headers; text: string; ms: number }
  | { kind: "failure"; error: string; ms: number };

/** Spaces requests at least 1/rate seconds apart, in the order they asked; unlimited when rate is undefined. */
export class RateLimiter {
  readonly #intervalMs: number;
  #next = 0;

  constructor(rate: number | undefined) {
    this.#intervalMs = rate === undefined ? 0 : 1000 / rate;
  }

  /** Resolves when the caller may send; the slot is taken at once, so concurrent callers queue rather than burst. */
  async take(): Promise<void> {
    if (this.#intervalMs === 0) return;
    const now = performance.now();
    const at = Math.max(now, this.#next);
    this.#next = at + this.#intervalMs;
    if (at > now) await sleep(at - now);
  }
}

export const DEFAULT_TIMEOUT_MS = 15_000;

/** Why fetch failed, in the words of the cause (ECONNREFUSED, ENOTFOUND, ...) rather than undici's "fetch failed". */
function describeFailure(error: unknown, timeoutMs: number): string {
  const named = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (named.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  const cause = named.cause;
  if (cause?.code !== undefined) return `connection failed: ${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return `request failed: ${cause?.message ?? named.message ?? String(error)}`;
}

export class Sender {
  readonly limiter: RateLimiter;
  readonly #timeoutMs: number;
  #sent = 0;

  constructor(options: { rate: number | undefined; timeoutMs?: number }) {
    this.limiter = new RateLimiter(options.rate);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** How many requests went out. */
  get sent(): number {
    return this.#sent;
  }

  async send(request: HttpRequest): Promise<HttpAnswer> {
    await this.limiter.take();
    this.#sent++;
    const started = performance.now();
    try {
      // One signal for the head and the body: a server that sends its head and then stalls is caught as well.
      const response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        // A redirect is an answer of its own, judged against the contract, not followed.
        redirect: "manual",
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const text = await response.text();
      return { kind: "answer", status: response.status, headers: response.headers, text, ms: performance.now() - started };
    } catch (error) {
      return { kind: "failure", error: describeFailure(error, this.#timeoutMs), ms: performance.now() - started };
    }
  }
}
