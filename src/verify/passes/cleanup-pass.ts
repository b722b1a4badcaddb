// Deletes what verify created and the pass did not delete again, with the delete the contract pairs with each create
// (../fixtures.ts), newest first so a team's webhook goes before its team; one check per thing created.
import { judge } from "../judge.ts";
import { buildRequest } from "../calls.ts";
import type { Created } from "../fixtures.ts";
import { sentOf, type Pass, type VerifyContext } from "../context.ts";

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

export async function cleanUp(context: VerifyContext): Promise<void> {
  const created = context.fixtures.created;
  for (const record of [...created].reverse()) {
    const remove = record.lifecycle.remove;
    const name = `${remove.operationId}: ${record.lifecycle.param} ${record.id}, made by ${record.lifecycle.create.operationId}`;
    const base = { suite: "cleanup", name, operationId: remove.operationId };
    const parent = deletedParent(record, created);
    if (record.deletedBy !== undefined || parent !== undefined) {
      const by = record.deletedBy ?? `${parent!.deletedBy}, with its ${parent!.lifecycle.param.replace(/_id$/, "")}`;
      context.record({ ...base, status: "passed", detail: `deleted by the operation pass (${by})`, ms: 0 });
      continue;
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
}

export const cleanupPass: Pass = (context) => cleanUp(context);
