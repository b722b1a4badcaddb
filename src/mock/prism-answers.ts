// Asks Prism to invent an answer for `Prefer: dynamic=true`, and returns it only when it keeps the contract: Prism
// ignores keywords such as `pattern`, so it is asked a few times, then the caller's declared example stands in.
import type { HeaderBag } from "./http-shapes.ts";
import { encodeText } from "./platform.ts";
import { canonicalPath, type RouteMatch } from "../contract/router.ts";
import { detailsLine, type ContractValidator } from "../contract/validator.ts";
import type { Choice } from "./static-answers.ts";

/** How many answers Prism may invent for one dynamic request before the declared example stands in. */
const DYNAMIC_ATTEMPTS = 3;
/** Says that a dynamic answer was asked for and the declared example was sent instead, and why. */
export const DYNAMIC_FALLBACK = "x-svc-mock-dynamic-fallback";
/** The fallback's reason when Prism could not be loaded or threw; the message, which may span lines, goes to the log. */
export const PRISM_FAILED = "Prism failed (the mock's log says why)";
/** The fallback's reason when the project did not install Prism. */
export const PRISM_NOT_INSTALLED = "Prism is not installed beside this mock (install @stoplight/prism-http for dynamic answers)";

/** What Prism is asked: the operation's canonical path (aliases resolved), and the caller's choice of status and example. */
export interface InventRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The request headers Prism reads (Accept chooses the media type); credentials too, as a forwarded request carried them. */
  headers: Record<string, string>;
  /** The parsed JSON body, when the operation takes one. */
  body: unknown;
  code?: number;
  example?: string;
}

/** What Prism answered, its own refusals included (they are judged like any other answer). */
export interface InventedAnswer {
  status: number;
  body: unknown;
}

/** Invents one answer; rejects when Prism cannot be loaded or fails, which ends the attempts. */
export type Inventor = (request: InventRequest) => Promise<InventedAnswer>;

export type DynamicOutcome = { answer: { status: number; body: Uint8Array } } | { answer?: undefined; why: string };

export interface DynamicRequest {
  requestHeaders: HeaderBag;
  match: RouteMatch;
  url: URL;
  method: string;
  /** The parsed body, as the pipeline read it. */
  body: unknown;
  choice: Choice;
  /** The request headers Prism is given: those an answer depends on. */
  headers: string[];
}

export async function dynamicAnswer(
  invent: Inventor | undefined,
  validator: ContractValidator,
  { requestHeaders, match, url, method, body, choice, headers: forwarded }: DynamicRequest,
  log: (line: string) => void,
): Promise<DynamicOutcome> {
  if (invent === undefined) return { why: PRISM_NOT_INSTALLED };
  const headers: Record<string, string> = {};
  for (const name of forwarded) {
    const value = requestHeaders[name];
    if (typeof value === "string") headers[name] = value;
  }
  const request: InventRequest = {
    method,
    path: canonicalPath(match),
    query: url.searchParams,
    headers,
    body: match.operation.operation.requestBody === undefined ? undefined : body,
    ...(choice.code === undefined ? {} : { code: choice.code }),
    ...(choice.example === undefined ? {} : { example: choice.example }),
  };
  let why = "";
  for (let attempt = 1; attempt <= DYNAMIC_ATTEMPTS; attempt++) {
    let invented: InventedAnswer;
    let text: string;
    let sent: unknown;
    try {
      invented = await invent(request);
      // What is validated is what would be sent: the JSON text, read back (a property Prism left undefined is not sent).
      text = invented.body === undefined ? "" : JSON.stringify(invented.body);
      sent = text === "" ? undefined : JSON.parse(text);
    } catch (error) {
      log(`dynamic ${match.operation.operationId}: Prism failed: ${(error as Error).stack ?? String(error)}`);
      return { why: PRISM_FAILED };
    }
    const violations =
      choice.code !== undefined && invented.status !== choice.code
        ? [{ field: "", message: `status ${invented.status}, not the ${choice.code} asked for` }]
        : validator.validateResponse(match.operation, invented.status, sent);
    if (violations.length === 0) return { answer: { status: invented.status, body: encodeText(text) } };
    why = `Prism's answers broke the contract (${invented.status}: ${detailsLine(violations)})`.slice(0, 300);
    log(`dynamic ${match.operation.operationId}, attempt ${attempt}: ${why}`);
  }
  return { why };
}
