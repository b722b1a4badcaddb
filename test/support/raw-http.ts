// Raw HTTP/1.1 over node:net for the robustness suite: sends exactly the bytes given and reads one answer, so nothing normalises a hostile request.
import net from "node:net";
import type { ContractOperation } from "../../src/contract/operations.ts";
import { validator } from "./contract.ts";
import { VALID_CALLS } from "./calls.ts";
import { TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY } from "./keys.ts";

export interface RawRequest {
  method: string;
  /** The request-target exactly as it goes on the request line. */
  target: string;
  /** Header lines in order; values may hold any bytes (latin1 strings are written byte for byte). */
  headers: [string, string][];
  body?: Buffer;
  /** Leaves out the content-length the body would get (the request states its own framing). */
  noLength?: boolean;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
}

export type RawOutcome = { ok: true; answer: RawAnswer } | { ok: false; failure: string; ms: number; partial: string };

export const CREDENTIALS: Record<string, string> = {
  "x-svc-api-key": TEST_API_KEY,
  "x-svc-link-token": TEST_LINK_TOKEN,
  "x-management-key": TEST_MANAGEMENT_KEY,
};

/** The request's bytes: request line, Host, the headers, a content-length for the body unless told not to, the body. */
export function serialize(request: RawRequest, host: string): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: ${host}`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  if (request.body !== undefined && !request.noLength) lines.push(`Content-Length: ${request.body.length}`);
  lines.push("", "");
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), request.body ?? Buffer.alloc(0)]);
}

/** Splits a complete answer out of the bytes read so far; undefined while it is incomplete. */
function parseAnswer(data: Buffer, closed: boolean): Omit<RawAnswer, "ms"> | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const head = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let rest = data.subarray(end + 4);
  // 1xx answers come before the real one.
  if (status >= 100 && status < 200) return parseAnswer(rest, closed);
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf("\r\n");
      if (lineEnd < 0) return undefined;
      const size = parseInt(rest.subarray(0, lineEnd).toString("latin1"), 16);
      if (Number.isNaN(size)) return undefined;
      if (size === 0) return { status, headers, body: Buffer.concat(parts).toString("utf8") };
      if (rest.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
  }
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    if (rest.length < length) return undefined;
    return { status, headers, body: rest.subarray(0, length).toString("utf8") };
  }
  if (status === 204 || status === 304) return { status, headers, body: "" };
  return closed ? { status, headers, body: rest.toString("utf8") } : undefined;
}

/**
 * Sends one request on a fresh connection and reads one answer. Fails when the connection is reset or closed before a
 * complete answer, or when none comes within `timeoutMs`. A write refused after the server has answered (it may stop
 * reading an oversized body) does not count: only the answer does.
 */
export function sendRaw(baseUrl: string, request: RawRequest | Buffer, timeoutMs: number): Promise<RawOutcome> {
  const url = new URL(baseUrl);
  const bytes = Buffer.isBuffer(request) ? request : serialize(request, url.host);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const ms = () => Math.round(performance.now() - started);
    const timer = setTimeout(
      () => finish({ ok: false, failure: `no complete answer within ${timeoutMs} ms`, ms: ms(), partial: data.toString("latin1").slice(0, 300) }),
      timeoutMs,
    );
    socket.on("connect", () => socket.write(bytes, () => undefined));
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const answer = parseAnswer(data, false);
      if (answer) finish({ ok: true, answer: { ...answer, ms: ms() } });
    });
    socket.on("end", () => {
      const answer = parseAnswer(data, true);
      finish(
        answer
          ? { ok: true, answer: { ...answer, ms: ms() } }
          : { ok: false, failure: "connection closed before a complete answer", ms: ms(), partial: data.toString("latin1").slice(0, 300) },
      );
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const answer = parseAnswer(data, true);
      if (answer) finish({ ok: true, answer: { ...answer, ms: ms() } });
      // EPIPE: the server stopped reading; its answer may still arrive, so keep reading until the timer or the end.
      else if (error.code !== "EPIPE")
        finish({
          ok: false,
          failure: `connection error ${error.code ?? error.message} before a complete answer`,
          ms: ms(),
          partial: data.toString("latin1").slice(0, 300),
        });
    });
  });
}

/**
 * The path with its parameters filled and the query, from an operation's valid call (test/support/calls.ts); a list
 * value repeats its parameter, as the client sends it.
 */
export function validTarget(op: ContractOperation, query: Record<string, unknown> | undefined = VALID_CALLS[op.operationId]?.params?.query): string {
  const call = VALID_CALLS[op.operationId] ?? {};
  const search = new URLSearchParams(
    Object.entries(query ?? {}).flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).filter((each) => each !== undefined).map((each) => [name, String(each)]),
    ),
  ).toString();
  return op.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(call.params?.path?.[name]))) + (search ? `?${search}` : "");
}

/** The operation's valid call as raw HTTP with its credential; Connection: close so each answer ends its connection. */
export function validRequest(op: ContractOperation): RawRequest {
  const call = VALID_CALLS[op.operationId] ?? {};
  const header = validator.credentialHeader(op)!;
  const body = op.operation.requestBody === undefined ? undefined : JSON.stringify(call.body);
  return {
    method: op.method,
    target: validTarget(op),
    headers: [
      [header, CREDENTIALS[header]!],
      ["Accept", "application/json"],
      ["Connection", "close"],
      ...(body === undefined ? [] : ([["Content-Type", "application/json"]] as [string, string][])),
    ],
    ...(body === undefined ? {} : { body: Buffer.from(body) }),
  };
}

/** The request as text for a failure message: the bytes, escaped where not printable, a long body cut. */
export function describeRequest(request: RawRequest | Buffer): string {
  const bytes = Buffer.isBuffer(request) ? request : serialize(request, "127.0.0.1:PORT");
  const shown = bytes.length > 2_000 ? Buffer.concat([bytes.subarray(0, 1_500), Buffer.from(`…(${bytes.length} bytes in all)`)]) : bytes;
  return shown.toString("latin1").replace(/[^\x20-\x7e\r\n]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
