// The required-header pass: a request header the contract requires, left out. A body sent without the Content-Type it
// requires must get a declared 4xx. Run before the deletes, on the selected operations that delete nothing; a create
// the server took anyway is given to the fixtures, so the cleanup deletes it.
import type { ContractOperation } from "../../contract/operations.ts";
import { buildRequest, type Call } from "../calls.ts";
import { ownCredential, sentOf, skipReason, type Pass, type Unit, type VerifyContext } from "../context.ts";
import { judge } from "../judge.ts";

/**
 * A request header the contract requires, left out: a body sent without its Content-Type must get a declared 4xx
 * (the credential's own header is the credential checks'). Each is a write to a server that takes it; a unit each.
 */
export function requiredHeaderUnits(context: VerifyContext, selected: ContractOperation[]): Unit[] {
  return selected.flatMap((op): Unit[] => {
    const call = context.fixtures.apply(op, context.validCalls[op.operationId]!);
    if (call.body === undefined) return [];
    return [{ run: (unit) => requiredHeaderCheck(unit, op, call) }];
  });
}

async function requiredHeaderCheck(context: VerifyContext, op: ContractOperation, call: Call): Promise<void> {
  const name = `${op.operationId}: a body without Content-Type gets a declared 4xx`;
  const reason = skipReason(context, op, context.credentials.optionOf(op));
  if (reason !== undefined) {
    context.record({ suite: "protocol", name, status: "skipped", detail: reason, operationId: op.operationId, ms: 0 });
    return;
  }
  const credential = ownCredential(context, op);
  const request = buildRequest(context.options.baseUrl, op, call, credential);
  delete request.headers["content-type"];
  const answer = await context.sender.send(request);
  const verdict = judge(context, op, answer, { kind: "invalid" });
  const failed = verdict.status === "failed";
  context.record({
    suite: "protocol",
    name,
    status: verdict.status,
    ...(verdict.detail === undefined ? {} : { detail: verdict.detail.replace("to an invalid call", "to a body without Content-Type") }),
    operationId: op.operationId,
    ms: Math.round(answer.ms),
    ...(failed ? { sent: { ...sentOf(request, answer), expect: { kind: "invalid" as const } } } : {}),
  });
  // A create the server took anyway is deleted at the end, like any other.
  if (answer.kind === "answer" && verdict.body !== undefined)
    context.fixtures.learn(op, call, answer.status, verdict.body, { extra: true, at: context.position });
}

export const requiredHeaderPass: Pass = (context) =>
  context.units(
    requiredHeaderUnits(
      context,
      context.plan.selected.filter((op) => context.fixtures.isRemove(op) === undefined),
    ),
  );
