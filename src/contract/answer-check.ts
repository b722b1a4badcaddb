// An answer against what its operation declares for the status: declared at all, its content type, its body (read as
// JSON and validated) and the headers the status requires. verify judges each answer with it; the mock's validating
// proxy checks each answer of the real server it forwards to.
import { isObject, readJson, type JsonObject } from "./json.ts";
import type { ContractOperation } from "./operations.ts";
import { detailLine } from "./error-details.ts";
import { isJsonContentType, type ContractValidator } from "./validator.ts";

/** An answer as both callers hold it: the status, its headers (a fetch `Headers`, or anything that reads alike) and its text. */
export interface CheckedAnswer {
  status: number;
  headers: { get(name: string): string | null; has(name: string): boolean };
  text: string;
  /** The text already read as JSON (undefined: empty, or not JSON), so a large body is not parsed twice. */
  json?: { value: unknown } | undefined;
}

/** What the operation declares for a status: its own response, or its `default`. */
function declaredResponse(op: ContractOperation, status: number): JsonObject | undefined {
  return op.responses[String(status)] ?? op.responses.default;
}

/** The statuses the operation declares when it does not declare this one (nor a `default`); undefined when it does. */
export function undeclaredStatus(op: ContractOperation, status: number): string[] | undefined {
  const declared = Object.keys(op.responses);
  return declared.includes(String(status)) || declared.includes("default") ? undefined : declared;
}

/** The headers the response for `status` declares required (a 429's Retry-After) that the answer lacks. */
function missingHeaders(op: ContractOperation, status: number, headers: CheckedAnswer["headers"], where: string): string[] {
  const declared = declaredResponse(op, status);
  const required = Object.entries((declared?.headers ?? {}) as JsonObject).filter(([, header]) => isObject(header) && header.required === true);
  return required.filter(([name]) => !headers.has(name)).map(([name]) => `${where}: the ${name} header it declares required is missing`);
}

/**
 * What is wrong with an answer of a declared status, each problem prefixed by `where`: the content type, a body that is
 * not JSON (described by `unreadable`, which decides what of it may be said), each invalid field, each required
 * header missing; with the parsed body, when there was one.
 */
export function answerProblems(
  validator: ContractValidator,
  op: ContractOperation,
  answer: CheckedAnswer,
  where: string,
  unreadable: (answer: CheckedAnswer) => string,
): { body?: unknown; problems: string[] } {
  const { status } = answer;
  const declared = declaredResponse(op, status);
  const json = isObject(declared?.content) && isObject(declared.content["application/json"]);
  const problems: string[] = [];
  let body: unknown;
  if (!json) {
    // No JSON declared for this status: whatever came is judged by the validator (which refuses a body it does not declare).
    problems.push(...validator.validateResponse(op, status, answer.text === "" ? undefined : answer.text).map((detail) => `${where}: ${detail.message}`));
  } else {
    const contentType = answer.headers.get("content-type") ?? undefined;
    if (!isJsonContentType(contentType)) problems.push(`${where}: content-type ${contentType ?? "missing"}, not application/json`);
    const read = "json" in answer ? answer.json : readJson(answer.text);
    const parsed = read !== undefined;
    if (read !== undefined) body = read.value;
    else {
      // Not quoted: what the contract cannot read, the redaction cannot either.
      problems.push(`${where}: the body is not JSON (${answer.text === "" ? "empty" : unreadable(answer)})`);
    }
    if (parsed) for (const detail of validator.validateResponse(op, status, body)) problems.push(`${where}: ${detailLine(detail)}`);
  }
  problems.push(...missingHeaders(op, status, answer.headers, where));
  return body === undefined ? { problems } : { body, problems };
}
