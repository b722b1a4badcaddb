// Asks Prism to invent an answer for `Prefer: dynamic=true`, and returns it only when it keeps the contract: Prism
// ignores keywords such as `pattern`, so it is asked a few times, then the caller's declared example stands in.
import type http from "node:http";
import { canonicalPath, type RouteMatch } from "../contract/router.ts";
import type { ContractValidator } from "../contract/validator.ts";
import type { Choice } from "./answers.ts";
import { FORWARDED_HEADERS } from "./http.ts";

const UPSTREAM_TIMEOUT_MS = 15_000;
/** How many answers Prism may invent for one dynamic request before the declared example stands in. */
const DYNAMIC_ATTEMPTS = 3;
/** Says that a dynamic answer was asked for and the declared example was sent instead, and why. */
export const DYNAMIC_FALLBACK = "x-svc-mock-dynamic-fallback";

export type DynamicOutcome = { answer: { status: number; body: Buffer } } | { answer?: undefined; why: string };

export interface DynamicRequest {
  req: http.IncomingMessage;
  match: RouteMatch;
  url: URL;
  method: string;
  body: string;
  choice: Choice;
}

export async function dynamicAnswer(
  prism: (() => Promise<string>) | undefined,
  validator: ContractValidator,
  { req, match, url, method, body, choice }: DynamicRequest,
  log: (line: string) => void,
): Promise<DynamicOutcome> {
  if (prism === undefined) return { why: "Prism is not installed beside this mock (install @stoplight/prism-cli for dynamic answers)" };
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  let why = "";
  for (let attempt = 1; attempt <= DYNAMIC_ATTEMPTS; attempt++) {
    let upstream: Response;
    let text: string;
    try {
      upstream = await fetch(`${await prism()}${canonicalPath(match)}${url.search}`, {
        method,
        headers,
        body: body === "" || match.operation.operation.requestBody === undefined ? undefined : body,
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
      text = await upstream.text();
    } catch (error) {
      log(`dynamic ${match.operation.operationId}: Prism did not answer: ${(error as Error).message}`);
      return { why: "Prism did not answer" };
    }
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    const violations =
      choice.code !== undefined && upstream.status !== choice.code
        ? [{ field: "", message: `status ${upstream.status}, not the ${choice.code} asked for` }]
        : validator.validateResponse(match.operation, upstream.status, parsed);
    if (violations.length === 0) return { answer: { status: upstream.status, body: Buffer.from(text) } };
    why = `Prism's answers broke the contract (${upstream.status}: ${violations.map((v) => `${v.field || "/"} ${v.message}`).join("; ")})`.slice(0, 300);
    log(`dynamic ${match.operation.operationId}, attempt ${attempt}: ${why}`);
  }
  return { why };
}
