// Checks the event a workflow's connection caused: a delivery to the harness's receiver that the package's own
// ./webhooks parser verifies with the endpoint's secret, of the kind provider.connection.created, about the
// workflow's team and user.
import { parseWebhook } from "../../generated/webhooks/index.js";
import type { Check } from "./checks.ts";
import type { Receiver } from "./receiver.ts";

/** How long the event may take to arrive after the step that caused it answered. */
const DELIVERY_TIMEOUT_MS = 5_000;

interface ExecutedWorkflow {
  executedSteps: { stepId: string; response?: { body: unknown } }[];
}

type Outcome = Pick<Check, "status" | "detail" | "ms">;

export async function checkDelivery(receiver: Receiver, run: ExecutedWorkflow, steps: { endpointStep: string; userStep: string; teamStep: string }): Promise<Outcome> {
  const started = performance.now();
  const bodyOf = (stepId: string) => run.executedSteps.find((step) => step.stepId === stepId)?.response?.body as Record<string, unknown> | undefined;
  const secret = bodyOf(steps.endpointStep)?.secret;
  const userId = bodyOf(steps.userStep)?.user_id;
  const teamId = bodyOf(steps.teamStep)?.id;
  if (typeof secret !== "string") return { status: "failed", detail: `step ${steps.endpointStep} answered no secret`, ms: 0 };
  const delivery = await receiver.next((each) => each.body.includes(String(userId)), DELIVERY_TIMEOUT_MS);
  const ms = Math.round(performance.now() - started);
  if (delivery === undefined) {
    return { status: "failed", detail: `no event about user ${String(userId)} reached the receiver within ${DELIVERY_TIMEOUT_MS} ms (${receiver.deliveries.length} other deliveries)`, ms };
  }
  try {
    const event = await parseWebhook(delivery.body, delivery.headers as Record<string, string>, secret);
    const payload = event.payload as { user_id?: unknown; team_id?: unknown };
    const wrong = [
      event.kind === "provider.connection.created" ? undefined : `the event is ${event.kind}`,
      payload.user_id === userId ? undefined : `user_id is ${String(payload.user_id)}, not ${String(userId)}`,
      payload.team_id === teamId ? undefined : `team_id is ${String(payload.team_id)}, not ${String(teamId)}`,
    ].filter((line): line is string => line !== undefined);
    return wrong.length === 0 ? { status: "passed", ms } : { status: "failed", detail: wrong.join("; "), ms };
  } catch (error) {
    return { status: "failed", detail: `the ./webhooks parser refused the delivery: ${(error as Error).message}`, ms };
  }
}
