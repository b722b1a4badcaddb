// The credential refusals of each selected operation: no credential must get 401, the other kind of key (a management
// key on the regular API, a team API key on the management API) 401 or 403. Run with the fixtures alive, so a refusal
// is a refusal and not a 404. Needs the plan's operations and the run's credentials; gives checks only.
import type { ContractOperation } from "../../contract/operations.ts";
import type { ValidCall } from "../../contract/valid-calls.ts";
import { checkCall, credentialOf, skipCheck, skipReason, type Pass, type Unit, type VerifyContext } from "../context.ts";
import type { CredentialOption } from "../credential-map.ts";

/** No credential must be 401; the other kind of key (a management key on the regular API, a team API key on the management API) 401 or 403. */
function credentialChecks(context: VerifyContext, op: ContractOperation, example: ValidCall): Unit[] {
  const call = context.fixtures.apply(op, example);
  const other: CredentialOption = context.credentials.isManagement(op) ? "apiKey" : "managementKey";
  const cases: { name: string; option?: CredentialOption; statuses: number[] }[] = [
    { name: `${op.operationId}: no credential`, statuses: [401] },
    { name: `${op.operationId}: ${other === "apiKey" ? "a team API key" : "a management key"} instead of its own`, option: other, statuses: [401, 403] },
  ];
  return cases.map(({ name, option, statuses }) => ({
    run: async (unit) => {
      // A refusal check of a write is a write: a server that wrongly accepts the call would carry it out.
      const reason = skipReason(unit, op, option);
      if (reason !== undefined) return skipCheck(unit, "credential", name, op, reason);
      await checkCall(unit, "credential", name, op, call, option === undefined ? undefined : credentialOf(unit, option), { kind: "refusal", statuses });
    },
  }));
}

/** Each refusal a unit of its own: they change nothing a server keeps right. */
export const refusalPass: Pass = (context) =>
  context.units(context.plan.selected.flatMap((op) => credentialChecks(context, op, context.validCalls[op.operationId]!)));
