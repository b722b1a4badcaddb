// `@svc/health-api-contract/mock/msw` as bundlers load it (the `browser` condition; built into
// generated/mock/msw.browser.js): msw imported as any module is, since an application bundling the entry has it.
import * as msw from "msw";
import { handlersFrom, type MockHandlers } from "./msw-handlers.ts";
import type { MockOptions } from "./public-types.ts";

export type { MockHandlers } from "./msw-handlers.ts";
// Every type of `./mock`, so that a user of either entry finds the same names (test/exports.test.ts compares them).
export type * from "./public-types.ts";

/** MSW handlers answering every request under the mock's base address from the contract. */
export function createMockHandlers(options: MockOptions = {}): MockHandlers {
  return handlersFrom(msw, options);
}
