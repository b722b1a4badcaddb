// The mock's HTTP server: request and header timeouts, what Node's parser refuses before there is a request, and every
// request handed to the pipeline (pipeline.ts), or with --proxy to the validating proxy (proxy.ts), whose own faults
// are answered as the contract's 500.
import http from "node:http";
import type { Duplex } from "node:stream";
import { Redactor } from "../contract/redact.ts";
import { nodeProxyRequest, nodeRequest, sendError, sendOnSocket, writeReply } from "./node-http.ts";
import { createPipeline, type PipelineOptions } from "./pipeline.ts";
import { createProxy, type ProxyOptions } from "./proxy.ts";
import { connectRefused, headersTooLarge, mockFault, notHttp, requestTimeout, targetTooLong, unknownExpect } from "./refusals.ts";
import { filesByPath, type StaticFile } from "./static-files.ts";
import type { Reply } from "./http-shapes.ts";

/** Node's parser refuses a request line and headers over 16 KiB together; a request line over half of it is the target's fault. */
const LONG_TARGET_BYTES = 8 * 1024;
/** A request, body included, must arrive within this; a body shorter than its Content-Length then gets 408, not a 300 s wait. */
export const REQUEST_TIMEOUT_MS = 5_000;

/** The pipeline's options (the settings among them) as Node's server takes them, with what only a server has. */
export interface MockHostOptions extends Omit<PipelineOptions, "staticFiles" | "log"> {
  /** Files served beside the API, such as the reference at /docs, by path (their aliases too). */
  staticFiles: Record<string, StaticFile>;
  log?: (line: string) => void;
  /** How long a request, body included, may take to arrive; REQUEST_TIMEOUT_MS unless a test needs it shorter. */
  requestTimeoutMs?: number;
  /**
   * Forward every request to this real server instead of answering it, holding both sides to the contract (`--proxy`,
   * with `--record`); the mock then answers `/_mock/journal` alone.
   */
  proxy?: Pick<ProxyOptions, "upstream" | "record" | "timeoutMs" | "maxResponseBytes"> | undefined;
}

export function createMockHost(options: MockHostOptions): http.Server {
  const log = options.log ?? (() => {});
  const proxy = options.proxy === undefined ? undefined : createProxy({ ...options.proxy, document: options.document, log, journalSize: options.journalSize });
  // The proxy forwards the body's bytes as they came; the mock reads its text.
  let handle: (req: http.IncomingMessage) => Promise<Reply>;
  if (proxy !== undefined) handle = (req) => proxy(nodeProxyRequest(req));
  else {
    const pipeline = createPipeline({ ...options, staticFiles: filesByPath(options.staticFiles), log });
    handle = (req) => pipeline(nodeRequest(req));
  }
  // The log's URLs keep out the query parameters the contract marks as health data or secrets. Made on the first
  // fault, not at start: building it walks the whole contract, and most runs never log one.
  let redactor: Redactor | undefined;
  const timeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = http.createServer(
    // Node checks the deadlines every connectionsCheckingInterval: at most a tenth of the deadline late.
    { requestTimeout: timeout, headersTimeout: timeout, connectionsCheckingInterval: Math.min(500, Math.max(10, timeout / 10)) },
    (req, res) => {
      handle(req)
        .then((reply) => writeReply(res, reply))
        .catch((error: unknown) => {
          // The caller went away mid-request (its body cut short): no one is left to answer.
          if ((error as NodeJS.ErrnoException).code === "ECONNRESET") return void res.destroy();
          // A fault of the mock itself: answered for what it is, in the contract's declared 500, with its stack in the log.
          log(
            `mock fault on ${req.method} ${(redactor ??= new Redactor(options.document)).url(String(req.method), String(req.url)).slice(0, 200)}: ${(error as Error).stack ?? String(error)}`,
          );
          if (!res.headersSent) sendError(res, mockFault());
          else res.destroy();
        });
    },
  );
  if (proxy !== undefined) server.once("close", () => void proxy.close());
  // What Node's parser refuses (oversized or malformed headers, an unknown method, conflicting lengths) and a request
  // that did not arrive in time: the contract's error body, then the connection closes.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const code = error.code ?? "";
    if (code === "ERR_HTTP_REQUEST_TIMEOUT") return sendOnSocket(socket, requestTimeout(timeout));
    if (code === "HPE_HEADER_OVERFLOW") {
      // The request line counts toward the same limit as the headers: a request line of most of it is a target too long.
      const raw = (error as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
      const lineEnd = raw?.indexOf("\r\n") ?? -1;
      const lineLength = raw === undefined ? 0 : lineEnd < 0 ? raw.length : lineEnd;
      if (lineLength > LONG_TARGET_BYTES) return sendOnSocket(socket, targetTooLong(http.maxHeaderSize));
      return sendOnSocket(socket, headersTooLarge(http.maxHeaderSize));
    }
    if (code === "ECONNRESET" || code === "EPIPE") return void socket.destroy();
    sendOnSocket(socket, notHttp(code || error.message));
  });
  // An Expect the server does not know (only 100-continue is): refused in the contract's shape instead of Node's bare 417.
  server.on("checkExpectation", (req: http.IncomingMessage, res: http.ServerResponse) => {
    sendError(res, unknownExpect(req.headers.expect));
  });
  // A tunnel is nothing a mock of an HTTP API offers.
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => {
    sendOnSocket(socket, connectRefused());
  });
  return server;
}
