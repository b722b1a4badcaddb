// The validating proxy's way to the real server: Node's own HTTP client (the bytes as they were sent, both ways: fetch
// would undo a Content-Encoding and hand back other bytes than the server's), one hop's headers left out, no redirect
// followed, one deadline for the head and the body, and at most a bound of bytes read; never throwing. And the body as
// text for checking, its Content-Encoding undone to the same bound.
import { upstreamCutShort, upstreamNotHttp, upstreamTimeout, upstreamTooLarge, upstreamUnreachable, type UpstreamRefusal } from "./refusals.ts";
import http from "node:http";
import https from "node:https";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { isLoopback } from "../net/loopback.ts";
import { isHopHeader } from "../net/hop-headers.ts";
import type { HeaderBag } from "./http-shapes.ts";

/** How long the upstream has for its head and its body together, unless the proxy is told otherwise. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
/** The most bytes of one answer the proxy reads (on the wire, and again once decoded): far above any answer of the contract. */
export const DEFAULT_MAX_UPSTREAM_BYTES = 8 * 1024 * 1024;

/** What stops the proxy from starting (an upstream it will not use, a record file it cannot write), in one line. */
export class ProxyError extends Error {}

/**
 * Why the proxy will not forward to this address, or undefined. Every request carries its credential: over plain
 * http they may travel only within this machine, so the proxy refuses to start rather than strip them (a request
 * without its credential would be refused upstream, and every answer would be a violation that is not the server's).
 */
export function upstreamRefusal(upstream: URL): string | undefined {
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:") return `--proxy ${upstream.href} is not an http or https URL`;
  if (upstream.username !== "" || upstream.password !== "")
    return `--proxy ${upstream.host}: give the credentials in each request's headers, not in the upstream's URL`;
  if (upstream.search !== "" || upstream.hash !== "")
    return `--proxy ${upstream.origin}${upstream.pathname}: the upstream is a base URL, without a query or a fragment`;
  if (upstream.protocol === "http:" && !isLoopback(upstream)) {
    return `--proxy ${upstream.origin} is plain http to another machine, and every request's credential would cross the network in the clear: use its https address, or a tunnel to it on 127.0.0.1`;
  }
  return undefined;
}

/** A request's headers as they are forwarded: one hop's left out. */
export function forwardedHeaders(headers: HeaderBag): Record<string, string | string[]> {
  // Without a prototype, so every name the request sent is forwarded, `__proto__` too.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !isHopHeader(name, headers.connection)) out[name] = value;
  return out;
}

/** The methods whose repetition changes nothing more than their first sending (RFC 9110 9.2.2). */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export type UpstreamAnswer =
  | {
      kind: "answer";
      status: number;
      statusText: string;
      /** The upstream's headers as it sent them (name case and repeats kept), one hop's left out, as name-value pairs. */
      headers: string[];
      /** The same headers by lower-case name, as Node reads them. */
      byName: http.IncomingHttpHeaders;
      /** The bytes as they came (still in their Content-Encoding). */
      body: Buffer;
      ms: number;
    }
  | { kind: "failure"; status: 502 | 504; code: string; message: string; ms: number };

export interface UpstreamOptions {
  timeoutMs?: number | undefined;
  maxBytes?: number | undefined;
}

/** The real server behind the proxy: where a request goes, and the connections kept open to it. */
export class Upstream {
  readonly url: URL;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** The upstream's own path before the contract's (`/sandbox` of `https://host/sandbox/`), or "". */
  readonly basePath: string;
  readonly #agent: http.Agent;
  readonly #request: typeof http.request;

  constructor(url: URL, options: UpstreamOptions = {}) {
    const refused = upstreamRefusal(url);
    if (refused !== undefined) throw new ProxyError(refused);
    this.url = url;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_UPSTREAM_BYTES;
    this.basePath = url.pathname.replace(/\/+$/, "");
    const secure = url.protocol === "https:";
    // Connections kept open between requests: a new TCP (and TLS) handshake per request would be most of what the proxy adds.
    this.#agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.#request = secure ? https.request : http.request;
  }

  /** Sends the request, its headers but one hop's, and gives the answer as it came, or the 502 or 504 that says why there is none. */
  send(method: string, pathAndQuery: string, headers: HeaderBag, body: Uint8Array | undefined): Promise<UpstreamAnswer> {
    const started = performance.now();
    const out = forwardedHeaders(headers);
    if (body !== undefined && body.length > 0) out["content-length"] = String(body.length);
    const { origin } = this.url;
    return new Promise((resolve) => {
      let settled = false;
      let request: http.ClientRequest;
      const finish = (answer: UpstreamAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(answer);
      };
      const failure = ({ status, code, message }: UpstreamRefusal) => finish({ kind: "failure", status, code, message, ms: performance.now() - started });
      const attempt = (again: boolean) => {
        request = this.#request(
          {
            protocol: this.url.protocol,
            hostname: this.url.hostname.replace(/^\[(.*)\]$/, "$1"),
            port: this.url.port,
            method,
            path: `${this.basePath}${pathAndQuery}`,
            headers: out,
            agent: this.#agent,
          },
          (response) => this.#read(request, response, started, finish, failure),
        );
        request.on("error", (error: NodeJS.ErrnoException) => {
          // A kept-alive connection the upstream closed just as the request went out: an idempotent one goes once more, on
          // a new connection (a POST or PATCH may have been taken, and is not sent twice).
          if (again && request.reusedSocket && error.code === "ECONNRESET" && IDEMPOTENT.has(method.toUpperCase())) return attempt(false);
          if (error.code?.startsWith("HPE_")) failure(upstreamNotHttp(origin, String(error.code)));
          else failure(upstreamUnreachable(origin, error.code ?? error.message));
        });
        request.end(body !== undefined && body.length > 0 ? body : undefined);
      };
      // One deadline for every attempt, the head and the body.
      const timer = setTimeout(() => {
        request.destroy();
        failure(upstreamTimeout(origin, this.timeoutMs));
      }, this.timeoutMs);
      attempt(true);
    });
  }

  /** Reads an answer to at most the bound (dropping the connection past it), then gives it with the headers that go on. */
  #read(
    request: http.ClientRequest,
    response: http.IncomingMessage,
    started: number,
    finish: (answer: UpstreamAnswer) => void,
    failure: (refusal: UpstreamRefusal) => void,
  ): void {
    const { origin } = this.url;
    const tooLarge = () => failure(upstreamTooLarge(origin, this.maxBytes));
    if (Number(response.headers["content-length"]) > this.maxBytes) {
      request.destroy();
      return tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      if ((size += chunk.length) > this.maxBytes) {
        request.destroy();
        return tooLarge();
      }
      chunks.push(chunk);
    });
    response.on("end", () => {
      const kept: string[] = [];
      const raw = response.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) if (!isHopHeader(raw[i]!.toLowerCase(), response.headers.connection)) kept.push(raw[i]!, raw[i + 1]!);
      finish({
        kind: "answer",
        status: response.statusCode ?? 502,
        statusText: response.statusMessage ?? "",
        headers: kept,
        byName: response.headers,
        body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size),
        ms: performance.now() - started,
      });
    });
    response.on("close", () => {
      if (!response.complete) failure(upstreamCutShort(origin));
    });
  }

  /** Closes the connections kept open. */
  close(): void {
    this.#agent.destroy();
  }
}

/** By the coding an answer names: a Map, so `constructor` is a coding the proxy does not undo, not Object's function. */
const decoders = new Map<string, (buffer: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>>([
  ["gzip", promisify(zlib.gunzip)],
  ["x-gzip", promisify(zlib.gunzip)],
  ["deflate", promisify(zlib.inflate)],
  ["br", promisify(zlib.brotliDecompress)],
]);

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** An answer's body as text for checking: its Content-Encoding undone (to at most `maxBytes`), then read as UTF-8; or why not. */
export async function decodedText(body: Buffer, contentEncoding: string | undefined, maxBytes: number): Promise<{ text: string } | { unread: string }> {
  let bytes = body;
  // Encodings apply in the order listed, so they are undone from the last.
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity")
    .reverse();
  for (const coding of codings) {
    const decode = decoders.get(coding);
    if (decode === undefined) return { unread: `the body is in Content-Encoding ${coding}, which the proxy does not undo; not checked` };
    try {
      bytes = await decode(bytes, { maxOutputLength: maxBytes });
    } catch (error) {
      const tooLarge = (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
      return { unread: tooLarge ? `the body decodes to more than ${maxBytes} bytes, the proxy's bound; not checked` : `the body is not valid ${coding}` };
    }
  }
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { unread: "the body is not UTF-8 text" };
  }
}
