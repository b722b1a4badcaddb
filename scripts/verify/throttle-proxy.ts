// A proxy on 127.0.0.1 that forwards each request to the server under test once the rate limiter lets it go, so the
// workflows' requests (sent by `redocly respect`, which has no rate of its own) keep verify's --rate too.
import http from "node:http";
import type { RateLimiter } from "./http.ts";
import { listenOnLoopback, type Listening } from "../lib/loopback-server.ts";

/** Headers that belong to one hop, not to the request or answer forwarded. */
const HOP_HEADERS = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "upgrade", "proxy-connection", "te", "trailer"]);

export type ThrottleProxy = Listening;

export async function startThrottleProxy(target: string, limiter: RateLimiter): Promise<ThrottleProxy> {
  const base = target.replace(/\/+$/, "");
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (!HOP_HEADERS.has(name) && typeof value === "string") headers[name] = value;
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      try {
        await limiter.take();
        const answer = await fetch(`${base}${req.url ?? "/"}`, { method: req.method ?? "GET", headers, ...(body === undefined ? {} : { body }), redirect: "manual" });
        const bytes = Buffer.from(await answer.arrayBuffer());
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP_HEADERS.has(name)) out[name] = value;
        });
        res.writeHead(answer.status, { ...out, "content-length": String(bytes.length) }).end(bytes);
      } catch (error) {
        // The server under test could not be reached: 502, which no operation declares, so the step fails naming it.
        const text = JSON.stringify({ code: "verify_proxy_error", message: `verify could not reach ${base}: ${(error as Error).message}` });
        res.writeHead(502, { "content-type": "application/json" }).end(text);
      }
    });
  });
  return listenOnLoopback(server);
}
