// A proxy on 127.0.0.1 in front of a server (a mock the test started) that passes every exchange through but the ones
// a test alters: a server right except for one thing, to show that a checker finds exactly that thing.
import http from "node:http";
import { listenOnLoopback } from "../../src/net/loopback-server.ts";

export interface Exchange {
  method: string;
  /** The path and query as the client sent them. */
  target: string;
  pathname: string;
  headers: Record<string, string>;
  body: string;
  /** What the server behind answered. */
  status: number;
  contentType: string | undefined;
  answer: string;
}

export interface AlteredAnswer {
  status: number;
  body: string;
  contentType?: string;
  /** Headers beyond the content type; a passed-through answer keeps the server's (an `Allow`, a `Retry-After`). */
  headers?: Record<string, string>;
}

/** Returns the answer to send instead, or undefined to pass the server's answer through. */
export type Alter = (
  exchange: Exchange,
  upstream: (method: string, target: string) => Promise<{ status: number; body: string }>,
) => AlteredAnswer | undefined | Promise<AlteredAnswer | undefined>;

export interface AlteringProxy {
  url: string;
  /** Each request as it arrived: method, path and when (performance.now()). */
  arrivals: { method: string; target: string; at: number }[];
  close(): Promise<void>;
}

/** Request headers that describe the hop, not the request: the proxy's own fetch sets them. */
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);
/** Answer headers the proxy sets itself (fetch has already decoded the body). */
const OWN_ANSWER_HEADERS = new Set([...HOP_HEADERS, "content-type", "content-encoding", "date"]);

export async function startAlteringProxy(targetUrl: string, alter: Alter): Promise<AlteringProxy> {
  const arrivals: AlteringProxy["arrivals"] = [];
  const server = http.createServer((req, res) => {
    arrivals.push({ method: req.method ?? "", target: req.url ?? "/", at: performance.now() });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (!HOP_HEADERS.has(name) && typeof value === "string") headers[name] = value;
      const body = Buffer.concat(chunks).toString("utf8");
      const upstream = async (method: string, target: string) => {
        const response = await fetch(`${targetUrl}${target}`, { method, headers, ...(body === "" || method === "GET" ? {} : { body }) });
        const kept = Object.fromEntries([...response.headers].filter(([name]) => !OWN_ANSWER_HEADERS.has(name)));
        return { status: response.status, body: await response.text(), contentType: response.headers.get("content-type") ?? undefined, headers: kept };
      };
      void (async () => {
        const method = req.method ?? "GET";
        const target = req.url ?? "/";
        const answer = await upstream(method, target);
        const exchange: Exchange = {
          method,
          target,
          pathname: new URL(target, "http://proxy").pathname,
          headers,
          body,
          status: answer.status,
          contentType: answer.contentType,
          answer: answer.body,
        };
        const altered = (await alter(exchange, upstream)) ?? {
          status: answer.status,
          body: answer.body,
          contentType: answer.contentType,
          headers: answer.headers,
        };
        res.writeHead(altered.status, {
          ...altered.headers,
          "content-type": altered.contentType ?? "application/json",
          "content-length": Buffer.byteLength(altered.body),
        });
        res.end(altered.body);
      })().catch((error: unknown) => res.destroy(error as Error));
    });
  });
  return { ...(await listenOnLoopback(server)), arrivals };
}
