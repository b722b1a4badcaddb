// The proxy on 127.0.0.1 that every request of the workflows goes through (`redocly respect` sends them, and would
// follow a redirect with the API key and the link token, read any answer whole, and take any bytes for text): each is
// forwarded by verify's own sender, so it keeps verify's rate, deadline and size limit, and a redirect, an answer too
// large, an encoding left undone or bytes that are not UTF-8 come back to respect as a 502 naming what the server did.
// The sender adds the run's `--header`s (a gateway's) too, over any respect sent of the same name: the workflows pass
// the gateway as every other request does.
import http from "node:http";
import type { Sender } from "../sender.ts";
import { isHopHeader } from "../../net/hop-headers.ts";
import { listenOnLoopback, type Listening } from "../../net/loopback-server.ts";

/** Whether a header stays behind: one hop's, or the answer's encoding (its body goes to respect decoded, with its own length). */
function staysBehind(name: string, connection: string | string[] | undefined): boolean {
  return isHopHeader(name, connection) || name === "content-encoding";
}

/** The most bytes of a request from respect the proxy takes: the workflows' bodies are a few hundred. */
const MAX_REQUEST_BYTES = 1024 * 1024;

export type WorkflowProxy = Listening;

/** The 502 respect gets instead of what the server answered: no operation declares it, so the step fails naming it. */
function refuse(res: http.ServerResponse, code: string, message: string): void {
  res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ code, message }));
}

export async function startWorkflowProxy(target: string, sender: Sender): Promise<WorkflowProxy> {
  const base = target.replace(/\/+$/, "");
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if ((size += chunk.length) <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on("end", async () => {
      if (size > MAX_REQUEST_BYTES) return refuse(res, "verify_proxy_error", `verify's proxy takes requests of at most ${MAX_REQUEST_BYTES} bytes`);
      // Both header sets without a prototype: a name such as `__proto__` is passed on like any other, not lost to Object's setter.
      const headers: Record<string, string> = Object.create(null);
      for (const [name, value] of Object.entries(req.headers))
        if (!staysBehind(name, req.headers.connection) && typeof value === "string") headers[name] = value;
      const answer = await sender.send({
        method: req.method ?? "GET",
        url: `${base}${req.url ?? "/"}`,
        headers,
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks).toString("utf8") }),
      });
      if (answer.kind === "failure") return refuse(res, "verify_proxy_error", `verify did not take the answer of ${base}: ${answer.error}`);
      if (answer.status >= 300 && answer.status < 400) {
        const location = answer.headers.get("location");
        return refuse(
          res,
          "verify_redirect_refused",
          `${base} answered ${answer.status}${location === null ? "" : `, a redirect to ${location}`}; verify follows no redirect (it would carry the credentials elsewhere)`,
        );
      }
      const out: Record<string, string> = Object.create(null);
      const connection = answer.headers.get("connection") ?? undefined;
      answer.headers.forEach((value, name) => {
        if (!staysBehind(name, connection)) out[name] = value;
      });
      const bytes = Buffer.from(answer.text, "utf8");
      res.writeHead(answer.status, { ...out, "content-length": String(bytes.length) }).end(bytes);
    });
  });
  return listenOnLoopback(server);
}
