// Judges one answer against what the contract declares for the operation: its status (declared, and the kind the
// check expects), its content type, body and required headers (contract/answer-check.ts), as a check's status and detail.
import type { ContractOperation } from "../contract/operations.ts";
import { isObject } from "../contract/json.ts";
import { answerProblems, undeclaredStatus } from "../contract/answer-check.ts";
import type { ContractValidator } from "../contract/validator.ts";
import type { Redactor } from "../contract/redact.ts";
import type { CheckStatus, Expectation } from "./check.ts";
import type { HttpAnswer } from "./sender.ts";

export type { Expectation };

/** Whether an answer refuses the request as not valid: what a request the contract accepts must never get. */
function refusesAsInvalid(status: number, body: unknown): boolean {
  return status === 422 || (status === 400 && isObject(body) && body.code === "invalid_request");
}

export interface Verdict {
  status: CheckStatus;
  detail?: string;
  /** The parsed JSON body, when there was one. */
  body?: unknown;
}

/**
 * `400 invalid_request: The request has 1 invalid part.`, from the error body if the answer has one: the server's free
 * text, cleared of what it sent in marked fields before it is cut (a cut value would no longer be a whole token).
 */
function errorSummary(body: unknown, redactor: Redactor): string {
  if (!isObject(body)) return "";
  const code = typeof body.code === "string" ? ` ${redactor.serverText(body.code)}` : "";
  const said = typeof body.message === "string" ? redactor.serverText(body.message) : undefined;
  const message = said === undefined ? "" : `: ${said.length > 120 ? `${said.slice(0, 117)}...` : said}`;
  return `${code}${message}`;
}

/** What judging needs of the run: the contract's validator, and the redactor that decides what of an answer a detail may quote. */
export interface JudgeContext {
  validator: ContractValidator;
  redactor: Redactor;
}

export function judge(context: JudgeContext, op: ContractOperation, answer: HttpAnswer, expectation: Expectation): Verdict {
  if (answer.kind === "failure") return { status: "failed", detail: `${op.operationId}: ${answer.error}` };
  const status = answer.status;
  const declared = undeclaredStatus(op, status);
  if (declared !== undefined)
    return { status: "failed", detail: `${op.operationId} answered ${status}, which it does not declare (it declares ${declared.join(", ")})` };
  const { body, problems } = answerProblems(context.validator, op, answer, `${op.operationId} ${status}`, (read) =>
    context.redactor.opaque({ text: read.text, status, statusText: answer.statusText, contentType: read.headers.get("content-type") }),
  );
  const notes: string[] = [];
  const said = errorSummary(body, context.redactor);
  if (expectation.kind === "success") {
    if (status >= 500) problems.unshift(`${op.operationId} answered ${status}${said}`);
    // The call carried the credential the operation takes: a 401 means a wrong key, or a server refusing a right one;
    // either way nothing else of the run says much, and a green run would hide it.
    else if (status === 401) problems.unshift(`${op.operationId} answered 401${said}: the credential it was sent was refused`);
    else if (expectation.accepted === true && refusesAsInvalid(status, body))
      problems.unshift(`${op.operationId} answered ${status}${said} to a request the contract accepts`);
    else if (status >= 400) notes.push(`answered ${status} (declared)${said}`);
    else if (status < 200 || status >= 300) problems.unshift(`${op.operationId} answered ${status} to its valid call`);
  } else if (expectation.kind === "refusal") {
    if (!expectation.statuses.includes(status)) problems.unshift(`${op.operationId} answered ${status}${said}; expected ${expectation.statuses.join(" or ")}`);
  } else if (status < 400 || status >= 500) {
    problems.unshift(`${op.operationId} answered ${status}${said} to an invalid call; expected a 4xx it declares`);
  }
  if (problems.length > 0) return { status: "failed", detail: problems.join("; "), body };
  return { status: "passed", ...(notes.length > 0 ? { detail: notes.join("; ") } : {}), body };
}
