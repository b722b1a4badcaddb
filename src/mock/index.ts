// `@svc/health-api-contract/mock`: the package's mock in the caller's process (a test, Storybook, a browser), on the
// contract the package ships: createMock answers the client's fetch with no port and no network.
import contract from "../../generated/openapi.json" with { type: "json" };
import { createMockWith } from "./create-mock.ts";
import type { Mock, MockOptions } from "./public-types.ts";

// Every type a user of the mock meets; `./mock/msw` exports the same (test/exports.test.ts compares them).
export type * from "./public-types.ts";

/** A mock of the service in this process: `createClient({ baseUrl: mock.url, fetch: mock.fetch })`. */
export function createMock(options: MockOptions = {}): Mock {
  return createMockWith(contract as Record<string, unknown>, options);
}
