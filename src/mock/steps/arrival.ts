// The steps before a request reaches the contract's operations: its target read, a CORS preflight answered, a static
// file (the reference) served.
import { badTarget, notBuilt } from "../refusals.ts";
import { corsHeaders, preflightReply, requestTarget } from "../http-vocabulary.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";
import { encodeText } from "../platform.ts";

export function target(x: Exchange): Outcome {
  const url = requestTarget(x.request.target);
  if (url === undefined) return badTarget();
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
    if (served === undefined) return notBuilt(x.url.pathname);
    x.reply = { ...served, headers: [...served.headers, ...corsHeaders(x.headers)] };
    return ANSWERED;
  });
}
