// `@svc/health-api-contract/mock/msw` as `require` loads it (built into generated/mock/msw.cjs): msw, an optional
// peer, required only when it is installed, so the entry loads without it and createMockHandlers names the install line.
import { handlersFrom, isMissingMsw, type MockHandlers, type MswApi } from "./msw-handlers.ts";
import type { MockOptions } from "./public-types.ts";

export type { MockHandlers } from "./msw-handlers.ts";
export type { Conditions, JournalEntry, JournalQuery, Mock, MockOptions } from "./public-types.ts";

let msw: MswApi | undefined;
try {
  msw = require("msw") as MswApi;
} catch (error) {
  if (!isMissingMsw(error)) throw error;
}

/** MSW handlers answering every request under the mock's base address from the contract. */
export function createMockHandlers(options: MockOptions = {}): MockHandlers {
  return handlersFrom(msw, options);
}
