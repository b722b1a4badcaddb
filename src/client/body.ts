// Reads an answer's body as a caller that trusts no server must: a redirect is refused (it would carry the credential
// elsewhere), an encoding fetch did not undo is refused, at most `limit` bytes are read after decompression, and the
// text is checked to be UTF-8 rather than silently repaired. verify reads its answers with the same pieces.
import { ApiError, ApiRedirectError, ApiResponseTooLargeError, named, type OperationRef } from "./errors.js";

/** The default of `maxResponseBytes`: far above any answer of the contract, far below what hurts a process. */
export const MAX_RESPONSE_BYTES: number = 16 * 1024 * 1024;

// Node's fetch asks for and undoes these itself; any other encoding would hand back compressed bytes as if they were text.
// A browser undoes what it asked for, so the check is Node's only.
const UNDONE = /^ *((x-)?gzip|deflate|br|identity) *$/i;

/** Whether fetch undid every Content-Encoding an answer names (always true outside Node). */
const encodingUndone = (encoding: string | null): boolean =>
  !encoding || !globalThis.process?.versions?.node || encoding.split(",").every((token) => UNDONE.test(token));

/**
 * The stream's bytes, or undefined as soon as they pass `limit`: the stream is then cancelled, which drops the
 * connection. Decompressed bytes are counted, so a small compressed answer that inflates past the limit stops there.
 */
async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (body) {
    const reader = body.getReader();
    for (let read; !(read = await reader.read()).done; ) {
      if ((size += read.value.length) > limit) {
        void reader.cancel();
        return;
      }
      chunks.push(read.value);
    }
  }
  // Most answers come in one chunk, which needs no copy.
  if (chunks.length == 1) return chunks[0];
  const bytes = new Uint8Array(size);
  chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0);
  return bytes;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Why an answer's body was not taken as text: past the size limit, in an encoding fetch did not undo, or not UTF-8. */
export type Unread = "too_large" | "encoding" | "not_utf8";

/**
 * The answer's body as UTF-8 text, read to at most `limit` bytes after decompression, or why not: past the limit also
 * when Content-Length says so before any byte is read, and then `declared` is the length it gave (a caller names it).
 * A body not read whole is cancelled, which drops the connection.
 */
export async function readText(response: Response, limit: number): Promise<{ text: string } | { unread: Unread; declared?: number }> {
  const { headers, body } = response;
  const declared = Number(headers.get("content-length"));
  const refused: Unread | undefined = !encodingUndone(headers.get("content-encoding")) ? "encoding" : declared > limit ? "too_large" : undefined;
  if (refused) {
    await body?.cancel();
    return refused == "too_large" ? { unread: refused, declared } : { unread: refused };
  }
  const bytes = await readAtMost(body, limit);
  if (!bytes) return { unread: "too_large" };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { unread: "not_utf8" };
  }
}

/**
 * The body as text. Throws `ApiRedirectError` for a 3xx (or a browser's opaque redirect), `ApiResponseTooLargeError`
 * past `limit` bytes, and `ApiError` for bytes that are not UTF-8 (which would read as U+FFFD: data the server never
 * sent) or are still in an encoding fetch did not undo.
 */
export async function readBody(response: Response, operation: OperationRef, limit: number): Promise<string> {
  const { status, headers, body } = response;
  if (response.type == "opaqueredirect" || (status > 299 && status < 400)) {
    void body?.cancel();
    throw new ApiRedirectError(operation, status, headers.get("location"));
  }
  const read = await readText(response, limit);
  if ("text" in read) return read.text;
  if (read.unread == "too_large") throw new ApiResponseTooLargeError(operation, status, limit);
  const encoding = headers.get("content-encoding");
  throw new ApiError({
    status,
    body: undefined,
    operation,
    response,
    message: `${named(operation)} answered ${status} in bytes that are not UTF-8 text${encoding ? ` (Content-Encoding ${encoding})` : ""}`,
  });
}
