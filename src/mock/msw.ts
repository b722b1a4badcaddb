// `@svc/health-api-contract/mock/msw`: the package's mock as Mock Service Worker handlers, for tests in Node
// (`setupServer`), Storybook and the browser (`setupWorker`): every request to the mock's base address is answered by
// createMock, with its validation, branches, Prefer, state, journal and conditions. `msw` (2.x) is the caller's.
import { http, HttpResponse, type HttpHandler } from "msw";
import { createMock } from "./index.ts";
import type { Mock, MockOptions } from "./public-types.ts";

export type { Conditions, JournalEntry, JournalQuery, Mock, MockOptions } from "./public-types.ts";

export interface MockHandlers {
  /** Give these to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  handlers: HttpHandler[];
  /** The mock behind them: its `url` is the client's `baseUrl`, its `journal` what the application sent. */
  mock: Mock;
}

/**
 * MSW handlers answering every request under the mock's base address (`options.baseUrl`, by default
 * `http://svc-mock.invalid`) from the contract; a connection the conditions drop is MSW's network error.
 */
export function createMockHandlers(options: MockOptions = {}): MockHandlers {
  const mock = createMock(options);
  const handler = http.all(`${mock.url}/*`, async ({ request }) => {
    try {
      return await mock.fetch(request);
    } catch {
      return HttpResponse.error();
    }
  });
  return { handlers: [handler], mock };
}
