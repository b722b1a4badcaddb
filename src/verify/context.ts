// What every pass of verify shares: the run's context, a pass's form (what it is given), and sending a call of an
// operation and recording the check it makes (judged against the contract, with a `curl` reproduction when it fails,
// and noted in the coverage map).
import type { ContractOperation } from "../contract/operations.ts";
import type { JsonObject } from "../contract/json.ts";
import type { ContractValidator } from "../contract/validator.ts";
import type { ValidCall } from "../contract/valid-calls.ts";
import type { Redactor } from "../contract/redact.ts";
import { buildRequest, isWrite, type Call, type Credential } from "./calls.ts";
import type { MadeCheck, ReplayStep, Sent } from "./check.ts";
import type { CoverageMap } from "./report/coverage-map.ts";
import { OPTION_FLAGS, type CredentialMap, type CredentialOption } from "./credential-map.ts";
import type { Fixtures } from "./fixtures.ts";
import type { HttpAnswer, HttpRequest, Sender } from "./sender.ts";
import { judge, type Expectation, type Verdict } from "./judge.ts";
import type { VerifyOptions } from "./options.ts";

export interface VerifyContext {
  document: JsonObject;
  operations: ContractOperation[];
  validator: ContractValidator;
  credentials: CredentialMap;
  sender: Sender;
  /** Learns from the sender what each request and answer carried; every check's name and detail goes through it. */
  redactor: Redactor;
  options: VerifyOptions;
  fixtures: Fixtures;
  /** Each operation's valid call (x-svc-valid-call), read once for every pass; the fixtures put this run's ids in. */
  validCalls: Record<string, ValidCall>;
  /** The statuses and inputs each operation's requests covered, for the report. */
  coverage: CoverageMap;
  /** When the checking passes stop (performance.now()), from --time-budget; the cleanup runs after it regardless. */
  deadline: number;
  /** The passes that met the deadline and said so. */
  budgetNoted: Set<string>;
  /** Called with each check as it is made: the console line is printed at once, a failure gets its id and reproduction. */
  record: (check: MadeCheck) => void;
  /** The plan position of the unit of work this context belongs to (ordered-pool.ts): what orders what the fixtures learn. */
  position?: number;
}

/**
 * A unit of work of a pass: steps that must stay in order (a call and its state checks; a property's cases and its
 * shrinking), given a context of its own whose checks are recorded in plan order. `after`: the units (by their index
 * among the pass's, earlier ones only) whose effects it needs first.
 */
export interface Unit {
  run: (context: VerifyContext) => Promise<void>;
  after?: number[];
}

/** The operations a run checks, and its valid calls in two phases: what keeps things (and makes them), then the deletes. */
export interface OperationPlan {
  selected: ContractOperation[];
  /** Creates and every call that leaves things in place: the other passes run after these, on live fixtures. */
  keeping: ContractOperation[];
  /** The deletes, deepest first, and the undo of a deletion. */
  removing: ContractOperation[];
}

/** What a pass is given: the run's context, the plan of its operations, and what the probe found of the target. */
export interface PassContext extends VerifyContext {
  plan: OperationPlan;
  /** The target is the package's stateful mock: the mock-only workflows run too. */
  mock: boolean;
  /** A line for the console beside the checks, redacted as they are. */
  log: (line: string) => void;
  /** Runs a pass's units, --concurrency at a time, their checks recorded in the units' order (ordered-pool.ts). */
  units: (units: Unit[]) => Promise<void>;
}

/** A pass of the run: one job over the run's context, its checks recorded as it goes (run.ts lists them in order). */
export type Pass = (context: PassContext) => Promise<void>;

/** Why a check of an operation cannot run here, if it cannot: a write without --allow-writes, or a credential not given. */
export function skipReason(context: VerifyContext, op: ContractOperation, option: CredentialOption | undefined): string | undefined {
  if (isWrite(op) && !context.options.allowWrites) return `${op.method} writes: run with --allow-writes against a test environment`;
  if (option !== undefined && credentialValue(context, option) === undefined) {
    return option === "linkToken" ? "needs a link token, and createLinkToken made none in this run" : `needs ${OPTION_FLAGS[option]}`;
  }
  return undefined;
}

/** Whether the time budget (--time-budget) is spent; the first time a pass meets it, one skipped check says so. */
export function spentBudget(context: VerifyContext, suite: string): boolean {
  if (performance.now() < context.deadline) return false;
  if (!context.budgetNoted.has(suite)) {
    context.budgetNoted.add(suite);
    context.record({
      suite,
      name: `${suite}: the rest of the pass`,
      status: "skipped",
      detail: `the time budget (--time-budget ${context.options.timeBudgetMs / 1000} s) is spent`,
      ms: 0,
    });
  }
  return true;
}

/** A credential's value: the given one (or its placeholder on a loopback server); the link token the run made comes first. */
function credentialValue(context: VerifyContext, option: CredentialOption): string | undefined {
  if (option === "linkToken") return context.fixtures.linkToken ?? context.options.credentials.linkToken;
  return context.options.credentials[option];
}

export function credentialOf(context: VerifyContext, option: CredentialOption): Credential | undefined {
  const value = credentialValue(context, option);
  return value === undefined ? undefined : { header: context.credentials.header(option), value };
}

/** The operation's own credential, when the run has it. */
export function ownCredential(context: VerifyContext, op: ContractOperation): Credential | undefined {
  const option = context.credentials.optionOf(op);
  return option === undefined ? undefined : credentialOf(context, option);
}

/** A request and what it got, as a failed check hands it over for its reproduction and the reports. */
export function sentOf(request: HttpRequest, answer: HttpAnswer): Sent {
  return { request, ...(answer.kind === "answer" ? { answered: answer.status, answer } : {}) };
}

/** Sends a call; a call of one of the contract's operations is noted in the coverage map. */
export async function send(context: VerifyContext, op: ContractOperation, call: Call, credential: Credential | undefined): Promise<HttpAnswer> {
  return sendRequest(context, op, call, buildRequest(context.options.baseUrl, op, call, credential));
}

/** Sends the request a call was built into (the caller keeps it, for a reproduction). */
export async function sendRequest(context: VerifyContext, op: ContractOperation, call: Call, request: HttpRequest): Promise<HttpAnswer> {
  const answer = await context.sender.send(request);
  if (context.operations.includes(op)) context.coverage.note(op, call, answer.kind === "answer" ? answer.status : undefined);
  return answer;
}

export interface Checked {
  verdict: Verdict;
  status?: number;
  body?: unknown;
  /** The request as sent, for a later check's reproduction. */
  sent: Sent;
}

/**
 * The calls a failure's request depended on, for --replay to make again first: the check's own (the update before a
 * read-back), else the run's writes before it (the state it met: an insurance added, a bulk import made).
 */
export function dependedOn(context: VerifyContext, steps?: ReplayStep[]): Pick<Sent, "steps" | "keptBefore"> {
  if (steps !== undefined) return steps.length === 0 ? {} : { steps: [...steps] };
  // Read when the check is recorded (run.ts), in plan order: every unit before it is done then, whatever ran at once.
  return { keptBefore: context.position ?? Number.POSITIVE_INFINITY };
}

/** Sends a call, judges the answer, records the check (with its reproduction when it failed); returns what came back. */
export async function checkCall(
  context: VerifyContext,
  suite: string,
  name: string,
  op: ContractOperation,
  call: Call,
  credential: Credential | undefined,
  expectation: Expectation,
  { note, steps }: { note?: (status: number | undefined) => string | undefined; steps?: ReplayStep[] } = {},
): Promise<Checked> {
  const request = buildRequest(context.options.baseUrl, op, call, credential);
  const answer = await sendRequest(context, op, call, request);
  const judged = judge(context, op, answer, expectation);
  // A note says what a failure with this status means (a state check failing as a server that keeps nothing does).
  const said = judged.status === "failed" ? note?.(answer.kind === "answer" ? answer.status : undefined) : undefined;
  const verdict = said !== undefined ? { ...judged, detail: `${judged.detail}; ${said}` } : judged;
  const sent = sentOf(request, answer);
  context.record({
    suite,
    name,
    status: verdict.status,
    ...(verdict.detail === undefined ? {} : { detail: verdict.detail }),
    operationId: op.operationId,
    ms: Math.round(answer.ms),
    ...(verdict.status === "failed" ? { sent: { ...sent, expect: expectation, ...dependedOn(context, steps) } } : {}),
  });
  return { verdict, sent, ...(answer.kind === "answer" ? { status: answer.status, body: verdict.body } : {}) };
}

export function skipCheck(context: VerifyContext, suite: string, name: string, op: ContractOperation, reason: string): void {
  context.record({ suite, name, status: "skipped", detail: reason, operationId: op.operationId, ms: 0 });
}
