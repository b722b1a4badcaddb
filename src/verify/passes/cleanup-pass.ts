// Deletes what verify created and the pass did not delete again, with the delete the contract pairs with each create
// (../fixtures.ts), newest first so a team's webhook goes before its team (and before it however many run at once);
// one check per thing created.
import { judge } from "../judge.ts";
import { buildRequest } from "../calls.ts";
import type { Created } from "../fixtures.ts";
import { sentOf, type Pass, type Unit, type VerifyContext } from "../context.ts";
import { inTurn } from "../ordered-pool.ts";

/** The created thing's parent (a team, for its webhook) when the pass deleted it: its children went with it. */
function deletedParent(record: Created, created: Created[]): Created | undefined {
  return created.find(
    (parent) =>
      parent !== record &&
      parent.deletedBy !== undefined &&
      record.lifecycle.remove.template.startsWith(`${parent.lifecycle.remove.template}/`) &&
      Object.entries(parent.path).every(([name, value]) => record.path[name] === value),
  );
}

/**
 * Deletes what is left, newest first: a unit per thing created, each after the units of the things under it (a
 * team's webhook before its team), so children go before their parents however many run at once. `units` runs them
 * (the pass's pool; one at a time by default, as --replay cleans up).
 */
export async function cleanUp(context: VerifyContext, units: (units: Unit[]) => Promise<void> = (list) => inTurn(context, list)): Promise<void> {
  const created = [...context.fixtures.created].reverse();
  const under = (child: Created, parent: Created) =>
    child !== parent &&
    child.lifecycle.remove.template.startsWith(`${parent.lifecycle.remove.template}/`) &&
    Object.entries(parent.path).every(([name, value]) => child.path[name] === value);
  await units(
    created.map((record, at) => ({
      run: (unit) => cleanUpOne(unit, record, context.fixtures.created),
      after: created.flatMap((child, i) => (i < at && under(child, record) ? [i] : [])),
    })),
  );
}

async function cleanUpOne(context: VerifyContext, record: Created, created: Created[]): Promise<void> {
  const remove = record.lifecycle.remove;
  const name = `${remove.operationId}: ${record.lifecycle.param} ${record.id}, made by ${record.lifecycle.create.operationId}`;
  const base = { suite: "cleanup", name, operationId: remove.operationId };
  const parent = deletedParent(record, created);
  if (record.deletedBy !== undefined || parent !== undefined) {
    const by = record.deletedBy ?? `${parent!.deletedBy}, with its ${parent!.lifecycle.param.replace(/_id$/, "")}`;
    context.record({ ...base, status: "passed", detail: `deleted by the operation pass (${by})`, ms: 0 });
    return;
  }
  const option = context.credentials.optionOf(remove);
  const value = option === undefined ? undefined : context.options.credentials[option];
  const credential = option === undefined || value === undefined ? undefined : { header: context.credentials.header(option), value };
  const request = buildRequest(context.options.baseUrl, remove, { path: record.path, query: {} }, credential);
  const answer = await context.sender.send(request);
  const verdict = judge(context, remove, answer, { kind: "success" });
  context.record({
    ...base,
    status: verdict.status,
    ...(verdict.detail === undefined ? {} : { detail: verdict.detail }),
    ...(verdict.status === "failed" ? { sent: { ...sentOf(request, answer), expect: { kind: "success" as const } } } : {}),
    ms: Math.round(answer.ms),
  });
}

export const cleanupPass: Pass = (context) => cleanUp(context, context.units);
