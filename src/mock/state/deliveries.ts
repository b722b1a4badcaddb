// Posts an event to each of a team's enabled webhook endpoints that takes its kind, signed with the endpoint's secret
// as the service signs (Standard Webhooks, src/webhooks/signature.ts), after the answer that caused it; a receiver that
// fails gets two more tries. A bounded number run at once and wait in a bounded queue: a receiver that never answers
// holds a few sockets, not one per event. Each delivery is logged on the team (GET /_mock/state shows the last ones).
import { randomId, sleep } from "../platform.ts";
import { signedHeaders } from "../../webhooks/signature.ts";
import { DELIVERY_LOG, isoAt, teamNow, type DeliveryRecord, type TeamState, type WebhookRecord } from "./model.ts";

const ATTEMPTS = 3;
const RETRY_DELAYS_MS = [250, 1_000];
const TIMEOUT_MS = 5_000;
/** Deliveries in flight at once, across teams. */
export const DELIVERY_CONCURRENCY = 16;
/** Deliveries waiting for a slot; past it a delivery is dropped, and logged as such. */
export const DELIVERY_QUEUE = 1_000;

/** Whether an endpoint's event_types (kinds, or prefixes ending with a dot; null for all) take a kind. */
export function takesKind(hook: WebhookRecord, kind: string): boolean {
  if (hook.event_types === null) return true;
  return hook.event_types.some((type) => (type.endsWith(".") ? kind.startsWith(type) : kind === type));
}

export type Deliver = (team: TeamState, event: { event_type: string }) => void;

interface Job {
  team: TeamState;
  hook: WebhookRecord;
  event: { event_type: string };
}

function logDelivery(team: TeamState, entry: Omit<DeliveryRecord, "at">): void {
  team.deliveries.push({ ...entry, at: isoAt(teamNow(team)) });
  if (team.deliveries.length > DELIVERY_LOG) team.deliveries.splice(0, team.deliveries.length - DELIVERY_LOG);
}

export function createDeliverer(log: (line: string) => void): Deliver {
  const queue: Job[] = [];
  let running = 0;
  const next = () => {
    while (running < DELIVERY_CONCURRENCY && queue.length > 0) {
      const job = queue.shift()!;
      running++;
      void deliverOne(job, log).finally(() => {
        running--;
        next();
      });
    }
  };
  return (team, event) => {
    for (const hook of team.webhooks.values()) {
      if (!hook.enabled || !takesKind(hook, event.event_type)) continue;
      if (queue.length >= DELIVERY_QUEUE) {
        log(`mock webhook ${event.event_type} to ${logged(hook.url)}: dropped, ${DELIVERY_QUEUE} deliveries already wait`);
        logDelivery(team, { event_type: event.event_type, webhook_id: hook.id, url: hook.url, status: null, attempts: 0 });
        continue;
      }
      // The endpoint as it is now: a later update or rotation does not change what this event was sent to.
      queue.push({ team, hook: { ...hook }, event });
    }
    next();
  };
}

/** An endpoint's URL as the log writes it: a receiver's query often carries a token of its own, and is left out. */
function logged(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search === "" ? "" : "?[query not logged]"}`;
  } catch {
    return "[not a URL]";
  }
}

async function deliverOne({ team, hook, event }: Job, log: (line: string) => void): Promise<void> {
  const body = JSON.stringify(event);
  const id = `msg_${randomId()}`;
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
        // A receiver's redirect is its answer, as the service would take it: the mock is sent nowhere else.
        redirect: "manual",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      // Only the status matters; the receiver's body is not read into memory.
      await response.body?.cancel().catch(() => undefined);
      status = response.status;
      if (status >= 200 && status < 300) break;
    } catch (error) {
      status = null;
      log(`mock webhook ${event.event_type} to ${logged(hook.url)}, attempt ${attempts}: ${(error as Error).message}`);
    }
    const delay = RETRY_DELAYS_MS[attempts - 1];
    if (delay !== undefined && attempts < ATTEMPTS) await sleep(delay);
  }
  logDelivery(team, { event_type: event.event_type, webhook_id: hook.id, url: hook.url, status, attempts });
}
