// A call's Request: the path template filled, the query written, the body as JSON, the headers merged. The contract's
// parameters are all primitives or arrays of them (path: simple style; query: form style, exploded), so the URL is
// written here in a few lines rather than with openapi-fetch's serializers for every style, which were a quarter of
// every application's bundle; headers and the body still go through openapi-fetch's own helpers.
import { defaultBodySerializer, mergeHeaders } from "openapi-fetch";

/** The parts of a call that make its request. */
export interface RequestParts {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> } | undefined;
  body?: unknown;
}

/**
 * The address of `path` under `baseUrl`: each `{name}` replaced by its value, percent-encoded (left as it is when the
 * call gives none); each query value that is not null nor undefined as `name=value`, an array as one pair per item.
 */
export function urlOf(baseUrl: string, path: string, { path: inPath = {}, query = {} }: NonNullable<RequestParts["params"]>): string {
  const filled = path.replace(/\{([^{}]+)\}/g, (whole, name: string) => (inPath[name] == null ? whole : encodeURIComponent(String(inPath[name]))));
  const pairs: string[] = [];
  // Own names only: a query object's prototype (or one polluted elsewhere) adds nothing to the URL.
  for (const name of Object.keys(query))
    for (const value of ([] as unknown[]).concat(query[name] ?? [])) pairs.push(`${name}=${encodeURIComponent(String(value))}`);
  return baseUrl + filled + (pairs.length ? `?${pairs.join("&")}` : "");
}

/**
 * The request of `method` on the path template, its headers merged in order (a later set wins: the client's, the
 * credential, the call's); a body is sent as JSON, with `Content-Type: application/json` unless a header says otherwise.
 * A body JSON cannot hold (a BigInt) throws here, before anything is sent.
 */
export function buildRequest(
  baseUrl: string,
  method: string,
  path: string,
  { params = {}, body }: RequestParts,
  headers: Parameters<typeof mergeHeaders>,
  signal: AbortSignal | undefined,
): Request {
  const serialized = body === undefined ? undefined : defaultBodySerializer(body);
  return new Request(urlOf(baseUrl, path, params), {
    method,
    body: serialized,
    headers: mergeHeaders(serialized === undefined ? {} : { "Content-Type": "application/json" }, ...headers),
    signal,
    // A redirect comes back as an answer (readBody refuses it): followed, it would take the credential to another origin.
    redirect: "manual",
  });
}
