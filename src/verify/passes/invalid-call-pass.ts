// The invalid calls of each selected operation (at most three, made from the contract by cases/invalid-calls.ts), each
// expected to get a declared 4xx. Needs the plan's operations and the fixtures' ids; gives checks only.
import type { ContractOperation } from "../../contract/operations.ts";
import type { ValidCall } from "../../contract/valid-calls.ts";
import { checkCall, ownCredential, skipCheck, skipReason, type Pass, type Unit, type VerifyContext } from "../context.ts";
import { invalidCalls } from "../cases/invalid-calls.ts";

function invalidCallChecks(context: VerifyContext, op: ContractOperation, example: ValidCall): Unit[] {
  const credential = ownCredential(context, op);
  const reason = skipReason(context, op, context.credentials.optionOf(op));
  return invalidCalls(context.document, context.validator, op, context.fixtures.apply(op, example), credential).map((invalid) => ({
    run: async (unit) => {
      const name = `${op.operationId}: ${invalid.what}`;
      if (reason !== undefined) skipCheck(unit, "invalid", name, op, reason);
      else await checkCall(unit, "invalid", name, op, invalid.call, credential, { kind: "invalid" });
    },
  }));
}

/** Each invalid call a unit of its own. */
export const invalidCallPass: Pass = (context) =>
  context.units(context.plan.selected.flatMap((op) => invalidCallChecks(context, op, context.validCalls[op.operationId]!)));
