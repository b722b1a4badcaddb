// The steps before a request reaches the contract's operations: its target read, a CORS preflight answered, a static
// file (the reference) served.
import { allowCors, answerPreflight, requestTarget } from "../http.ts";
import { serveStatic } from "../static-files.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";

export function target(x: Exchange): Outcome {
  const url = requestTarget(x.req.url);
  if (url === undefined) return { status: 400, code: "invalid_request", message: "The request target is not a path nor an absolute URL." };
  x.url = url;
  return undefined;
}

export function preflight(x: Exchange, context: StepContext): Outcome {
  const { router } = context;
  if (x.method !== "OPTIONS" || x.req.headers["access-control-request-method"] === undefined || !router.pathExists(x.url.pathname)) return undefined;
  allowCors(x.req, x.res);
  answerPreflight(x.req, x.res, router.methodsAt(x.url.pathname), context.readHeaders);
  return ANSWERED;
}

export function staticFile(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  const file = context.staticFiles.get(x.url.pathname);
  if (!file || (x.method !== "GET" && x.method !== "HEAD")) return undefined;
  allowCors(x.req, x.res);
  const pending = file.pending?.();
  if (pending !== undefined) {
    x.res.writeHead(200, { "content-type": "text/html; charset=utf-8", refresh: "2" });
    x.res.end(x.method === "HEAD" ? undefined : `<!doctype html><title>Building</title><p>${pending}</p>`);
    return ANSWERED;
  }
  // Only a static file's request waits (to read and compress it): an API request goes on without a promise.
  return serveStatic(x.req, x.res, file).then((served) => (served ? ANSWERED : { status: 404, code: "not_found", message: `${x.url.pathname} has not been built; run npm run build.` }));
}
