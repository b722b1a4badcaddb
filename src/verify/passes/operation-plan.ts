// Which operations a run checks and in what order: those of --only with the creates they need first, the creates
// before every other call and the deletes last (the fixtures' order), cut where the deletes begin so the passes between
// meet every fixture alive. Needs the contract's operations and valid calls; gives the run's OperationPlan.
import type { ContractOperation } from "../../contract/operations.ts";
import type { ValidCall } from "../../contract/valid-calls.ts";
import type { OperationPlan, VerifyContext } from "../context.ts";
import type { Fixtures } from "../fixtures.ts";

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

/** The path's first two segments, its area of the API (`/v2/link`, `/v2/management`): where the plan's order carries data. */
function area(op: ContractOperation): string {
  return op.template.split("/").slice(0, 3).join("/");
}

/**
 * What each valid call of a half of the plan waits for (indices into `ordered`, earlier ones only), so that running them
 * concurrently keeps what their order carries. Creates by depth: a team before its keys, the creates of one depth
 * together. Every other call after every create (their ids), and in its area of the API after the write before it
 * (and a write after the reads before it too): the contract's order there carries data (createLinkToken before
 * completeProviderMfa, createInsurance before getLatestInsurance, bulkImportConnections before listBulkOps) and state
 * (an update before the reads after it), while the reads between two writes run together.
 * Deletes deepest first (a team's webhook before the team), the deletes of one depth together; an undo of a deletion
 * after the delete it undoes.
 */
export function planDependencies(ordered: ContractOperation[], fixtures: Fixtures): number[][] {
  const depth = (op: ContractOperation) => op.parameters.filter((p) => p.in === "path").length;
  const indices = (keep: (op: ContractOperation, i: number) => boolean) => ordered.flatMap((op, i) => (keep(op, i) ? [i] : []));
  return ordered.map((op, at) => {
    const before = (test: (other: ContractOperation) => boolean) => indices((other, i) => i < at && test(other));
    if (fixtures.isCreate(op) !== undefined) return before((other) => fixtures.isCreate(other) !== undefined && depth(other) < depth(op));
    if (fixtures.isRemove(op) !== undefined) return before((other) => fixtures.isRemove(other) !== undefined && depth(other) > depth(op));
    const removes = before((other) => fixtures.isRemove(other) !== undefined);
    if (removes.length > 0) {
      // An undo waits for the delete it undoes (the one whose path it extends), or for every delete when none is its.
      const undone = removes.filter((i) => op.template.startsWith(`${ordered[i]!.template}/`));
      return undone.length > 0 ? undone : removes;
    }
    const creates = before((other) => fixtures.isCreate(other) !== undefined);
    // In its area, a read waits for the write before it; a write for everything since that write, reads included.
    const sameArea = before((other) => fixtures.isCreate(other) === undefined && area(other) === area(op));
    const lastWrite = sameArea.filter((i) => ordered[i]!.method !== "GET").at(-1);
    const since = lastWrite === undefined ? sameArea : sameArea.filter((i) => i >= lastWrite);
    return [...creates, ...(op.method === "GET" ? (lastWrite === undefined ? [] : [lastWrite]) : since)];
  });
}

/** The creates an operation's valid call needs for real ids, and theirs in turn: what --only still runs first. */
export function neededCreates(op: ContractOperation, examples: Record<string, ValidCall>, fixtures: Fixtures, seen: Set<ContractOperation>): void {
  const call = examples[op.operationId]!;
  const names = new Set(Object.keys(call.path));
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === "object" && node !== null) {
      // A body field takes a learnt id by its name, or a list of them by the plural (../fixtures.ts).
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

/** The operations of the run (those of --only, with the creates they need first), in the order of the valid calls. */
export function planOperations(context: VerifyContext): OperationPlan {
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
