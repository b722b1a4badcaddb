// Sends verify's requests to the server under test: at most `rate` a second across every caller, each with a deadline
// that covers the body too, no redirect followed, at most a limit of bytes read (after decompression), and the text
// required to be UTF-8; never throws, so a refused connection, a silent server or a hostile answer becomes a check that
// names it.
import { setTimeout as sleep } from "node:timers/promises";
import { MAX_RESPONSE_BYTES, readText, type Unread } from "../client/body.ts";
import { readJson } from "../contract/json.ts";
import type { Redactor } from "../contract/redact.ts";

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export type HttpAnswer =
  | {
      kind: "answer";
      status: number;
      statusText: string;
      headers: Headers;
      text: string;
      /** The text read as JSON once, for the redactor and the judge alike (undefined: empty, or not JSON). */
      json: { value: unknown } | undefined;
      ms: number;
    }
  | { kind: "failure"; error: string; ms: number };

/** The time a limiter reads and waits on: the process's (performance.now and timers), or a test's. */
export interface LimiterClock {
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

const PROCESS_CLOCK: LimiterClock = { now: () => performance.now(), sleep: (ms) => sleep(ms) };

/**
 * Spaces requests at least 1/rate seconds apart, in the order they asked, across every sender sharing it; unlimited
 * when rate is undefined. A pause (a server's Retry-After) holds every caller until it ends.
 */
export class RateLimiter {
  readonly #intervalMs: number;
  readonly #clock: LimiterClock;
  /** When the caller before the latest one was let go (its actual time, which a late timer pushes back). */
  #last: Promise<number> = Promise.resolve(Number.NEGATIVE_INFINITY);
  /** Until when (on the clock) no caller is let go: a server asked every sender to wait. */
  #pausedUntil = Number.NEGATIVE_INFINITY;

  constructor(rate: number | undefined, clock: LimiterClock = PROCESS_CLOCK) {
    this.#intervalMs = rate === undefined ? 0 : 1000 / rate;
    this.#clock = clock;
  }

  /**
   * Resolves when the caller may send: a full interval after the caller before it was actually let go. Slots planned
   * ahead on the clock let a timer that fired late (a busy process) send two requests a few milliseconds apart.
   */
  async take(): Promise<void> {
    if (this.#intervalMs === 0) return this.#pauseOver();
    const previous = this.#last;
    let letGo!: (at: number) => void;
    this.#last = new Promise((resolve) => (letGo = resolve));
    const at = (await previous) + this.#intervalMs;
    // A timer runs on the event loop's coarser clock and may fire a fraction of a millisecond early: wait it out.
    for (let wait = at - this.#clock.now(); wait > 0; wait = at - this.#clock.now()) await this.#clock.sleep(Math.ceil(wait));
    await this.#pauseOver();
    letGo(this.#clock.now());
  }

  /** Holds every caller for `ms` from now (a 429's Retry-After): one server's answer speaks for all of its load. */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  async #pauseOver(): Promise<void> {
    // A pause may be lengthened while a caller waits it out: read it again after each wait.
    for (let wait = this.#pausedUntil - this.#clock.now(); wait > 0; wait = this.#pausedUntil - this.#clock.now()) await this.#clock.sleep(Math.ceil(wait));
  }
}

/** How many times a 429 is sent again after its Retry-After before its answer is judged. */
export const RETRIES_AFTER_429 = 3;

/** A Retry-After's wait in milliseconds (seconds, or an HTTP date), or undefined when it says neither. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** The most bytes of one answer verify reads: the client's default. */
export const DEFAULT_MAX_RESPONSE_BYTES: number = MAX_RESPONSE_BYTES;

/** What Node's errors carry of a connection: the system's code and where it went (a socket's error names its remote end). */
interface SystemError {
  name?: string;
  message?: string;
  code?: unknown;
  address?: string;
  port?: number;
  hostname?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
  cause?: unknown;
  errors?: unknown[];
}

/** An address and port as a URL writes them: `127.0.0.1:4010`, `[::1]:4010`. */
function hostPort(address: string | undefined, port: number | undefined): string | undefined {
  if (address === undefined) return undefined;
  const host = address.includes(":") ? `[${address}]` : address;
  return port === undefined ? host : `${host}:${port}`;
}

/**
 * Why fetch failed, in the words of the cause rather than undici's "fetch failed": the system's code and the address
 * and port it met (`ECONNREFUSED 127.0.0.1:4010`), found down the cause chain (an AggregateError's first error, when
 * every address of a name was tried), with the error's own words where they say more (`other side closed`).
 */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const named = error as SystemError;
  if (named.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  let found: SystemError | undefined;
  let each = named.cause as SystemError | undefined;
  for (let depth = 0; each !== undefined && each !== null && depth < 8; depth++) {
    if (typeof each.code === "string") {
      found = each;
      // An AggregateError has the code; its errors have the address.
      const inner = (each.errors?.[0] ?? each.cause) as SystemError | undefined;
      if (each.address === undefined && each.socket === undefined && inner !== undefined && typeof inner === "object" && inner.code === each.code)
        found = { ...inner, code: each.code };
      break;
    }
    each = (each.cause ?? each.errors?.[0]) as SystemError | undefined;
  }
  if (found === undefined) {
    const cause = named.cause as SystemError | undefined;
    return `request failed: ${cause?.message ?? named.message ?? String(error)}`;
  }
  const code = found.code as string;
  const where = hostPort(found.address, found.port) ?? found.hostname ?? hostPort(found.socket?.remoteAddress, found.socket?.remotePort);
  // Node's own message (`connect ECONNREFUSED 127.0.0.1:4010`) says nothing more than the code and the address.
  const said = found.message && !found.message.includes(code) ? ` (${found.message})` : "";
  return `connection failed: ${code}${where === undefined ? "" : ` ${where}`}${said}`;
}

export interface SenderOptions {
  rate: number | undefined;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** A limiter shared with another sender, so that both keep one rate (the workflows' proxy shares the pass's). */
  limiter?: RateLimiter;
  /** Learns the marked values and credentials of every request and answer, so that verify's outputs leave them out. */
  redactor?: Redactor;
  /** Headers added to every request (`--header`: a gateway's), over any of the same name a caller set. */
  headers?: { name: string; value: string }[];
}

/** A request's headers with the added ones in, a caller's header of the same name (in any case) replaced. */
function withAdded(headers: Record<string, string>, added: { name: string; value: string }[]): Record<string, string> {
  if (added.length === 0) return headers;
  const replaced = new Set(added.map(({ name }) => name.toLowerCase()));
  // Without a prototype, as the workflow proxy's: a name such as `__proto__` stays a header.
  const merged: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) if (!replaced.has(name.toLowerCase())) merged[name] = value;
  for (const { name, value } of added) merged[name] = value;
  return merged;
}

/** What a gated view of a sender shares with it: the count of requests, which the run reports as one. */
interface Count {
  sent: number;
}

export class Sender {
  readonly limiter: RateLimiter;
  readonly #timeoutMs: number;
  readonly #maxBytes: number;
  readonly #redactor: Redactor | undefined;
  readonly #headers: { name: string; value: string }[];
  readonly #count: Count;
  readonly #gate: (() => Promise<void>) | undefined;

  constructor(options: SenderOptions, shared?: { count: Count; gate: () => Promise<void> }) {
    this.limiter = options.limiter ?? new RateLimiter(options.rate);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.#redactor = options.redactor;
    this.#headers = options.headers ?? [];
    this.#count = shared?.count ?? { sent: 0 };
    this.#gate = shared?.gate;
  }

  #options(): SenderOptions {
    return {
      rate: undefined,
      limiter: this.limiter,
      timeoutMs: this.#timeoutMs,
      maxResponseBytes: this.#maxBytes,
      ...(this.#redactor === undefined ? {} : { redactor: this.#redactor }),
      headers: this.#headers,
    };
  }

  /** A sender with the same limiter (one rate for both), deadline, size limit, redactor and added headers, counting its own requests. */
  sibling(): Sender {
    return new Sender(this.#options());
  }

  /**
   * This sender, counting with it, whose every request first waits for `gate` (the ordered pool's: a unit whose checks
   * would overfill the buffer waits for those before it).
   */
  gated(gate: () => Promise<void>): Sender {
    return new Sender(this.#options(), { count: this.#count, gate });
  }

  /** The longest one request may take, body included. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** How many requests went out. */
  get sent(): number {
    return this.#count.sent;
  }

  async send(request: HttpRequest): Promise<HttpAnswer> {
    await this.#gate?.();
    let answer = await this.#send(request);
    // A 429 asks for the same request later: sent again after its Retry-After (every sender paused meanwhile), at most
    // RETRIES_AFTER_429 times; only the last answer is judged, and a wait longer than a request may take is judged as it came.
    for (let retry = 0; retry < RETRIES_AFTER_429 && answer.kind === "answer" && answer.status === 429; retry++) {
      const wait = retryAfterMs(answer.headers.get("retry-after"));
      if (wait === undefined || wait > this.#timeoutMs) break;
      this.limiter.pause(wait);
      answer = await this.#send(request);
    }
    this.#redactor?.observe(request, answer.kind === "answer" ? answer : undefined);
    return answer;
  }

  async #send(request: HttpRequest): Promise<HttpAnswer> {
    await this.limiter.take();
    this.#count.sent++;
    const started = performance.now();
    const failure = (error: string): HttpAnswer => ({ kind: "failure", error, ms: performance.now() - started });
    try {
      // One signal for the head and the body: a server that sends its head and then stalls is caught as well.
      const response = await fetch(request.url, {
        method: request.method,
        headers: withAdded(request.headers, this.#headers),
        // Bytes, not text: fetch would give a string body a Content-Type of its own (text/plain), and a request sent
        // without one on purpose (the protocol pass's) must go without one.
        ...(request.body === undefined ? {} : { body: new TextEncoder().encode(request.body) }),
        // A redirect is an answer of its own, judged against the contract, not followed.
        redirect: "manual",
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      const { status, headers } = response;
      const read = await readText(response, this.#maxBytes);
      if ("unread" in read) {
        const why: Record<Unread, string> = {
          encoding: `answered ${status} in Content-Encoding ${headers.get("content-encoding")}, which fetch does not undo (it asked for gzip, deflate or br)`,
          too_large:
            read.declared === undefined
              ? `answered ${status} with a body over ${this.#maxBytes} bytes, verify's limit (--max-response-bytes); verify stopped reading it`
              : `answered ${status} declaring Content-Length ${read.declared} bytes, over verify's limit of ${this.#maxBytes} (--max-response-bytes); verify did not read it`,
          not_utf8: `answered ${status} with a body that is not UTF-8`,
        };
        return failure(why[read.unread]);
      }
      const { text } = read;
      return { kind: "answer", status, statusText: response.statusText, headers, text, json: readJson(text), ms: performance.now() - started };
    } catch (error) {
      return failure(describeFailure(error, this.#timeoutMs));
    }
  }
}
