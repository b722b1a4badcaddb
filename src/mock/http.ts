// The mock's HTTP vocabulary: the contract's error body on a response or a raw socket, CORS, the request target, the
// Accept check and the size-bounded body reader, shared by the pipeline and the server.
import http from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorDetail } from "../contract/validator.ts";

export const MAX_BODY_BYTES = 1 << 20;

export const JSON_TYPE = "application/json";

/** Says what the mock accepted but a caller may not mean, such as a value an open enumeration does not list. */
export const MOCK_WARNING = "x-svc-mock-warning";

export function errorBody(code: string, message: string, details?: ErrorDetail[]): Buffer {
  return Buffer.from(JSON.stringify(details === undefined ? { code, message } : { code, message, details }));
}

export function sendError(res: http.ServerResponse, status: number, code: string, message: string, details?: ErrorDetail[], headers: Record<string, string> = {}): void {
  allowCors(res.req, res);
  const body = errorBody(code, message, details);
  res.writeHead(status, { "content-type": JSON_TYPE, "content-length": body.length, ...headers });
  res.end(body);
}

/**
 * Answers on a raw socket, for what Node's HTTP parser refuses before there is a request object: the JSON 4xx first,
 * then the connection closes, as HTTP requires after a message it could not frame.
 */
export function sendOnSocket(socket: Duplex, status: number, code: string, message: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody(code, message);
  const reason = http.STATUS_CODES[status] ?? "Error";
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body.toString()}`);
}

/** Whether an Accept header lets the caller take JSON, the only media type of the contract's answers (no header: anything goes). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith("q="));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return type === "*/*" || type === "application/*" || type === "application/json";
  });
}

const NO_BODY: Promise<string> = Promise.resolve("");

/** The body as text, or undefined when it is over the limit; an oversized body is drained, not cut off, so the 413 still reaches the caller. */
export function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  // Most requests are GETs without a body: no listeners, no buffers, no new promise for them.
  if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) {
    req.resume();
    return NO_BODY;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** The headers a request's answer depends on besides the credentials (which `Credentials.headerKeys()` names). */
export const ANSWER_HEADERS = ["accept", "content-type", "prefer"];

/** Front ends call the mock from their own dev server's origin, so every answer allows any origin. */
export function corsHeaders(req: http.IncomingMessage): string[] {
  return ["access-control-allow-origin", req.headers.origin ?? "*", "vary", "origin", "access-control-expose-headers", `x-svc-mock-contract-violation, ${MOCK_WARNING}, retry-after`];
}

export function allowCors(req: http.IncomingMessage, res: http.ServerResponse): void {
  const headers = corsHeaders(req);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}

/** A CORS preflight's answer: these methods, and the headers asked for (or, when none were named, the ones the mock reads). */
export function answerPreflight(req: http.IncomingMessage, res: http.ServerResponse, methods: string[], readHeaders: string[]): void {
  res.writeHead(204, {
    "access-control-allow-methods": methods.join(", "),
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? readHeaders.join(", "),
    "access-control-max-age": "600",
  });
  res.end();
}

/** The request target's path and query: origin-form (`/v3/...`) or absolute-form (`http://host/v3/...`); undefined when it is neither. */
export function requestTarget(raw: string | undefined): URL | undefined {
  try {
    return raw?.startsWith("/") ? new URL(raw, "http://mock.invalid") : new URL(raw ?? "");
  } catch {
    return undefined;
  }
}

