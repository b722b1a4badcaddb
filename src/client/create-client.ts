// makeClient: a typed client of one entry's operation table, each operation sent its credential, answers typed by status,
// retries, timeouts and paging; one call path shared by every method. Each entry's factory calls it. It ships in every
// application that calls the service, so it is written to stay small.
import { removeTrailingSlash } from "openapi-fetch";
import { answer, type LooseAnswer } from "./outcome.js";
import { MAX_RESPONSE_BYTES } from "./body.js";
import { check, MissingCredentialError, named, type OperationRef } from "./errors.js";
import { buildRequest, type RequestParts } from "./request.js";
import { retryPolicy } from "./retry.js";
import { deadlineFor, send, type Sending } from "./transport.js";
import type { ClientSettings, OperationRow, OperationTable } from "./types.js";

type Credentials = Record<string, string | undefined>;

/** A call's init as the implementation sees it; the public types are stricter. */
interface LooseInit extends RequestParts {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  maxResponseBytes?: number;
  retry?: ClientSettings["retry"];
}

/** A route of the table as a client resolved it: its row, and the operation as errors name it. */
interface Route {
  row: OperationRow;
  operation: OperationRef;
}

/** `timeoutMs` (0: none) and `maxResponseBytes` (0: the default), in the message form retry's settings use. */
function checkLimits(where: string, limits: Record<string, unknown>): void {
  for (const name of ["timeoutMs", "maxResponseBytes"]) {
    const value = limits[name];
    check(where, name, value === undefined || (Number.isFinite(value) && (value as number) >= 0), "a finite number >= 0", value);
  }
}

function checkCredentials(where: string, table: OperationTable, given: Credentials): void {
  for (const option in table.credentials) check(where, option, given[option] === undefined || typeof given[option] === "string", "a string", given[option]);
}

/**
 * A typed client of one entry's table. Each operation is sent the credential its row names; one that lacks it fails
 * before sending. `where` names the factory in the errors about its options.
 */
export function makeClient(where: string, table: OperationTable, options: ClientSettings): unknown {
  const baseUrl = (options as Partial<ClientSettings> | undefined)?.baseUrl;
  let protocol: string | undefined;
  try {
    protocol = new URL(baseUrl!).protocol;
  } catch {}
  check(
    where,
    "baseUrl",
    typeof baseUrl === "string" && /^https?:$/.test(protocol!),
    "the service's absolute http(s) address, such as https://api.svc.example",
    JSON.stringify(baseUrl),
  );
  checkLimits(where, options as unknown as Record<string, unknown>);
  check(where, "fetch", options.fetch === undefined || typeof options.fetch === "function", "a function", options.fetch);
  checkCredentials(where, table, options as unknown as Credentials);
  const held: Credentials = {};
  for (const option in table.credentials) held[option] = (options as unknown as Credentials)[option];
  // A copy, so that changing the options object later changes nothing; the base address as openapi-fetch's client keeps it.
  return clientOf(where, table, { ...options, baseUrl: removeTrailingSlash(baseUrl!) }, held);
}

/** The file that words the rest of an unknown path's refusal (loaded with `import()`; `require()` in the CommonJS core). */
type UnknownRouteHint = typeof import("./unknown-route.js");

/**
 * The hint's file, loaded now, or undefined in a production build: a bundler that defines `process.env.NODE_ENV` as
 * "production" (Vite's and webpack's production builds, a minified esbuild build for the browser) drops this `import()`,
 * and with it the hint's chunk and the code a bundler adds to load one (Vite's preload helper, some 700 bytes gzip at
 * start). Without a bundler, in a browser, `process` is not defined: no hint either.
 */
function loadHint(): Promise<UnknownRouteHint> | undefined {
  try {
    if (process.env.NODE_ENV !== "production") return import("./unknown-route.js");
  } catch {}
  return undefined;
}

/**
 * The refusal of a method and path the table does not have, a TypeError made now so that its stack is the caller's.
 * What the message says after it (the nearest path, or the entry that holds the path) comes from a file loaded only
 * now, which no application needs until it makes this mistake; the refusal stands without it if that file is left out
 * of a production build or cannot load.
 */
function unknownRoute(where: string, table: OperationTable, method: string, path: string): Promise<never> {
  const error = new TypeError(`${method} ${path} is not an operation of ${where}`);
  return (loadHint() ?? Promise.reject())
    .then(
      (hint) => {
        error.message += hint.unknownRoute(where, method, path, Object.keys(table.operations));
      },
      () => {},
    )
    .then(() => Promise.reject(error));
}

function clientOf(where: string, table: OperationTable, settings: ClientSettings, held: Credentials): unknown {
  /** Each route's row and the operation as errors name it, looked up once per client; undefined for one the table lacks. */
  // Keyed by method, then by the path as given: the literal's hash is cached, a joined key's would be computed per call.
  // Without a prototype: a method named `constructor` is one the table does not have, not Object's function.
  const routes: Record<string, Map<string, Route>> = Object.create(null);
  function route(method: string, path: string): Route | undefined {
    const byPath = (routes[method] ??= new Map());
    let found = byPath.get(path);
    if (found === undefined) {
      const row = table.operations[`${method} ${path}`];
      if (row === undefined) return undefined;
      byPath.set(path, (found = { row, operation: { method, path, operationId: row[0] } }));
    }
    return found;
  }

  /** A call's answer; every failure, even one found before sending, comes back as a rejected promise. */
  function call(method: string, path: string, init: LooseInit = {}, throwOnError = settings.throwOnError === true): Promise<LooseAnswer> {
    let deadline: ReturnType<typeof deadlineFor>;
    try {
      const found = route(method, path);
      if (found === undefined) return unknownRoute(where, table, method, path);
      const { row, operation } = found;
      const [, option, statuses] = row;
      const { signal, headers } = init;
      // The credential's header and those that stand in for it on a call; none for an operation that takes none.
      const accepted = option === null ? undefined : table.credentials[option]!;
      const credential = accepted && held[option!] ? { [accepted[0]!]: held[option!] } : undefined;
      if (accepted && !credential && !(headers && Object.keys(headers).some((name) => accepted.includes(name.toLowerCase())))) {
        throw new MissingCredentialError(operation, option!, accepted[0]!);
      }
      if (init.timeoutMs !== undefined || init.maxResponseBytes !== undefined) checkLimits(named(operation), init as Record<string, unknown>);
      const sending: Sending = {
        operation,
        timeoutMs: init.timeoutMs ?? settings.timeoutMs ?? 0,
        maxBytes: init.maxResponseBytes || settings.maxResponseBytes || MAX_RESPONSE_BYTES,
        policy: retryPolicy(method, init.retry ?? settings.retry),
        caller: signal,
      };
      deadline = deadlineFor(sending.timeoutMs, signal, operation);
      // Built before anything is sent: a request that cannot be built is the caller's own error, not a connection's.
      const request = buildRequest(settings.baseUrl, method, path, init, [settings.headers, credential, headers], deadline?.signal ?? signal);
      // The global fetch is read at each call, so one patched after the client was made is used.
      return send(settings.fetch ?? globalThis.fetch, request, sending, deadline).then(([response, text]) =>
        answer(operation, statuses.includes(response.status) || table.statuses.includes(response.status), response, text, throwOnError),
      );
    } catch (error) {
      deadline?.clear();
      return Promise.reject(error);
    }
  }

  async function* paginate(method: string, path: string, init: LooseInit = {}): AsyncGenerator<unknown> {
    const found = route(method, path);
    if (found === undefined) return await unknownRoute(where, table, method, path);
    const paging = found.row[3];
    if (paging === undefined) throw new TypeError(`${method} ${path} is not a paged operation of the contract`);
    const [items, sizeDefault, sizeMax] = paging;
    const query = init.params?.query ?? {};
    const size = (query.size ?? sizeDefault) as number;
    let page = (query.page ?? 1) as number;
    check("paginate", "size", Number.isInteger(size) && size >= 1 && size <= sizeMax, `an integer from 1 to ${sizeMax}`, size, RangeError);
    check("paginate", "page", Number.isInteger(page) && page >= 1, "an integer >= 1", page, RangeError);
    for (;;) {
      const data = (await call(method, path, { ...init, params: { ...init.params, query: { ...query, page, size } } }, true)).data as Record<string, unknown>;
      const list = data[items] as unknown[];
      yield* list;
      const pages = data.pages as number | null | undefined;
      if (list.length === 0 || (pages == null ? list.length < size : page >= pages)) return;
      page++;
    }
  }

  const client: Record<string, unknown> = {
    paginate,
    withCredentials(more: Credentials) {
      checkCredentials("withCredentials", table, more);
      return clientOf(where, table, settings, { ...held, ...more });
    },
  };
  // Every method, whether or not this entry's operations use it, so a call of another entry's operation says where it belongs.
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) client[method] = (path: string, init?: LooseInit) => call(method, path, init);
  return client;
}
