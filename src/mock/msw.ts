// `@svc/health-api-contract/mock/msw` as Node's `import` loads it: msw, an optional peer, imported only when it is
// installed, so the entry loads without it and createMockHandlers then names the install line. (Bundlers get
// msw-browser.ts instead: a top-level await breaks the default targets of some, such as Vite's.)
import { handlersFrom, isMissingMsw, type MockHandlers, type MswApi } from "./msw-handlers.ts";
import type { MockOptions } from "./public-types.ts";

export type { MockHandlers } from "./msw-handlers.ts";
// Every type of `./mock`, so that a user of either entry finds the same names (test/exports.test.ts compares them).
export type * from "./public-types.ts";

const msw: MswApi | undefined = await import("msw").catch((error: unknown) => {
  if (isMissingMsw(error)) return undefined;
  throw error;
});

/**
 * MSW handlers answering every request under the mock's base address (`options.baseUrl`, by default
 * `http://svc-mock.invalid`) from the contract; a connection the conditions drop is MSW's network error.
 */
export function createMockHandlers(options: MockOptions = {}): MockHandlers {
  return handlersFrom(msw, options);
}
