// The mock on Node's HTTP server: a request read into the pipeline's form (or the validating proxy's, with its bytes),
// its reply written back, the size-bounded body reader, and the raw-socket answer for what Node's parser refuses before
// there is a request.
import http from "node:http";
import type { Duplex } from "node:stream";
import { errorBody, errorReply, JSON_TYPE, MAX_BODY_BYTES } from "./http-vocabulary.ts";
import type { MockRequest, Reply, Refusal } from "./http-shapes.ts";
import type { ProxyRequest } from "./proxy.ts";

const NO_BODY: Promise<string> = Promise.resolve("");

const NO_BYTES: Promise<Buffer> = Promise.resolve(Buffer.alloc(0));

/** Whether a request announces a body: most are GETs without one, which need no listeners, buffers or promise. */
const hasBody = (req: http.IncomingMessage) => req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;

/** The body's bytes, or undefined when they are over the limit; an oversized body is drained, not cut off, so the 413 still reaches the caller. */
export function readBytes(req: http.IncomingMessage): Promise<Buffer | undefined> {
  if (!hasBody(req)) {
    req.resume();
    return NO_BYTES;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The body as text, or undefined when it is over the limit. */
export function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  if (!hasBody(req)) {
    req.resume();
    return NO_BODY;
  }
  return readBytes(req).then((bytes) => bytes?.toString("utf8"));
}

/** A Node request in the pipeline's form. */
export function nodeRequest(req: http.IncomingMessage): MockRequest {
  return { method: req.method ?? "GET", target: req.url ?? "", headers: req.headers, body: () => readBody(req) };
}

/** A Node request in the pipeline's form with its bytes at hand too, read once: the validating proxy forwards them as they came. */
export function nodeProxyRequest(req: http.IncomingMessage): ProxyRequest {
  let read: Promise<Buffer | undefined> | undefined;
  const bytes = () => (read ??= readBytes(req));
  return { method: req.method ?? "GET", target: req.url ?? "", headers: req.headers, bytes, body: () => bytes().then((b) => b?.toString("utf8")) };
}

/** Writes the pipeline's reply; a dropped connection is a socket destroyed with nothing written. */
export function writeReply(res: http.ServerResponse, reply: Reply): void {
  if (reply.drop === true) return void res.destroy();
  res.writeHead(reply.status, reply.headers);
  res.end(res.req.method === "HEAD" ? undefined : reply.body);
}

export function sendError(res: http.ServerResponse, refusal: Refusal): void {
  writeReply(res, errorReply(res.req.headers, refusal.status, refusal.code, refusal.message, refusal.details, refusal.headers));
}

/**
 * Answers on a raw socket, for what Node's HTTP parser refuses before there is a request object: the JSON 4xx first,
 * then the connection closes, as HTTP requires after a message it could not frame.
 */
export function sendOnSocket(socket: Duplex, { status, code, message }: Refusal): void {
  if (!socket.writable) return void socket.destroy();
  const body = Buffer.from(errorBody(code, message));
  const reason = http.STATUS_CODES[status] ?? "Error";
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body.toString()}`);
}
