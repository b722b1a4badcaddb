// Serves the files beside the API (the reference at /docs, the bundled contract) as a browser expects: GET and HEAD,
// compressed by Accept-Encoding (brotli or gzip), with an ETag a browser revalidates against.
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { HeaderBag, Reply, ServedFile } from "./http-shapes.ts";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export interface StaticFile {
  path: string;
  type: string;
  /** Other paths that answer the same file, such as `/docs/` and `/docs/index.html` for `/docs`. */
  aliases?: string[];
  /** A message to answer while the file is still being built. */
  pending?: () => string | undefined;
}

type Encoding = "br" | "gzip" | "identity";

/** A file as read once per version (its size and modification time): the bytes, each compressed form, and its hash. */
interface Prepared {
  version: string;
  hash: string;
  /** Each encoding's bytes, compressed once, on first request: a promise, so requests that arrive meanwhile share it. */
  bodies: Partial<Record<Encoding, Promise<Buffer>>>;
  raw: Buffer;
}

const prepared = new Map<string, Prepared>();

/** The encoding to send: brotli, then gzip, then none, each only if the request accepts it (q above 0). */
export function chooseEncoding(header: string | string[] | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return "identity";
}

async function prepare(file: StaticFile): Promise<Prepared | undefined> {
  const info = await stat(file.path).catch(() => undefined);
  if (info === undefined) return undefined;
  const version = `${info.size}:${info.mtimeMs}`;
  const known = prepared.get(file.path);
  if (known?.version === version) return known;
  const raw = await readFile(file.path).catch(() => undefined);
  if (raw === undefined) return undefined;
  const entry: Prepared = { version, raw, bodies: { identity: Promise.resolve(raw) }, hash: createHash("sha256").update(raw).digest("base64url").slice(0, 22) };
  prepared.set(file.path, entry);
  return entry;
}

function body(entry: Prepared, encoding: Encoding): Promise<Buffer> {
  // In zlib's thread pool, so API requests are not held while the reference is compressed; brotli at quality 9 keeps
  // that to a fraction of a second.
  entry.bodies[encoding] ??=
    encoding === "br"
      ? brotli(entry.raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: entry.raw.length } })
      : gzipped(entry.raw, { level: 9 });
  return entry.bodies[encoding]!;
}

/** Whether If-None-Match names this ETag (or `*`). */
function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

/** The answer to a GET or HEAD of a static file; undefined when the file is missing (the caller answers 404). */
export async function serveStatic(method: string, requestHeaders: HeaderBag, file: StaticFile): Promise<Reply | undefined> {
  const entry = await prepare(file);
  if (entry === undefined) return undefined;
  const encoding = chooseEncoding(requestHeaders["accept-encoding"]);
  // Each encoding is its own representation, so its own ETag.
  const etag = `"${entry.hash}${encoding === "identity" ? "" : `-${encoding}`}"`;
  // Revalidate every time: the file changes whenever it is rebuilt, and an unchanged one costs a 304.
  const headers = ["content-type", file.type, "etag", etag, "cache-control", "no-cache", "vary", "Accept-Encoding"];
  const ifNoneMatch = requestHeaders["if-none-match"];
  if (notModified(typeof ifNoneMatch === "string" ? ifNoneMatch : undefined, etag)) return { status: 304, headers };
  const content = await body(entry, encoding);
  if (encoding !== "identity") headers.push("content-encoding", encoding);
  headers.push("content-length", String(content.length));
  return { status: 200, headers, body: method === "HEAD" ? undefined : content };
}

/** The files a Node host serves, by path and by each alias, in the pipeline's form. */
export function filesByPath(files: Record<string, StaticFile>): Map<string, ServedFile> {
  const served = new Map<string, ServedFile>();
  for (const [where, file] of Object.entries(files)) {
    const entry: ServedFile = { pending: file.pending, serve: (method, headers) => serveStatic(method, headers, file) };
    for (const at of [where, ...(file.aliases ?? [])]) served.set(at, entry);
  }
  return served;
}
