// The files beside the API (the reference at /docs) are served as a browser expects: at their aliases, to GET and HEAD,
// compressed by Accept-Encoding, with an ETag that a revalidation answers 304.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundle } from "../../scripts/build/lib/paths.ts";
import { createMockHost } from "../../src/mock/host.ts";
import { chooseEncoding } from "../../src/mock/static-files.ts";
import { REFERENCE_ALIASES } from "../../src/mock/paths.ts";
import { request as rawRequest } from "node:http";

const page = `<!doctype html><title>reference</title>${"<p>a reader's page</p>".repeat(2000)}`;
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "svc-static-"));
  await writeFile(path.join(dir, "reference.html"), page);
  server = createMockHost({
    document: await readBundle(),
    staticFiles: { "/docs": { path: path.join(dir, "reference.html"), type: "text/html; charset=utf-8", aliases: REFERENCE_ALIASES } },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** A request with exactly these headers (fetch would add Accept-Encoding and decompress). */
function get(
  pathname: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = rawRequest(`${base}${pathname}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the reference beside the API", () => {
  it("answers at /docs, /docs/ and /docs/index.html, and to HEAD with the headers and no body", async () => {
    for (const at of ["/docs", ...REFERENCE_ALIASES]) {
      const answer = await get(at);
      expect(answer.status, at).toBe(200);
      expect(answer.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(answer.body.toString()).toBe(page);
    }
    const head = await get("/docs", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBe(Buffer.byteLength(page));
    expect(head.body.length).toBe(0);
  });

  it("compresses by Accept-Encoding (brotli before gzip), each encoding with its own ETag", async () => {
    const br = await get("/docs", { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(page);
    const gz = await get("/docs", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(page);
    expect(gz.body.length).toBeLessThan(Buffer.byteLength(page) / 10);
    const plain = await get("/docs", { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    for (const answer of [br, gz, plain]) {
      expect(answer.headers.vary).toContain("Accept-Encoding");
      expect(answer.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("answers 304 to a revalidation with the ETag it sent, and 200 to another", async () => {
    const first = await get("/docs", { "accept-encoding": "br" });
    const again = await get("/docs", { "accept-encoding": "br", "if-none-match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const other = await get("/docs", { "accept-encoding": "gzip", "if-none-match": first.headers.etag! });
    expect(other.status).toBe(200);
  });

  it("chooses the encoding by the request's weights", () => {
    expect(chooseEncoding(undefined)).toBe("identity");
    expect(chooseEncoding("gzip, deflate, br")).toBe("br");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0, identity")).toBe("identity");
  });
});
