// The mock in the caller's own process, with no port: createMock's engine, given the contract to answer for. The
// package's entry (index.ts) gives it the contract the package ships; the MSW adapter (msw.ts) wraps its fetch.
import type { JsonObject } from "../contract/json.ts";
import { detailsLine } from "../contract/error-details.ts";
import { fetchHandler } from "./fetch-handler.ts";
import { createPipeline } from "./pipeline.ts";
import type { JournalQuery, Mock, MockOptions, MockSeedData, MockStateView } from "./public-types.ts";
import { MOCK_PATHS } from "../shared/mock-paths.ts";
import { checkMockOptions } from "./option-checks.ts";

export const DEFAULT_MOCK_URL = "http://svc-mock.invalid";

/** Whether a URL is at or below the mock's base address (its origin, and its path, `prefix`, ending at a segment). */
function isUnder(address: string, base: URL, prefix: string): boolean {
  const target = new URL(address);
  // With no path of its own (prefix ""), every path of the origin starts with "/".
  return target.origin === base.origin && (target.pathname === prefix || target.pathname.startsWith(`${prefix}/`));
}

/** The request with the base address's path taken off its URL (`/api/v2/user` → `/v2/user`), the rest as it was. */
function atContractPath(request: Request, prefix: string): Request {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length) || "/";
  return new Request(url, request);
}

const epoch = (at: Date | number | undefined) => (at instanceof Date ? at.getTime() : at);

export function createMockWith(document: JsonObject, options: MockOptions = {}): Mock {
  checkMockOptions("createMock", options);
  const url = (options.baseUrl ?? DEFAULT_MOCK_URL).replace(/\/+$/, "");
  const base = new URL(url);
  /** The base address's path, to which a path given alone is appended. */
  const prefix = base.pathname.replace(/\/$/, "");
  const stateful = options.stateful === true || options.data !== undefined || options.strictKeys === true;
  const pipeline = createPipeline({
    document,
    log: options.log ?? (() => {}),
    ...(stateful
      ? { stateful: { ...(options.data === undefined ? {} : { data: options.data }), ...(options.strictKeys === true ? { strictKeys: true } : {}) } }
      : {}),
    conditions: options.conditions,
    journalSize: options.journalSize,
  });
  const handle = fetchHandler(pipeline);
  /** A request to the mock's own paths, its JSON answer read; a refusal thrown with the mock's words and each field. */
  async function control<T>(where: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
    if (closed) throw new TypeError(`${where}: the mock was closed`);
    const request = new Request(new URL(path, base.origin), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const response = await handle(request);
    const answer = (await response.json()) as { message?: string; details?: { field: string; message: string }[] };
    if (response.ok) return answer as T;
    const details = detailsLine(answer.details ?? []);
    throw new Error(`${where}: ${answer.message ?? `answered ${response.status}`}${details === "" ? "" : ` (${details})`}`);
  }
  let closed = false;
  const { journal } = pipeline.context;
  return {
    url,
    fetch(input, init) {
      if (closed) return Promise.reject(new TypeError("fetch failed", { cause: new Error("the mock was closed") }));
      // A path or a URL as the global fetch takes it, relative ones against the mock's address.
      const request =
        input instanceof Request && init === undefined
          ? input
          : new Request(typeof input === "string" && input.startsWith("/") ? new URL(`${prefix}${input}`, base) : input, init);
      // Another address is a mistake that MSW, or the service, would not forgive (a client's baseUrl left at a port):
      // answering it here would let a test pass that fails everywhere else.
      if (!isUnder(request.url, base, prefix)) {
        return Promise.reject(
          new TypeError(`mock.fetch: ${request.url} is not under this mock's url ${url}: give the client baseUrl: mock.url, or pass a path such as /v2/user`),
        );
      }
      // The pipeline routes the contract's paths: a base address with a path of its own (http://host/api) is taken off.
      return handle(prefix === "" ? request : atContractPath(request, prefix));
    },
    journal(query: JournalQuery = {}) {
      if (journal === undefined) return [];
      return journal.entries({
        team: query.credential,
        operationId: query.operationId,
        status: query.status === undefined ? undefined : String(query.status).toLowerCase(),
        since: epoch(query.since),
        until: epoch(query.until),
        limit: query.limit,
      });
    },
    clearJournal(credential) {
      journal?.clear(credential);
    },
    team(apiKey) {
      if (typeof apiKey !== "string" || apiKey === "") throw new TypeError("mock.team: give the team's API key (the x-svc-api-key its requests carry)");
      const headers = { "x-svc-api-key": apiKey, "content-type": "application/json" };
      return {
        state: () => control<MockStateView>("mock.team(…).state", "GET", MOCK_PATHS.state, headers),
        set: (change) => control<MockStateView>("mock.team(…).set", "PATCH", MOCK_PATHS.state, headers, change),
        reset: () => control<unknown>("mock.team(…).reset", "DELETE", MOCK_PATHS.state, headers).then(() => undefined),
      };
    },
    exportData: () => control<MockSeedData>("mock.exportData", "GET", MOCK_PATHS.data, {}),
    reset: () => control<unknown>("mock.reset", "DELETE", MOCK_PATHS.state, {}).then(() => undefined),
    async close() {
      closed = true;
    },
  };
}
