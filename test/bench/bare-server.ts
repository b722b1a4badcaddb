// The benchmarks' baseline: a bare Node http server on 127.0.0.1 that answers each path with fixed bytes (the mock's
// own answers, read from the JSON file given), doing nothing else. Usage: tsx test/bench/bare-server.ts <answers.json> <port>
import { readFileSync } from "node:fs";
import http from "node:http";

const [file, port] = process.argv.slice(2);
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(file!, "utf8")) as Record<string, { status: number; body: string }>).map(([key, a]) => [
    key,
    { status: a.status, body: Buffer.from(a.body) },
  ]),
);
const notFound = Buffer.from('{"code":"not_found","message":"no such path"}');

http
  .createServer((req, res) => {
    // Read the body as the mock does, so a POST costs both servers the same bytes.
    req.resume();
    req.on("end", () => {
      const answer = answers.get(`${req.method} ${(req.url ?? "/").split("?")[0]}`);
      res.writeHead(answer?.status ?? 404, { "content-type": "application/json", "content-length": (answer?.body ?? notFound).length });
      res.end(answer?.body ?? notFound);
    });
  })
  .listen(Number(port), "127.0.0.1", () => console.log("Stop with Ctrl-C"));
