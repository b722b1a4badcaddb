// Compiled by `npm run typecheck` (test/typecheck.test.ts): narrowing a parsed event by kind gives its exact payload.
import { parseWebhook, type EventPayload, type WebhookEvent } from "../../generated/webhooks/index.js";
import type { SleepCycle, TimeseriesData } from "../../generated/types/index.js";

export async function narrowsByKind(body: string, headers: Headers): Promise<number | string | undefined> {
  const event: WebhookEvent = await parseWebhook(body, headers, ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]);
  switch (event.kind) {
    case "daily.data.sleep_cycle.created": {
      const cycle: SleepCycle = event.payload.data;
      // @ts-expect-error a sleep cycle has no samples
      void event.payload.data.samples;
      return cycle.stages[0]?.stage.toUpperCase();
    }
    case "daily.data.heartrate.created": {
      const data: TimeseriesData = event.payload.data;
      // @ts-expect-error heart rate samples are not a sleep cycle
      void event.payload.data.stages;
      return data.samples[0]?.value;
    }
    case "provider.connection.created":
      return event.payload.data.provider.toUpperCase();
    case "unknown": {
      // A kind added later: its envelope is typed, its data is not.
      const data: unknown = event.payload.data;
      void data;
      return event.eventType;
    }
    default:
      return event.payload.team_id;
  }
}

// The payload of one kind, for handlers written per kind.
export const heartRate = (payload: EventPayload<"daily.data.heartrate.created">): "daily.data.heartrate.created" => payload.event_type;
// @ts-expect-error not a kind of the contract
export type NoSuchKind = EventPayload<"daily.data.nothing.created">;
