// What a workflow created and did not delete, because it stopped at a failed step: the users of its createUser steps
// with no deleteUser of theirs after, read from respect's log, then deleted (by the contract's deleteUser), so a run
// against a test environment leaves nothing behind. Each deletion is a cleanup check.
import { listOperations } from "../../contract/operations.ts";
import type { JsonObject } from "../../contract/json.ts";
import { readBundle } from "../package-files.ts";
import type { Check } from "../check.ts";
import type { Sender } from "../sender.ts";
import type { Workflow } from "../../shared/workflow-files.ts";
import type { RespectWorkflow } from "./respect.ts";

export interface Leftover {
  workflowId: string;
  userId: string;
  /** The create's own request headers (its credential), for the delete. */
  headers: Record<string, string>;
}

export function leftoverUsers(workflow: Workflow, ran: RespectWorkflow): Leftover[] {
  const created = new Map<string, Leftover>();
  for (const step of ran.executedSteps) {
    const operationId = workflow.steps.find((each) => each.stepId === step.stepId)?.operationId;
    const status = step.response?.statusCode ?? 0;
    if (status < 200 || status >= 300) continue;
    if (operationId === "createUser") {
      const userId = (step.response?.body as { user_id?: unknown } | undefined)?.user_id;
      if (typeof userId === "string") created.set(userId, { workflowId: workflow.workflowId, userId, headers: step.request?.headers ?? {} });
    } else if (operationId === "deleteUser") {
      for (const userId of created.keys()) if (step.request?.url.includes(`/${userId}`)) created.delete(userId);
    }
  }
  return [...created.values()];
}

export async function deleteLeftovers(baseUrl: string, leftovers: Leftover[], sender: Sender): Promise<Check[]> {
  if (leftovers.length === 0) return [];
  const deleteUser = listOperations((await readBundle()) as JsonObject).find((op) => op.operationId === "deleteUser")!;
  const checks: Check[] = [];
  for (const leftover of leftovers) {
    const url = `${baseUrl}${deleteUser.template.replace("{user_id}", encodeURIComponent(leftover.userId))}`;
    const headers = Object.fromEntries(
      Object.entries(leftover.headers).filter(([name]) => name.toLowerCase() !== "content-type" && name.toLowerCase() !== "content-length"),
    );
    const outcome = await sender.send({ method: deleteUser.method, url, headers });
    // Gone already (404) is as good as deleted.
    const ok = outcome.kind === "answer" && ((outcome.status >= 200 && outcome.status < 300) || outcome.status === 404);
    checks.push({
      suite: "cleanup",
      name: `${leftover.workflowId}: user ${leftover.userId} it left`,
      status: ok ? "passed" : "failed",
      ...(ok ? {} : { detail: outcome.kind === "answer" ? `deleteUser answered ${outcome.status}` : `deleteUser ${outcome.error}` }),
      operationId: "deleteUser",
      ms: Math.round(outcome.ms),
    });
  }
  return checks;
}
