// Serves the mock: checks each request against the contract and answers from the table of the contract's examples;
// only `Prefer: dynamic=true` reaches Prism, started on first use. Every refusal is a 4xx in the contract's error body.
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { Duplex } from "node:stream";
import { ContractValidator, type ErrorDetail } from "../lib/contract-validator.ts";
import { canonicalPath, createRouter, type RouteMatch } from "../lib/operations.ts";
import type { JsonObject } from "../lib/walk.ts";
import { answersOf, parsePrefer, pick, type Choice, type OperationAnswers } from "./answers.ts";
import { MOCK_RULES } from "./rules.ts";

const MAX_BODY_BYTES = 1 << 20;
const UPSTREAM_TIMEOUT_MS = 15_000;
/** How many answers Prism may invent for one dynamic request before the declared example stands in. */
const DYNAMIC_ATTEMPTS = 3;
/** Says that a dynamic answer was asked for and the declared example was sent instead, and why. */
const DYNAMIC_FALLBACK = "x-svc-mock-dynamic-fallback";
/** Node's parser refuses a request line and headers over 16 KiB together; a request line over half of it is the target's fault. */
const LONG_TARGET_BYTES = 8 * 1024;
/** A request, body included, must arrive within this; a body shorter than its Content-Length then gets 408, not a 300 s wait. */
export const REQUEST_TIMEOUT_MS = 5_000;

export interface MockHostOptions {
  document: JsonObject;
  /** Files served beside the API, such as the reference at /docs; `pending` answers while a file is still being built. */
  staticFiles: Record<string, { path: string; type: string; pending?: () => string | undefined }>;
  /** Prism's address, started on first use: only `Prefer: dynamic=true` needs it. */
  prism?: () => Promise<string>;
  log?: (line: string) => void;
}

const JSON_TYPE = "application/json";

function errorBody(code: string, message: string, details?: ErrorDetail[]): Buffer {
  return Buffer.from(JSON.stringify(details === undefined ? { code, message } : { code, message, details }));
}

function sendError(res: http.ServerResponse, status: number, code: string, message: string, details?: ErrorDetail[], headers: Record<string, string> = {}): void {
  allowCors(res.req, res);
  const body = errorBody(code, message, details);
  res.writeHead(status, { "content-type": JSON_TYPE, "content-length": body.length, ...headers });
  res.end(body);
}

/**
 * Answers on a raw socket, for what Node's HTTP parser refuses before there is a request object: the JSON 4xx first,
 * then the connection closes, as HTTP requires after a message it could not frame.
 */
function sendOnSocket(socket: Duplex, status: number, code: string, message: string): void {
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
function readBody(req: http.IncomingMessage): Promise<string | undefined> {
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

const FORWARDED_HEADERS = ["accept", "content-type", "prefer", "x-svc-api-key", "x-svc-link-token", "x-management-key", "x-svc-org-key"];

/** Front ends call the mock from their own dev server's origin, so every answer allows any origin. */
function corsHeaders(req: http.IncomingMessage): string[] {
  return ["access-control-allow-origin", req.headers.origin ?? "*", "vary", "origin", "access-control-expose-headers", "x-svc-mock-contract-violation, retry-after"];
}

function allowCors(req: http.IncomingMessage, res: http.ServerResponse): void {
  const headers = corsHeaders(req);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!);
}

function answerPreflight(req: http.IncomingMessage, res: http.ServerResponse, methods: string[]): void {
  res.writeHead(204, {
    "access-control-allow-methods": methods.join(", "),
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? FORWARDED_HEADERS.join(", "),
    "access-control-max-age": "600",
  });
  res.end();
}

/** The request target's path and query: origin-form (`/v3/...`) or absolute-form (`http://host/v3/...`); undefined when it is neither. */
function requestTarget(raw: string | undefined): URL | undefined {
  try {
    return raw?.startsWith("/") ? new URL(raw, "http://mock.invalid") : new URL(raw ?? "");
  } catch {
    return undefined;
  }
}

export function createMockHost(options: MockHostOptions): http.Server {
  const router = createRouter(options.document);
  const validator = new ContractValidator(options.document);
  const log = options.log ?? (() => {});
  const answers = new Map<string, OperationAnswers>();
  const answersFor = (match: RouteMatch): OperationAnswers => {
    let found = answers.get(match.operation.operationId);
    if (found === undefined) answers.set(match.operation.operationId, (found = answersOf(options.document, match.operation)));
    return found;
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? "GET").toUpperCase();
    const url = requestTarget(req.url);
    if (url === undefined) return sendError(res, 400, "invalid_request", "The request target is not a path nor an absolute URL.");
    if (method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined && router.pathExists(url.pathname)) {
      allowCors(req, res);
      return answerPreflight(req, res, router.methodsAt(url.pathname));
    }
    const file = options.staticFiles[url.pathname];
    if (file && method === "GET") {
      allowCors(req, res);
      const pending = file.pending?.();
      if (pending !== undefined) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", refresh: "2" });
        return void res.end(`<!doctype html><title>Building</title><p>${pending}</p>`);
      }
      const content = await readFile(file.path).catch(() => undefined);
      if (content === undefined) return sendError(res, 404, "not_found", `${url.pathname} has not been built; run npm run build.`);
      res.writeHead(200, { "content-type": file.type, "content-length": content.length });
      return void res.end(content);
    }

    const match = router.match(method, url.pathname);
    if (!match) {
      if (!router.pathExists(url.pathname)) return sendError(res, 404, "not_found", `No operation of the contract answers at ${url.pathname}.`);
      const allow = router.methodsAt(url.pathname).join(", ");
      return sendError(res, 405, "method_not_allowed", `${method} is not an operation of ${url.pathname}.`, undefined, { allow });
    }

    // Every refusal below is one the contract declares for every operation (the transport-level ones are added by the
    // bundle step, x-svc-transport-responses): the caller learns why in the shared error body.
    const bodyText = await readBody(req);
    const credentialRefusal = validator.credentialRefusal(match.operation, req.headers);
    if (credentialRefusal !== undefined) return sendError(res, 401, "unauthorized", credentialRefusal);
    if (!acceptsJson(req.headers.accept)) {
      return sendError(res, 406, "not_acceptable", `Every answer is application/json; the Accept header (${req.headers.accept}) allows none.`);
    }
    if (bodyText === undefined) return sendError(res, 413, "payload_too_large", "The request body is larger than 1 MiB.");
    const verdict = validator.validateRequest(
      match.operation,
      { pathParams: match.pathParams, query: url.searchParams, headers: req.headers, body: bodyText, contentType: req.headers["content-type"] },
      { credentialChecked: true },
    );
    if (verdict.refusal !== undefined) {
      const { status, code, message, details } = verdict.refusal;
      return sendError(res, status, code, message, details);
    }
    if (verdict.details.length > 0) {
      const parts = verdict.details.length === 1 ? "1 invalid part" : `${verdict.details.length} invalid parts`;
      return sendError(res, 422, "invalid_request", `The request has ${parts}.`, verdict.details);
    }

    const prefer = typeof req.headers.prefer === "string" && req.headers.prefer.trim() !== "" ? req.headers.prefer : undefined;
    let choice: Choice;
    try {
      choice = parsePrefer(prefer ?? MOCK_RULES[match.operation.operationId]?.({ body: verdict.body, query: url.searchParams }) ?? "");
    } catch (error) {
      return sendError(res, 400, "invalid_request", `The Prefer header is not one the mock understands: ${(error as Error).message}.`, [
        { location: "header", field: "prefer", message: (error as Error).message },
      ]);
    }
    // The static answer is chosen first even for a dynamic one: a Prefer naming an undeclared status or example is refused
    // the same way whether or not it also asks for a dynamic answer, and the static answer is the fallback.
    const answer = pick(answersFor(match), match.operation.operationId, choice);
    if (typeof answer === "string") {
      return sendError(res, 400, "invalid_request", `The Prefer header chooses no answer the contract declares: ${answer}.`, [
        { location: "header", field: "prefer", message: answer },
      ]);
    }
    if (choice.dynamic === true) {
      const dynamic = await dynamicAnswer(req, match, url, bodyText, method, choice);
      if (dynamic.answer) {
        res.writeHead(dynamic.answer.status, ["content-type", JSON_TYPE, "content-length", String(dynamic.answer.body.length), ...corsHeaders(req)]);
        return void res.end(dynamic.answer.body);
      }
      res.writeHead(answer.status, ["content-type", JSON_TYPE, "content-length", String(answer.body.length), ...answer.headers, ...corsHeaders(req), DYNAMIC_FALLBACK, dynamic.why]);
      return void res.end(answer.body);
    }
    res.writeHead(answer.status, ["content-type", JSON_TYPE, "content-length", String(answer.body.length), ...answer.headers, ...corsHeaders(req)]);
    res.end(answer.body);
  }

  /**
   * Prism's dynamic mode invents an answer from the schema, and ignores keywords such as `pattern`: an answer that
   * breaks the contract (or a status the choice did not ask for) is not sent. Prism is asked again a few times; then
   * the caller gets the declared example, with a header saying why.
   */
  async function dynamicAnswer(
    req: http.IncomingMessage,
    match: RouteMatch,
    url: URL,
    bodyText: string,
    method: string,
    choice: Choice,
  ): Promise<{ answer: { status: number; body: Buffer } } | { answer?: undefined; why: string }> {
    if (options.prism === undefined) return { why: "Prism is not available to this mock" };
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    let why = "";
    for (let attempt = 1; attempt <= DYNAMIC_ATTEMPTS; attempt++) {
      let upstream: Response;
      let text: string;
      try {
        const prismUrl = await options.prism();
        upstream = await fetch(`${prismUrl}${canonicalPath(match)}${url.search}`, {
          method,
          headers,
          body: bodyText === "" || match.operation.operation.requestBody === undefined ? undefined : bodyText,
          signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
        });
        text = await upstream.text();
      } catch (error) {
        log(`dynamic ${match.operation.operationId}: Prism did not answer: ${(error as Error).message}`);
        return { why: "Prism did not answer" };
      }
      let parsed: unknown;
      try {
        parsed = text === "" ? undefined : JSON.parse(text);
      } catch {
        parsed = text;
      }
      const violations = choice.code !== undefined && upstream.status !== choice.code ? [{ field: "", message: `status ${upstream.status}, not the ${choice.code} asked for` }] : validator.validateResponse(match.operation, upstream.status, parsed);
      if (violations.length === 0) return { answer: { status: upstream.status, body: Buffer.from(text) } };
      why = `Prism's answers broke the contract (${upstream.status}: ${violations.map((v) => `${v.field || "/"} ${v.message}`).join("; ")})`.slice(0, 300);
      log(`dynamic ${match.operation.operationId}, attempt ${attempt}: ${why}`);
    }
    return { why };
  }

  const server = http.createServer(
    { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 500 },
    (req, res) => {
      handle(req, res).catch((error: unknown) => {
        // The caller went away mid-request (its body cut short): no one is left to answer.
        if ((error as NodeJS.ErrnoException).code === "ECONNRESET") return void res.destroy();
        // A fault of the mock itself: answered for what it is, in the contract's declared 500, with its stack in the log.
        log(`mock fault on ${req.method} ${String(req.url).slice(0, 200)}: ${(error as Error).stack ?? String(error)}`);
        if (!res.headersSent) sendError(res, 500, "internal_error", "The mock failed on this request because of a fault of its own; its log has the details.");
        else res.destroy();
      });
    },
  );
  // What Node's parser refuses (oversized or malformed headers, an unknown method, conflicting lengths) and a request
  // that did not arrive in time: the contract's error body, then the connection closes.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const code = error.code ?? "";
    if (code === "ERR_HTTP_REQUEST_TIMEOUT") return sendOnSocket(socket, 408, "request_timeout", `The request did not arrive within ${REQUEST_TIMEOUT_MS} ms.`);
    if (code === "HPE_HEADER_OVERFLOW") {
      // The request line counts toward the same limit as the headers: a request line of most of it is a target too long.
      const raw = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
      const lineEnd = raw?.indexOf("\r\n") ?? -1;
      const lineLength = raw === undefined ? 0 : lineEnd < 0 ? raw.length : lineEnd;
      if (lineLength > LONG_TARGET_BYTES) return sendOnSocket(socket, 414, "uri_too_long", "The request target (path and query) is longer than 16 KiB.");
      return sendOnSocket(socket, 431, "headers_too_large", "The request's headers are larger than 16 KiB.");
    }
    if (code === "ECONNRESET" || code === "EPIPE") return void socket.destroy();
    sendOnSocket(socket, 400, "invalid_request", `The request is not well-formed HTTP (${code || error.message}).`);
  });
  // An Expect the server does not know (only 100-continue is): refused in the contract's shape instead of Node's bare 417.
  server.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    sendError(res, 400, "invalid_request", `The Expect header (${req.headers.expect}) asks for something this server does not do.`, undefined, { connection: "close" });
  });
  // A tunnel is nothing a mock of an HTTP API offers.
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => {
    sendOnSocket(socket, 405, "method_not_allowed", "CONNECT is not an operation of the contract.");
  });
  return server;
}
