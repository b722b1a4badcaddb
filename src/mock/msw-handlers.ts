// The package's mock as Mock Service Worker handlers, given msw itself: every request to the mock's base address is
// answered by createMock, with its validation, branches, Prefer, state, journal and conditions. msw (2.x) is the
// caller's, an optional peer: each form of the `./mock/msw` entry loads it its own way (msw.ts for Node's import,
// msw-require.ts for require, msw-browser.ts for bundlers) and hands it here, undefined when it is not installed.
import type { HttpHandler } from "msw";
import { createMock } from "./index.ts";
import type { Mock, MockOptions } from "./public-types.ts";

/** What the handlers need of msw. */
export type MswApi = Pick<typeof import("msw"), "http" | "HttpResponse">;

/** The release range the package is tested with: its peer dependency on msw (the consumer test holds package.json to it). */
export const MSW_PEER_RANGE = "^2.15.0";

export const MSW_MISSING: string = `createMockHandlers needs msw, an optional peer dependency of @svc/health-api-contract: npm install --save-dev msw@${MSW_PEER_RANGE} (createMock, from @svc/health-api-contract/mock, needs nothing)`;

export interface MockHandlers {
  /** Give these to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  handlers: HttpHandler[];
  /** The mock behind them: its `url` is the client's `baseUrl`, its `journal` what the application sent. */
  mock: Mock;
}

/** Whether loading msw failed because it is not installed (anything else, such as a broken install, is thrown on). */
export function isMissingMsw(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && typeof message === "string" && /['"]msw['"]/.test(message);
}

/** MSW handlers answering every request under the mock's base address; a connection the conditions drop is MSW's network error. */
export function handlersFrom(msw: MswApi | undefined, options: MockOptions): MockHandlers {
  if (msw === undefined) throw new Error(MSW_MISSING);
  let mock: Mock;
  try {
    mock = createMock(options);
  } catch (error) {
    // createMock checks the options (and the MSW entries share its built copy rather than bundling the checks again):
    // the caller called createMockHandlers, so its name leads the message.
    if (error instanceof TypeError && error.message.startsWith("createMock: ")) throw new TypeError(`createMockHandlers: ${error.message.slice(12)}`);
    throw error;
  }
  const handler = msw.http.all(`${mock.url}/*`, async ({ request }) => {
    try {
      return await mock.fetch(request);
    } catch {
      return msw.HttpResponse.error();
    }
  });
  return { handlers: [handler], mock };
}
