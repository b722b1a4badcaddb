// The operation pass of `npm run verify`: every operation's valid call (x-svc-valid-call) with the ids verify made,
// then the credential refusals, then the invalid calls, each judged against what the contract declares.
import type { ContractOperation } from "../contract/operations.ts";
import type { ValidCall } from "../contract/valid-calls.ts";
import { requestInput } from "./calls.ts";
import { checkCall, credentialOf, ownCredential, skipCheck, skipReason, type VerifyContext } from "./context.ts";
import type { CredentialOption } from "./credentials.ts";
import type { Fixtures } from "./fixtures.ts";
import { invalidCalls } from "./invalid-calls.ts";
import { stateAfterCall } from "./state.ts";

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
export function neededCreates(op: ContractOperation, examples: Record<string, ValidCall>, fixtures: Fixtures, seen: Set<ContractOperation>): void {
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
  if (reason !== undefined) return skipCheck(context, "operation", name, op, reason);
  const call = context.fixtures.apply(op, example);
  const credential = ownCredential(context, op);
  const own = context.validator.validateRequest(op, requestInput(op, call, credential));
  if (own.refusal !== undefined || own.details.length > 0) {
    const why = own.refusal?.message ?? own.details.map((d) => `${d.location} ${d.field} ${d.message}`).join("; ");
    context.record({
      suite: "operation",
      name,
      status: "failed",
      detail: `verify's own valid call is not valid against the contract: ${why}`,
      operationId: op.operationId,
      ms: 0,
    });
    return;
  }
  const answer = await checkCall(context, "operation", name, op, call, credential, { kind: "success" });
  if (answer.status === undefined) return;
  // What the call did to the server's state, read back over the links its answer declares (state.ts).
  const deleted = context.fixtures.learn(op, call, answer.status, answer.body);
  await stateAfterCall(context, op, call, answer.status, answer.body, deleted);
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
      skipCheck(context, "credential", name, op, reason);
      continue;
    }
    await checkCall(context, "credential", name, op, call, option === undefined ? undefined : credentialOf(context, option), { kind: "refusal", statuses });
  }
}

async function invalidCallChecks(context: VerifyContext, op: ContractOperation, example: ValidCall): Promise<void> {
  const credential = ownCredential(context, op);
  const reason = skipReason(context, op, context.credentials.optionOf(op));
  for (const invalid of invalidCalls(context.document, context.validator, op, context.fixtures.apply(op, example), credential)) {
    const name = `${op.operationId}: ${invalid.what}`;
    if (reason !== undefined) skipCheck(context, "invalid", name, op, reason);
    else await checkCall(context, "invalid", name, op, invalid.call, credential, { kind: "invalid" });
  }
}

/** The operations a run checks, and its valid calls in two phases: what keeps things (and makes them), then the deletes. */
export interface OperationPlan {
  selected: ContractOperation[];
  /** Creates and every call that leaves things in place: the other passes run after these, on live fixtures. */
  keeping: ContractOperation[];
  /** The deletes, deepest first, and the undo of a deletion. */
  removing: ContractOperation[];
}

/** The operations of the run (those of --only, with the creates they need first), in the order of the valid calls. */
export function planOperationPass(context: VerifyContext): OperationPlan {
  const examples = context.validCalls;
  const only = context.options.only;
  const selected = only === undefined ? context.operations : context.operations.filter((op) => only.includes(op.operationId));
  const running = new Set(selected);
  for (const op of selected) neededCreates(op, examples, context.fixtures, running);
  const ordered = passOrder(context.operations, context.fixtures).filter((op) => running.has(op));
  const firstRemoving = ordered.findIndex((op) => context.fixtures.isRemove(op) !== undefined);
  const cut = firstRemoving === -1 ? ordered.length : firstRemoving;
  return { selected, keeping: ordered.slice(0, cut), removing: ordered.slice(cut) };
}

/** The valid call of each operation, in turn. */
export async function runValidCalls(context: VerifyContext, operations: ContractOperation[]): Promise<void> {
  for (const op of operations) await validCallCheck(context, op, context.validCalls[op.operationId]!);
}

/** The credential refusals and invalid calls of the selected operations. */
export async function runRefusalChecks(context: VerifyContext, selected: ContractOperation[]): Promise<void> {
  for (const op of selected) await credentialChecks(context, op, context.validCalls[op.operationId]!);
  for (const op of selected) await invalidCallChecks(context, op, context.validCalls[op.operationId]!);
}
