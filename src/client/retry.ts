// When to try a call again and how long to wait first: idempotent methods only, on 408, 429, 5xx and failed attempts,
// exponential backoff with jitter, and the server's Retry-After up to a cap.
import { check } from "./errors.js";
import type { RetryOptions } from "./types.js";

export interface RetryPolicy {
  retries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

const DEFAULTS: RetryPolicy = { retries: 2, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** The policy for a call from its retry setting (the call's, else the client's); undefined when the call is not retried. */
export function retryPolicy(method: string, setting: RetryOptions | boolean | undefined): RetryPolicy | undefined {
  if (!setting || !/^(GET|HEAD|OPTIONS|PUT|DELETE)$/.test(method)) return undefined;
  const policy = {} as RetryPolicy;
  for (const key in DEFAULTS) {
    // `true` has none of the keys, so it takes every default.
    const value = (setting as RetryOptions)[key as keyof RetryPolicy] ?? DEFAULTS[key as keyof RetryPolicy];
    check("retry", key, Number.isFinite(value) && value >= 0, "a finite number >= 0", value, RangeError);
    policy[key as keyof RetryPolicy] = value;
  }
  return policy.retries > 0 ? policy : undefined;
}

/** 408, 429 or 5xx (a fetch Response's status is never above 599). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The wait before retry number `attempt` (0 for the first retry): between half and all of initial·2^attempt, capped. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

/** Retry-After in ms (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retrying an answer: Retry-After when the server sent one (undefined, meaning "do not retry", when it
 * asks for longer than the cap), else the backoff.
 */
export function delayForAnswer(policy: RetryPolicy, attempt: number, response: Response): number | undefined {
  const asked = retryAfterMs(response.headers.get("retry-after"));
  if (asked === undefined) return backoffDelay(policy, attempt);
  return asked <= policy.maxRetryAfterMs ? asked : undefined;
}
