// The steps before a request reaches the contract's operations: its target read, a CORS preflight answered, a static
// file (the reference) served.
import { corsHeaders, preflightReply, requestTarget } from "../http.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";
import { encodeText } from "../runtime.ts";

export function target(x: Exchange): Outcome {
  const url = requestTarget(x.request.target);
  if (url === undefined) return { status: 400, code: "invalid_request", message: "The request target is not a path nor an absolute URL." };
  x.url = url;
  return undefined;
}

export function preflight(x: Exchange, context: StepContext): Outcome {
  const { router } = context;
  if (x.method !== "OPTIONS" || x.headers["access-control-request-method"] === undefined || !router.pathExists(x.url.pathname)) return undefined;
  x.reply = preflightReply(x.headers, router.methodsAt(x.url.pathname), context.readHeaders);
  return ANSWERED;
}

export function staticFile(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  const file = context.staticFiles.get(x.url.pathname);
  if (!file || (x.method !== "GET" && x.method !== "HEAD")) return undefined;
  const pending = file.pending?.();
  if (pending !== undefined) {
    const body = encodeText(`<!doctype html><title>Building</title><p>${pending}</p>`);
    x.reply = { status: 200, headers: ["content-type", "text/html; charset=utf-8", "refresh", "2", ...corsHeaders(x.headers)], body };
    return ANSWERED;
  }
  // Only a static file's request waits (to read and compress it): an API request goes on without a promise.
  return file.serve(x.method, x.headers).then((served) => {
    if (served === undefined) return { status: 404, code: "not_found", message: `${x.url.pathname} has not been built; run npm run build.` };
    x.reply = { ...served, headers: [...served.headers, ...corsHeaders(x.headers)] };
    return ANSWERED;
  });
}
