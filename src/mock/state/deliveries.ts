// Posts an event to each of a team's enabled webhook endpoints that takes its kind, signed with the endpoint's secret
// as the service signs (Standard Webhooks, src/webhooks/signature.ts), after the answer that caused it; a receiver that
// fails gets two more tries. Each delivery is logged on the team (GET /_mock/state shows the last ones).
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { signedHeaders } from "../../webhooks/signature.ts";
import { DELIVERY_LOG, isoAt, teamNow, type TeamState, type WebhookRecord } from "./model.ts";

const ATTEMPTS = 3;
const RETRY_DELAYS_MS = [250, 1_000];
const TIMEOUT_MS = 5_000;

/** Whether an endpoint's event_types (kinds, or prefixes ending with a dot; null for all) take a kind. */
export function takesKind(hook: WebhookRecord, kind: string): boolean {
  if (hook.event_types === null) return true;
  return hook.event_types.some((type) => (type.endsWith(".") ? kind.startsWith(type) : kind === type));
}

export type Deliver = (team: TeamState, event: { event_type: string }) => void;

export function createDeliverer(log: (line: string) => void): Deliver {
  return (team, event) => {
    for (const hook of team.webhooks.values()) {
      if (hook.enabled && takesKind(hook, event.event_type)) void deliverOne(team, hook, event, log);
    }
  };
}

async function deliverOne(team: TeamState, hook: WebhookRecord, event: { event_type: string }, log: (line: string) => void): Promise<void> {
  const body = JSON.stringify(event);
  const id = `msg_${randomUUID()}`;
  let status: number | null = null;
  let attempts = 0;
  while (attempts < ATTEMPTS) {
    attempts++;
    // Each attempt is signed anew with the wall clock, not the team's: a receiver checks the timestamp against its own.
    const signed = await signedHeaders(hook.secret, { id, timestamp: Date.now() / 1000, body });
    try {
      const response = await fetch(hook.url, {
        method: "POST",
        headers: { ...hook.headers, "content-type": "application/json", ...signed },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      status = response.status;
      if (status >= 200 && status < 300) break;
    } catch (error) {
      status = null;
      log(`mock webhook ${event.event_type} to ${hook.url}, attempt ${attempts}: ${(error as Error).message}`);
    }
    const delay = RETRY_DELAYS_MS[attempts - 1];
    if (delay !== undefined && attempts < ATTEMPTS) await sleep(delay);
  }
  team.deliveries.push({ event_type: event.event_type, webhook_id: hook.id, url: hook.url, status, attempts, at: isoAt(teamNow(team)) });
  if (team.deliveries.length > DELIVERY_LOG) team.deliveries.splice(0, team.deliveries.length - DELIVERY_LOG);
}
