// The invalid calls of each selected operation (at most three, made from the contract by cases/invalid-calls.ts), each
// expected to get a declared 4xx. Needs the plan's operations and the fixtures' ids; gives checks only.
import type { ContractOperation } from "../../contract/operations.ts";
import type { ValidCall } from "../../contract/valid-calls.ts";
import { checkCall, ownCredential, skipCheck, skipReason, type Pass, type VerifyContext } from "../context.ts";
import { invalidCalls } from "../cases/invalid-calls.ts";

async function invalidCallChecks(context: VerifyContext, op: ContractOperation, example: ValidCall): Promise<void> {
  const credential = ownCredential(context, op);
  const reason = skipReason(context, op, context.credentials.optionOf(op));
  for (const invalid of invalidCalls(context.document, context.validator, op, context.fixtures.apply(op, example), credential)) {
    const name = `${op.operationId}: ${invalid.what}`;
    if (reason !== undefined) skipCheck(context, "invalid", name, op, reason);
    else await checkCall(context, "invalid", name, op, invalid.call, credential, { kind: "invalid" });
  }
}

export const invalidCallPass: Pass = async (context) => {
  for (const op of context.plan.selected) await invalidCallChecks(context, op, context.validCalls[op.operationId]!);
};
