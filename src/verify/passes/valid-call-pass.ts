// The valid-call passes: each operation's valid call (x-svc-valid-call) with the ids verify made, judged as a success,
// then what it did to the server's state read back (state-readback.ts). Run in two halves around the other passes:
// first the creates and every call that keeps things (their ids reach every later pass), then the deletes. Needs the
// plan; gives the fixtures the ids it learns.
import type { ContractOperation } from "../../contract/operations.ts";
import type { ValidCall } from "../../contract/valid-calls.ts";
import { isWrite, requestInput } from "../calls.ts";
import { checkCall, ownCredential, skipCheck, skipReason, type Pass, type PassContext, type VerifyContext } from "../context.ts";
import { planDependencies } from "./operation-plan.ts";
import { stateAfterCall, stepOf } from "./state-readback.ts";

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
  // Like every call, it depends on the run's writes before it (context.ts's dependedOn); a call on what verify deleted
  // (the undo of a deletion) on that delete as well: its replay makes them again first.
  const deleted = context.fixtures.madeItem(call);
  const remove = deleted?.deletedBy === undefined ? undefined : deleted.lifecycle.remove;
  const steps =
    remove === undefined
      ? undefined
      : [...context.fixtures.keptBefore(context.position), stepOf(remove, context.fixtures.apply(remove, context.validCalls[remove.operationId]!))];
  const answer = await checkCall(context, "operation", name, op, call, credential, { kind: "success" }, steps === undefined ? {} : { steps });
  if (answer.status === undefined) return;
  if (isWrite(op) && answer.status >= 200 && answer.status < 300 && context.fixtures.isCreate(op) === undefined && context.fixtures.isRemove(op) === undefined)
    context.fixtures.keep(stepOf(op, call), context.position);
  // What the call did to the server's state, read back over the links its answer declares (state-readback.ts).
  const gone = context.fixtures.learn(op, call, answer.status, answer.body, { at: context.position });
  await stateAfterCall(context, op, call, answer.status, answer.body, gone);
}

/** The valid call of each operation, with its state checks: a unit each, waiting for what the plan says it needs. */
function runValidCalls(context: PassContext, operations: ContractOperation[]): Promise<void> {
  const after = planDependencies(operations, context.fixtures);
  return context.units(operations.map((op, i) => ({ run: (unit) => validCallCheck(unit, op, context.validCalls[op.operationId]!), after: after[i]! })));
}

/** The creates, then every call that leaves things in place: the fixtures every later pass meets. */
export const keepingCallPass: Pass = (context) => runValidCalls(context, context.plan.keeping);

/** The deletes, deepest first, and the undo of a deletion: after every pass that needs the fixtures alive. */
export const deletingCallPass: Pass = (context) => runValidCalls(context, context.plan.removing);
