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
export const encodingUndone = (encoding: string | null): boolean =>
  !encoding || !globalThis.process?.versions?.node || encoding.split(",").every((token) => UNDONE.test(token));

/**
 * The stream's bytes, or undefined as soon as they pass `limit`: the stream is then cancelled, which drops the
 * connection. Decompressed bytes are counted, so a small compressed answer that inflates past the limit stops there.
 */
export async function readAtMost(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> {
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

/** The bytes as text, or undefined when they are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {}
}

/**
 * The body as text. Throws `ApiRedirectError` for a 3xx (or a browser's opaque redirect), `ApiResponseTooLargeError`
 * past `limit` bytes (also when Content-Length says so before any byte is read), and `ApiError` for bytes that are not
 * UTF-8 (which would read as U+FFFD: data the server never sent) or are still in an encoding fetch did not undo.
 */
export async function readBody(response: Response, operation: OperationRef, limit: number): Promise<string> {
  const { status, headers, body } = response;
  const encoding = headers.get("content-encoding");
  if (response.type == "opaqueredirect" || (status > 299 && status < 400)) {
    void body?.cancel();
    throw new ApiRedirectError(operation, status, headers.get("location"));
  }
  const bytes = Number(headers.get("content-length")) > limit ? void body?.cancel() : await readAtMost(body, limit);
  if (!bytes) throw new ApiResponseTooLargeError(operation, status, limit);
  const text = encodingUndone(encoding) ? utf8Text(bytes) : undefined;
  if (text === undefined) {
    throw new ApiError({ status, body: undefined, operation, response, message: `${named(operation)} answered ${status} in bytes that are not UTF-8 text${encoding ? ` (Content-Encoding ${encoding})` : ""}` });
  }
  return text;
}
