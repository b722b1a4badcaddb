// A webhook receiver on 127.0.0.1 for the workflow whose event verify checks: it keeps each delivery's raw body and
// headers exactly as they arrived, since the signature is over the bytes sent.
import http from "node:http";
import { listenOnLoopback } from "../../net/loopback-server.ts";

export interface Delivery {
  body: string;
  headers: http.IncomingHttpHeaders;
  /** When it arrived, in seconds since the epoch: what its timestamp is judged against. */
  receivedAt: number;
}

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Resolves with the first delivery `accept` takes, or undefined after `timeoutMs`. */
  next(accept: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery | undefined>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiting = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers, receivedAt: Date.now() / 1000 });
      res.writeHead(204).end();
      for (const wake of waiting) wake();
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: `${listening.url}/events`,
    deliveries,
    next(accept, timeoutMs) {
      return new Promise((resolve) => {
        const look = () => {
          const found = deliveries.find(accept);
          if (found === undefined) return false;
          finish(found);
          return true;
        };
        const finish = (found: Delivery | undefined) => {
          clearTimeout(timer);
          waiting.delete(wake);
          resolve(found);
        };
        const wake = () => void look();
        const timer = setTimeout(() => finish(undefined), timeoutMs);
        waiting.add(wake);
        look();
      });
    },
    close: listening.close,
  };
}
