// Serves the mock: checks credentials and requests against the contract, then lets Prism answer with the contract's examples.
import { readFile } from "node:fs/promises";
import http from "node:http";
import { ContractValidator, type ErrorDetail } from "../lib/contract-validator.ts";
import { canonicalPath, createRouter } from "../lib/operations.ts";
import type { JsonObject } from "../lib/walk.ts";
import { MOCK_RULES } from "./rules.ts";

const MAX_BODY_BYTES = 1 << 20;
const UPSTREAM_TIMEOUT_MS = 15_000;

export interface MockHostOptions {
  document: JsonObject;
  prismUrl: string;
  /** Files served beside the API, such as the reference at /docs. */
  staticFiles: Record<string, { path: string; type: string }>;
  log?: (line: string) => void;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(res: http.ServerResponse, status: number, code: string, message: string, details?: ErrorDetail[], headers: Record<string, string> = {}): void {
  sendJson(res, status, details === undefined ? { code, message } : { code, message, details }, headers);
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

/** The body as text, or undefined when it is over the limit; an oversized body is drained, not cut off, so the 413 still reaches the caller. */
function readBody(req: http.IncomingMessage): Promise<string | undefined> {
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
function allowCors(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.setHeader("access-control-allow-origin", req.headers.origin ?? "*");
  res.setHeader("vary", "origin");
  res.setHeader("access-control-expose-headers", "x-svc-mock-contract-violation");
}

function answerPreflight(req: http.IncomingMessage, res: http.ServerResponse, methods: string[]): void {
  res.writeHead(204, {
    "access-control-allow-methods": methods.join(", "),
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? FORWARDED_HEADERS.join(", "),
    "access-control-max-age": "600",
  });
  res.end();
}

export function createMockHost(options: MockHostOptions): http.Server {
  const router = createRouter(options.document);
  const validator = new ContractValidator(options.document);
  const log = options.log ?? (() => {});

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://mock.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    allowCors(req, res);
    if (method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined && router.pathExists(url.pathname)) {
      return answerPreflight(req, res, router.methodsAt(url.pathname));
    }
    const file = options.staticFiles[url.pathname];
    if (file && method === "GET") {
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
    // bundle step, x-svc-transport-responses): the caller learns why in the shared error body, never in Prism's shape.
    const bodyText = await readBody(req);
    const credentialRefusal = validator.credentialRefusal(match.operation, req.headers);
    if (credentialRefusal !== undefined) return sendError(res, 401, "unauthorized", credentialRefusal);
    if (!acceptsJson(req.headers.accept)) {
      return sendError(res, 406, "not_acceptable", `Every answer is application/json; the Accept header (${req.headers.accept}) allows none.`);
    }
    if (bodyText === undefined) return sendError(res, 413, "payload_too_large", "The request body is larger than 1 MiB.");
    const verdict = validator.validateRequest(match.operation, {
      pathParams: match.pathParams,
      query: url.searchParams,
      headers: req.headers,
      body: bodyText,
      contentType: req.headers["content-type"],
    });
    if (verdict.missingCredential !== undefined) {
      return sendError(res, 401, "unauthorized", verdict.missingCredential);
    }
    if (verdict.refusal !== undefined) {
      const { status, code, message, details } = verdict.refusal;
      return sendError(res, status, code, message, details);
    }
    if (verdict.details.length > 0) {
      const parts = verdict.details.length === 1 ? "1 invalid part" : `${verdict.details.length} invalid parts`;
      return sendError(res, 422, "invalid_request", `The request has ${parts}.`, verdict.details);
    }

    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    headers.prefer ??= MOCK_RULES[match.operation.operationId]?.({ body: verdict.body, query: url.searchParams }) ?? "";
    if (headers.prefer === "") delete headers.prefer;

    const upstream = await fetch(`${options.prismUrl}${canonicalPath(match)}${url.search}`, {
      method,
      headers,
      // Only operations that declare a body get one; Prism refuses a body on a GET in its own shape.
      body: bodyText === "" || match.operation.operation.requestBody === undefined ? undefined : bodyText,
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    const text = await upstream.text();
    const responseHeaders: Record<string, string> = { "content-type": upstream.headers.get("content-type") ?? "application/json" };
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    const violations = validator.validateResponse(match.operation, upstream.status, parsed);
    if (violations.length > 0) {
      // The contract's own example broke the contract: say so loudly, but still show what Prism sent.
      responseHeaders["x-svc-mock-contract-violation"] = violations.map((v) => `${v.field || "/"} ${v.message}`).join("; ").slice(0, 500);
      log(`contract violation in ${match.operation.operationId} ${upstream.status}: ${JSON.stringify(violations)}`);
    }
    res.writeHead(upstream.status, responseHeaders);
    res.end(text);
  }

  return http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`mock host error on ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendError(res, 502, "mock_upstream_failed", "The mock could not get an answer from Prism.");
      else res.destroy();
    });
  });
}
