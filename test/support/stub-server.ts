// A scripted HTTP server on 127.0.0.1 for the client's tests: each test says how to answer and reads what arrived, and when.
import http from "node:http";
import { listenOnLoopback } from "../../src/net/loopback-server.ts";

export interface Arrival {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** performance.now() when the request's head arrived. */
  at: number;
}

export type StubHandler = (arrival: Arrival, res: http.ServerResponse, index: number) => void | Promise<void>;

export interface StubServer {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** Sends a JSON answer. */
export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startStub(handler: StubHandler): Promise<StubServer> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const at = performance.now();
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const arrival = { method: req.method ?? "", url: new URL(req.url ?? "/", "http://stub"), headers: req.headers, body, at };
      arrivals.push(arrival);
      void Promise.resolve(handler(arrival, res, arrivals.length - 1)).catch((error: unknown) => res.destroy(error as Error));
    });
  });
  return { ...(await listenOnLoopback(server)), arrivals };
}
