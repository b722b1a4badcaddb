// The mock as a Fetch API handler: a `Request` in, a `Response` out, with no socket, for a test process (createMock),
// MSW's handlers in Node and the browser, and anything else that speaks fetch.
import { MAX_BODY_BYTES } from "./http-vocabulary.ts";
import type { Pipeline } from "./pipeline.ts";
import type { HeaderBag, MockRequest, Reply } from "./http-shapes.ts";

/** The statuses a Response may not carry a body with. */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The body as text, read to at most the mock's limit; undefined past it (the rest is cancelled, not read). */
async function boundedText(request: Request): Promise<string | undefined> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** A Fetch request in the pipeline's form: lower-case header names (Headers gives them so), the origin-form target. */
export function fetchRequest(request: Request): MockRequest {
  // Without a prototype: a header named `__proto__` is a header like any other, not lost to Object's setter.
  const headers: HeaderBag = Object.create(null);
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const url = new URL(request.url);
  let body: Promise<string | undefined> | undefined;
  return { method: request.method, target: `${url.pathname}${url.search}`, headers, body: () => (body ??= boundedText(request)) };
}

/** The pipeline's reply as a Response; a dropped connection rejects as fetch does when a server hangs up. */
export function toResponse(reply: Reply, method: string): Response {
  if (reply.drop === true) throw new TypeError("fetch failed", { cause: new Error("the mock dropped the connection, as its conditions asked (drop_rate)") });
  const headers = new Headers();
  for (let i = 0; i < reply.headers.length; i += 2) headers.append(reply.headers[i]!, reply.headers[i + 1]!);
  const body = NULL_BODY.has(reply.status) || method === "HEAD" || reply.body === undefined ? null : reply.body;
  return new Response(body as BodyInit | null, { status: reply.status, headers });
}

/** Answers a Fetch request through the pipeline; an aborted request rejects with its signal's reason, as fetch does (a
 * client's timeout fires while conditions hold the answer back). */
export function fetchHandler(pipeline: Pipeline): (request: Request) => Promise<Response> {
  return async (request) => {
    const { signal } = request;
    if (signal.aborted) throw signal.reason;
    const answer = pipeline(fetchRequest(request)).then((reply) => toResponse(reply, request.method.toUpperCase()));
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  };
}
