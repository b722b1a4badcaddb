// What a replay makes again before it resends a failure's request: the creates of what the request names (a user, a
// team, a key), then the steps the check depended on (the create and the delete before a "gone after delete" read, the
// update before a read-back, else the run's writes before it) with the replay's ids in place of the run's, and the
// values the request must take instead of the run's ids and credentials.
import { isObject } from "../../contract/json.ts";
import type { ContractOperation } from "../../contract/operations.ts";
import type { Call } from "../calls.ts";
import type { ReproRequest } from "../check.ts";
import { checkCall, ownCredential, type VerifyContext } from "../context.ts";
import { neededCreates, passOrder } from "../passes/operation-plan.ts";
import { exchangeAfter, type Exchange } from "../passes/state-readback.ts";

export interface Made {
  /** A value of the kept request (an id, a credential's `$VARIABLE`) → the replay's own. */
  values: Map<string, string>;
  /** What was made, as the replay prints it: `createTeam (201)`. */
  created: string[];
  /** The check's steps made again, as the replay prints them: `deleteTeam (200)`. */
  steps: string[];
  /** Each step's call and answer, as the check judged them (a read-back compares what a step sent). */
  exchanges: Exchange[];
}

/** Sends one call of the replay's making, judged a success as the run's was; the answer, or why the replay cannot go on. */
async function makeCall(context: VerifyContext, op: ContractOperation, call: Call, what: string): Promise<Exchange | { error: string }> {
  const checked = await checkCall(context, "replay", `${op.operationId} again`, op, call, ownCredential(context, op), { kind: "success" });
  // The run's check only happened after these succeeded: a failing one leaves nothing the failure can be judged on.
  if (checked.verdict.status === "failed" || checked.status === undefined || checked.status >= 300)
    return { error: `${what} with ${op.operationId} failed: ${checked.verdict.detail ?? `answered ${checked.status ?? "nothing"}`}` };
  const exchange = exchangeAfter(context, op, call, checked.status, checked.body);
  context.fixtures.learn(op, call, checked.status, checked.body);
  return exchange;
}

/** Everything the failure's request depended on, made again in the run's order; then the values to put in the request. */
export async function makeAgain(context: VerifyContext, request: ReproRequest): Promise<Made | { error: string }> {
  const byId = (operationId: string) => context.operations.find((each) => each.operationId === operationId);
  const steps: { op: ContractOperation; call: Call }[] = [];
  for (const step of request.steps ?? []) {
    const op = byId(step.operationId);
    if (op === undefined) return { error: `its check called ${step.operationId} first, which the contract no longer has` };
    steps.push({ op, call: step.call });
  }
  const creates = new Set<ContractOperation>();
  for (const need of request.needs) {
    const op = byId(need.create);
    if (op === undefined) return { error: `${need.param} was made by ${need.create}, which the contract no longer has` };
    creates.add(op);
    neededCreates(op, context.validCalls, context.fixtures, creates);
  }
  for (const { op } of steps) neededCreates(op, context.validCalls, context.fixtures, creates);
  // A create that is a step of the check is made as the step, once, where the check made it.
  for (const { op } of steps) creates.delete(op);
  const made: Made = { values: new Map(), created: [], steps: [], exchanges: [] };
  for (const op of passOrder(context.operations, context.fixtures).filter((each) => creates.has(each))) {
    const exchange = await makeCall(context, op, context.fixtures.apply(op, context.validCalls[op.operationId]!), "creating again");
    if ("error" in exchange) return exchange;
    made.created.push(`${op.operationId} (${exchange.status})`);
  }
  for (const { op, call } of steps) {
    // The run's call with the replay's ids in place, by their names, and its own mark in a create's.
    const exchange = await makeCall(context, op, context.fixtures.apply(op, call), "its check's step");
    if ("error" in exchange) return exchange;
    made.steps.push(`${op.operationId} (${exchange.status})`);
    made.exchanges.push(exchange);
  }
  for (const need of request.needs) {
    // The latest of its kind: what a delete step removed is still the one the request names.
    const record = [...context.fixtures.created].reverse().find((each) => each.lifecycle.create.operationId === need.create);
    if (need.param === "link_token") {
      if (context.fixtures.linkToken !== undefined) made.values.set(need.value, context.fixtures.linkToken);
    } else if (need.pointer !== undefined) {
      const body = record?.made.body;
      const value = isObject(body) ? body[need.pointer.slice(1)] : undefined;
      if (typeof value === "string") made.values.set(need.value, value);
    } else {
      const id = context.fixtures.ids.get(need.param) ?? record?.id;
      if (id !== undefined) made.values.set(need.value, id);
    }
    if (!made.values.has(need.value)) return { error: `${need.create} answered no ${need.param} to put in the request` };
  }
  return made;
}
