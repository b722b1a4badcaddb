// The events' types, from the contract's `webhooks`: each kind's exact payload, and the parser's result narrowed by kind.
import type { webhooks } from "../../generated/schema.js";

/** Every event kind the contract lists, such as `daily.data.heartrate.created` or `provider.connection.created`. */
export type EventKind = keyof webhooks & string;

type FamilyPayload<K extends EventKind> = NonNullable<webhooks[K]["post"]> extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

/**
 * The payload of one kind. A family whose members each list their kinds (summaries) narrows to the member; a family
 * whose kinds share one shape (timeseries) is that shape with `event_type` fixed to the kind.
 */
export type EventPayload<K extends EventKind> = [Extract<FamilyPayload<K>, { event_type: K }>] extends [never]
  ? FamilyPayload<K> & { event_type: K }
  : Extract<FamilyPayload<K>, { event_type: K }>;

/** A known event: `kind` is its event kind, and narrowing on it gives `payload` its exact type. */
export type KnownWebhookEvent = { [K in EventKind]: { kind: K; payload: EventPayload<K> } }[EventKind];

/** The envelope every event has, whatever its kind. */
export interface EventEnvelope {
  event_type: string;
  team_id: string;
  user_id: string;
  client_user_id: string;
  data: unknown;
  [field: string]: unknown;
}

/** An event of a kind this package does not know yet (the service added it later): its envelope, its data untyped. */
export interface UnknownWebhookEvent {
  kind: "unknown";
  eventType: string;
  payload: EventEnvelope;
}

/** What the parser returns: narrow on `kind`; kinds added later arrive as `kind: "unknown"`, so narrowing on known kinds stays exact. */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/** Options of `parseWebhook`. */
export interface VerifyOptions {
  /** How far the message's timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number | undefined;
}

/** Headers as a `Headers` object (fetch, web frameworks) or a plain record (Node's `req.headers`). */
export type HeaderSource = Headers | Record<string, string | readonly string[] | undefined>;
