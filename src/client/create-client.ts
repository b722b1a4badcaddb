// createClient: openapi-fetch with each operation's credential checked and set, answers typed by status, retries,
// timeouts and paging; one call path shared by every method.
import * as openapiFetch from "openapi-fetch";
import { credentials, operations } from "../../generated/operations.js";
import { ApiError, MissingCredentialError, type OperationRef } from "./errors.js";
import { retryPolicy } from "./retry.js";
import { CALL_STATE, deadlineFor, sentFailure, transport, type CallState, type Fetch } from "./transport.js";
import type { ClientOptions, CredentialOption, Credentials, GivenCredentials, SvcClient } from "./types.js";

// Node's CommonJS interop hands openapi-fetch's whole exports object to a default import; the function is its `default`.
const createFetchClient: typeof openapiFetch.default =
  typeof openapiFetch.default === "function" ? openapiFetch.default : (openapiFetch.default as unknown as { default: typeof openapiFetch.default }).default;

interface OperationRow {
  operationId: string;
  credential?: CredentialOption;
  /** Headers that stand in for the credential when set on a call (the deprecated org key of the management API). */
  alsoAccepted?: readonly string[];
  statuses: readonly number[];
  paging?: { items: string; sizeDefault: number; sizeMax: number };
}

/** A call's init as the implementation sees it; the public types are stricter. */
interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  retry?: ClientOptions["retry"];
}

interface LooseOutcome {
  ok: boolean;
  status: number;
  data?: unknown;
  error?: unknown;
  response: Response;
}

function checkTimeout(where: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || value < 0)) {
    throw new TypeError(`${where}: timeoutMs must be a finite number of milliseconds >= 0 (0 waits for ever), not ${String(value)}`);
  }
}

function checkOptions(options: ClientOptions): void {
  const baseUrl = (options as Partial<ClientOptions> | undefined)?.baseUrl;
  let url: URL | undefined;
  try {
    url = typeof baseUrl === "string" ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || !/^https?:$/.test(url.protocol)) {
    throw new TypeError(
      `createClient: baseUrl must be the service's absolute http(s) address, such as https://api.svc.example or the mock's http://127.0.0.1:4010; got ${JSON.stringify(baseUrl)}`,
    );
  }
  checkTimeout("createClient", options.timeoutMs);
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new TypeError("createClient: fetch must be a function");
  checkCredentials("createClient", options);
}

function checkCredentials(where: string, given: Credentials): void {
  for (const option of Object.keys(credentials) as CredentialOption[]) {
    const value = given[option];
    if (value !== undefined && typeof value !== "string") throw new TypeError(`${where}: ${option} must be a string`);
  }
}

function hasHeader(headers: Record<string, string> | undefined, name: string): boolean {
  // Header names are case-insensitive, and the contract spells some with capitals (X-Management-Key).
  const wanted = name.toLowerCase();
  return headers !== undefined && Object.keys(headers).some((key) => key.toLowerCase() === wanted);
}

function malformed(operation: OperationRef, response: Response, body: unknown): ApiError {
  return new ApiError({
    status: response.status,
    body,
    operation,
    response,
    message: `${operation.method} ${operation.path} answered ${response.status} without the JSON body the contract declares for it`,
  });
}

/** The typed outcome of an answer, or the ApiError it throws: always for a declared status without its JSON body, and for any failure when asked to. */
function outcome(operation: OperationRef, row: OperationRow, answer: { data?: unknown; error?: unknown; response: Response }, throwOnError: boolean): LooseOutcome {
  const { response } = answer;
  const { status } = response;
  const declared = row.statuses.includes(status);
  let body = response.ok ? answer.data : answer.error;
  // Success bodies arrive as text (parseAs "text"), so a body that is not JSON is caught here, not thrown by openapi-fetch.
  if (response.ok && typeof body === "string") {
    try {
      body = body === "" ? undefined : JSON.parse(body);
    } catch {
      if (declared) throw malformed(operation, response, body);
    }
  } else if (declared && typeof body === "string") {
    throw malformed(operation, response, body);
  }
  if (declared && body === undefined) throw malformed(operation, response, body);
  // openapi-fetch gives an empty body as undefined when it came with Content-Length: 0 and as "" otherwise (chunked):
  // an undeclared answer's error is its body as it came, so an empty one is "" however it was framed.
  if (!declared && body === undefined) body = "";
  const ok = declared && status >= 200 && status < 300;
  if (!ok && throwOnError) throw new ApiError({ status, body, operation, response });
  return ok ? { ok, status, data: body, response } : { ok, status, error: body, response };
}

interface Settings {
  baseUrl: string;
  fetch: Fetch | undefined;
  timeoutMs: number;
  retry: ClientOptions["retry"];
  throwOnError: boolean;
  headers: Record<string, string> | undefined;
}

function makeClient(settings: Settings, held: Credentials): SvcClient<CredentialOption, boolean> {
  // The global fetch is read at each call, so one patched after the client was made is used.
  const sent = { count: 0 };
  const send = transport(() => settings.fetch ?? globalThis.fetch, sent);
  // One openapi-fetch client per credential, its header among the client's own headers: merging it per call cost more
  // than the whole rest of the layer. A header the caller sets on the call still wins, as openapi-fetch merges it last.
  const bare = createFetchClient({ baseUrl: settings.baseUrl, headers: settings.headers, fetch: send });
  const withCredential = new Map<CredentialOption, typeof bare>();
  function coreFor(credential: CredentialOption): typeof bare {
    let core = withCredential.get(credential);
    if (core === undefined) {
      const headers = { ...settings.headers, [credentials[credential].header]: held[credential]! };
      withCredential.set(credential, (core = createFetchClient({ baseUrl: settings.baseUrl, headers, fetch: send })));
    }
    return core;
  }
  const table = operations as Record<string, OperationRow>;

  interface Route {
    row: OperationRow;
    operation: OperationRef;
    /** Whether this client holds the credential the route takes (or the route takes none). */
    credentialHeld: boolean;
  }
  /** Each route's table row, the operation as errors name it, and its credential header, looked up once per client. */
  // Keyed by method, then by the path as given: the literal's hash is cached, a joined key's would be computed per call.
  const routes = new Map<string, Map<string, Route>>();
  function route(method: string, path: string): Route {
    let byPath = routes.get(method);
    if (byPath === undefined) routes.set(method, (byPath = new Map()));
    let found = byPath.get(path);
    if (found === undefined) {
      const key = `${method} ${path}`;
      const row = table[key];
      if (row === undefined) throw new TypeError(`${key} is not an operation of the contract`);
      const credentialHeld = row.credential === undefined || Boolean(held[row.credential]);
      found = { row, operation: { method, path, operationId: row.operationId }, credentialHeld };
      byPath.set(path, found);
    }
    return found;
  }

  /** A call's answer; every failure, even one found before sending, comes back as a rejected promise. */
  function call(method: string, path: string, init: LooseInit = {}, throwOnError = settings.throwOnError): Promise<LooseOutcome> {
    try {
      return start(method, path, init, throwOnError);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function start(method: string, path: string, init: LooseInit, throwOnError: boolean): Promise<LooseOutcome> {
    const { row, operation, credentialHeld } = route(method, path);
    const { signal, headers } = init;
    let core = bare;
    if (row.credential !== undefined) {
      if (credentialHeld) core = coreFor(row.credential);
      else if (!hasHeader(headers, credentials[row.credential].header) && !row.alsoAccepted?.some((header) => hasHeader(headers, header))) {
        throw new MissingCredentialError(operation, row.credential, credentials[row.credential].header);
      }
    }
    if (init.timeoutMs !== undefined) checkTimeout(`${method} ${path}`, init.timeoutMs);
    const timeoutMs = init.timeoutMs ?? settings.timeoutMs;
    const retry = init.retry ?? settings.retry;
    const policy = retry ? retryPolicy(method, retry) : undefined;
    // Only a call with a timeout, a signal or retries carries state to the transport; the plain call, the common one, carries none.
    const state: CallState | undefined =
      timeoutMs > 0 || signal !== undefined || policy !== undefined
        ? { operation, policy, timeoutMs, caller: signal, deadline: deadlineFor(timeoutMs, signal, operation) }
        : undefined;
    const before = sent.count;
    // openapi-fetch's GET, POST, PUT, PATCH and DELETE rather than request(method, ...), which upper-cases the method and spreads the init once more.
    const pending = (core as unknown as Record<string, (path: string, init: unknown) => Promise<unknown>>)[method]!(path, {
      params: init.params,
      body: init.body,
      headers,
      parseAs: "text",
      ...(state && { signal: state.deadline?.signal ?? signal, [CALL_STATE]: state }),
    });
    // openapi-fetch builds the request and hands it to fetch before its first await (this client adds no middleware),
    // so whether the transport ran is known now: a failure after that is the connection's, before it the caller's input.
    const reachedFetch = sent.count !== before;
    // Promise handlers rather than an async frame: this is every call's path, and the frame showed in the bench.
    return pending.then(
      (answer) => {
        state?.deadline?.clear();
        return outcome(operation, row, answer as { data?: unknown; error?: unknown; response: Response }, throwOnError);
      },
      (error: unknown) => {
        state?.deadline?.clear();
        throw reachedFetch ? sentFailure(error, operation, state) : error;
      },
    );
  }

  async function* paginate(method: string, path: string, init: LooseInit = {}): AsyncGenerator<unknown> {
    const { paging } = route(method, path).row;
    if (paging === undefined) throw new TypeError(`${method} ${path} is not a paged operation of the contract`);
    const query = init.params?.query ?? {};
    const size = query.size ?? paging.sizeDefault;
    let page = query.page ?? 1;
    if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > paging.sizeMax) {
      throw new RangeError(`paginate: size must be an integer from 1 to ${paging.sizeMax}, not ${String(size)}`);
    }
    if (!Number.isInteger(page) || (page as number) < 1) throw new RangeError(`paginate: page must be an integer >= 1, not ${String(page)}`);
    for (;;) {
      const answer = await call(method, path, { ...init, params: { ...init.params, query: { ...query, page, size } } }, true);
      const data = answer.data as Record<string, unknown>;
      const items = data[paging.items] as unknown[];
      yield* items;
      const pages = data.pages as number | null;
      const last = pages === null || pages === undefined ? items.length < (size as number) : (page as number) >= pages;
      if (last || items.length === 0) return;
      page = (page as number) + 1;
    }
  }

  return {
    GET: (path: string, init?: LooseInit) => call("GET", path, init),
    POST: (path: string, init?: LooseInit) => call("POST", path, init),
    // The management API updates with PUT and PATCH and deletes with DELETE.
    PUT: (path: string, init?: LooseInit) => call("PUT", path, init),
    PATCH: (path: string, init?: LooseInit) => call("PATCH", path, init),
    DELETE: (path: string, init?: LooseInit) => call("DELETE", path, init),
    paginate,
    withCredentials(more: Credentials) {
      checkCredentials("withCredentials", more);
      return makeClient(settings, { ...held, ...more });
    },
  } as unknown as SvcClient<CredentialOption, boolean>;
}

/**
 * A typed client of the whole contract. Each operation is sent the credential its contract names (`apiKey` as
 * x-svc-api-key, `linkToken` as x-svc-link-token); one that lacks it fails before sending, and, where the types can
 * tell (an option left out), does not compile.
 */
export function createClient<const O extends ClientOptions>(
  options: O,
): SvcClient<GivenCredentials<O>, O extends { throwOnError: true } ? true : false> {
  checkOptions(options);
  const { baseUrl, fetch, timeoutMs, retry, throwOnError, headers, ...given } = options;
  const held: Credentials = {};
  for (const option of Object.keys(credentials) as CredentialOption[]) held[option] = given[option];
  return makeClient(
    { baseUrl, fetch, timeoutMs: timeoutMs ?? 0, retry, throwOnError: throwOnError === true, headers },
    held,
  ) as unknown as SvcClient<GivenCredentials<O>, O extends { throwOnError: true } ? true : false>;
}
