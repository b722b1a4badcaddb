// The operation pass of `npm run verify`: every operation's valid call (x-svc-valid-call) with the ids verify made,
// then the credential refusals, then the invalid calls, each judged against what the contract declares.
import type { ContractOperation } from "../contract/operations.ts";
import type { JsonObject } from "../contract/json.ts";
import type { ContractValidator } from "../contract/validator.ts";
import type { ValidCall } from "../contract/valid-calls.ts";
import { buildRequest, isWrite, requestInput, type Call, type Credential } from "./calls.ts";
import type { Check } from "./checks.ts";
import { OPTION_FLAGS, type CredentialMap, type CredentialOption } from "./credentials.ts";
import type { Fixtures } from "./fixtures.ts";
import type { HttpAnswer, Sender } from "./http.ts";
import { invalidCalls } from "./invalid-calls.ts";
import { judge, type Expectation } from "./judge.ts";
import type { VerifyOptions } from "./options.ts";
import type { Redactor } from "../contract/redact.ts";

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
  /** Called with each check as it is made: the console line is printed at once. */
  record: (check: Check) => void;
}

/** Why a check of an operation cannot run here, if it cannot: a write without --allow-writes, or a credential not given. */
export function skipReason(context: VerifyContext, op: ContractOperation, option: CredentialOption | undefined): string | undefined {
  if (isWrite(op) && !context.options.allowWrites) return `${op.method} writes: run with --allow-writes against a test environment`;
  if (option !== undefined && credentialValue(context, option) === undefined) {
    return option === "linkToken" ? "needs a link token, and createLinkToken made none in this run" : `needs ${OPTION_FLAGS[option]}`;
  }
  return undefined;
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

export async function send(context: VerifyContext, op: ContractOperation, call: Call, credential: Credential | undefined): Promise<HttpAnswer> {
  return context.sender.send(buildRequest(context.options.baseUrl, op, call, credential));
}

/** Sends a call, judges the answer, records the check; the answer's body comes back for the caller to learn from. */
async function check(
  context: VerifyContext,
  suite: string,
  name: string,
  op: ContractOperation,
  call: Call,
  credential: Credential | undefined,
  expectation: Expectation,
): Promise<{ status?: number; body?: unknown }> {
  const answer = await send(context, op, call, credential);
  const verdict = judge(context, op, answer, expectation);
  context.record({ suite, name, status: verdict.status, ...(verdict.detail === undefined ? {} : { detail: verdict.detail }), operationId: op.operationId, ms: Math.round(answer.ms) });
  return answer.kind === "answer" ? { status: answer.status, body: verdict.body } : {};
}

function skip(context: VerifyContext, suite: string, name: string, op: ContractOperation, reason: string): void {
  context.record({ suite, name, status: "skipped", detail: reason, operationId: op.operationId, ms: 0 });
}

/**
 * The order of the valid calls. Creates first (fewest path parameters first, so a team exists before its keys): they
 * are the fixtures, and their ids reach every later call. Deletes last, deepest first (a team's webhook before the
 * team), so every other call sees the user and team alive; an `undo...` of a deletion right after the deletes, so it
 * has a deletion to undo (and the user is alive again for the cleanup, which deletes it for good). Otherwise the
 * contract's order, which already puts createLinkToken before completing MFA and bulk import before its list.
 */
export function passOrder(operations: ContractOperation[], fixtures: Fixtures): ContractOperation[] {
  const depth = (op: ContractOperation) => op.parameters.filter((p) => p.in === "path").length;
  const deleted = operations.filter((op) => fixtures.isRemove(op) !== undefined);
  const undoes = (op: ContractOperation) => /^undo/.test(op.operationId) && deleted.some((remove) => op.template.startsWith(`${remove.template}/`));
  const rank = (op: ContractOperation) => (fixtures.isCreate(op) ? 0 : fixtures.isRemove(op) ? 2 : undoes(op) ? 3 : 1);
  const index = new Map(operations.map((op, i) => [op, i]));
  return [...operations].sort((a, b) => {
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    if (rank(a) === 0) return depth(a) - depth(b) || index.get(a)! - index.get(b)!;
    if (rank(a) === 2) return depth(b) - depth(a) || index.get(a)! - index.get(b)!;
    return index.get(a)! - index.get(b)!;
  });
}

/** The creates an operation's valid call needs for real ids, and theirs in turn: what --only still runs first. */
function neededCreates(op: ContractOperation, examples: Record<string, ValidCall>, fixtures: Fixtures, seen: Set<ContractOperation>): void {
  const call = examples[op.operationId]!;
  const names = new Set(Object.keys(call.path));
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === "object" && node !== null) {
      // A body field takes a learnt id by its name, or a list of them by the plural (fixtures.ts).
      for (const [key, value] of Object.entries(node)) {
        names.add(key).add(key.replace(/s$/, ""));
        visit(value);
      }
    }
  };
  visit(call.body);
  for (const name of names) {
    const creator = fixtures.creatorOf(name)?.create;
    if (creator === undefined || creator === op || seen.has(creator)) continue;
    seen.add(creator);
    neededCreates(creator, examples, fixtures, seen);
  }
}

async function validCallCheck(context: VerifyContext, op: ContractOperation, example: ValidCall): Promise<void> {
  const name = `${op.operationId}: valid call`;
  const option = context.credentials.optionOf(op);
  const reason = skipReason(context, op, option);
  if (reason !== undefined) return skip(context, "operation", name, op, reason);
  const call = context.fixtures.apply(op, example);
  const credential = option === undefined ? undefined : credentialOf(context, option);
  const own = context.validator.validateRequest(op, requestInput(op, call, credential));
  if (own.refusal !== undefined || own.details.length > 0) {
    const why = own.refusal?.message ?? own.details.map((d) => `${d.location} ${d.field} ${d.message}`).join("; ");
    context.record({ suite: "operation", name, status: "failed", detail: `verify's own valid call is not valid against the contract: ${why}`, operationId: op.operationId, ms: 0 });
    return;
  }
  const answer = await check(context, "operation", name, op, call, credential, { kind: "success" });
  if (answer.status !== undefined) context.fixtures.learn(op, call, answer.status, answer.body);
}

/** No credential must be 401; the other kind of key (a management key on the regular API, a team API key on the management API) 401 or 403. */
async function credentialChecks(context: VerifyContext, op: ContractOperation, example: ValidCall): Promise<void> {
  const call = context.fixtures.apply(op, example);
  const other: CredentialOption = context.credentials.isManagement(op) ? "apiKey" : "managementKey";
  const cases: { name: string; option?: CredentialOption; statuses: number[] }[] = [
    { name: `${op.operationId}: no credential`, statuses: [401] },
    { name: `${op.operationId}: ${other === "apiKey" ? "a team API key" : "a management key"} instead of its own`, option: other, statuses: [401, 403] },
  ];
  for (const { name, option, statuses } of cases) {
    // A refusal check of a write is a write: a server that wrongly accepts the call would carry it out.
    const reason = skipReason(context, op, option);
    if (reason !== undefined) {
      skip(context, "credential", name, op, reason);
      continue;
    }
    await check(context, "credential", name, op, call, option === undefined ? undefined : credentialOf(context, option), { kind: "refusal", statuses });
  }
}

async function invalidCallChecks(context: VerifyContext, op: ContractOperation, example: ValidCall): Promise<void> {
  const option = context.credentials.optionOf(op);
  const credential = option === undefined ? undefined : credentialOf(context, option);
  const reason = skipReason(context, op, option);
  for (const invalid of invalidCalls(context.document, context.validator, op, context.fixtures.apply(op, example), credential)) {
    const name = `${op.operationId}: ${invalid.what}`;
    if (reason !== undefined) skip(context, "invalid", name, op, reason);
    else await check(context, "invalid", name, op, invalid.call, credential, { kind: "invalid" });
  }
}

/** Runs the pass over every operation (or those of --only, with the creates they need first). */
export async function runOperationPass(context: VerifyContext): Promise<void> {
  const examples = context.validCalls;
  const only = context.options.only;
  const selected = only === undefined ? context.operations : context.operations.filter((op) => only.includes(op.operationId));
  const running = new Set(selected);
  for (const op of selected) neededCreates(op, examples, context.fixtures, running);
  const ordered = passOrder(context.operations, context.fixtures).filter((op) => running.has(op));
  for (const op of ordered) await validCallCheck(context, op, examples[op.operationId]!);
  for (const op of selected) await credentialChecks(context, op, examples[op.operationId]!);
  for (const op of selected) await invalidCallChecks(context, op, examples[op.operationId]!);
}
