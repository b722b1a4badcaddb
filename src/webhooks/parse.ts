// Parses an event delivery: verifies its signature and timestamp over the raw body, checks the envelope, and narrows by kind.
import { eventKinds } from "../../generated/events.js";
import { WebhookPayloadError, WebhookVerificationError } from "./webhook-errors.js";
import { sameSignature, secretKey, signature } from "./signature.js";
import type { EventEnvelope, HeaderSource, VerifyOptions, WebhookEvent } from "./event-types.js";

const KNOWN: ReadonlySet<string> = new Set(eventKinds);
const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (key.toLowerCase() === name) return typeof value === "string" ? value : value?.join(" ");
  }
  return undefined;
}

/**
 * Verifies a delivery and parses it. Pass the raw body exactly as received (a string or the bytes: not re-serialized
 * JSON), the request's headers, and the endpoint's secret, or every secret valid during a rotation. Throws
 * `WebhookVerificationError` when a header is missing, the timestamp is more than `toleranceSeconds` from now, or no
 * signature matches; `WebhookPayloadError` when the verified body is not an event.
 */
export async function parseWebhook(
  body: string | Uint8Array,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const secrets = typeof secret === "string" ? [secret] : [...secret];
  if (secrets.length === 0) throw new TypeError("parseWebhook needs the endpoint's secret (or every secret valid during a rotation)");
  for (const each of secrets) secretKey(each);
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("missing_header", "the message lacks webhook-id, webhook-timestamp or webhook-signature");
  }
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError("stale_timestamp", `the message's timestamp ${timestamp} is more than ${tolerance} s from now`);
  }
  const expected = await Promise.all(secrets.map((each) => signature(each, id, timestamp, body)));
  const given = signatures.split(" ").filter((entry) => entry.startsWith("v1,"));
  if (!given.some((entry) => expected.some((mine) => sameSignature(entry, mine)))) {
    throw new WebhookVerificationError("bad_signature", "no signature of the message matches the secret");
  }
  return parseWebhookUnverified(body);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses a body WITHOUT checking who sent it: for tests and replays of stored events only. Anyone can post a body to
 * your endpoint; in a receiver, call `parseWebhook`.
 */
export function parseWebhookUnverified(body: string | Uint8Array): WebhookEvent {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === "string" ? body : new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new WebhookPayloadError("the body is not JSON text");
  }
  if (!isObject(value)) throw new WebhookPayloadError("the body is not a JSON object");
  for (const field of ["event_type", "team_id", "user_id", "client_user_id"]) {
    if (typeof value[field] !== "string") throw new WebhookPayloadError(`the event has no string \`${field}\``);
  }
  if (!isObject(value.data)) throw new WebhookPayloadError("the event has no `data` object");
  const envelope = value as EventEnvelope;
  return (
    KNOWN.has(envelope.event_type) ? { kind: envelope.event_type, payload: envelope } : { kind: "unknown", eventType: envelope.event_type, payload: envelope }
  ) as WebhookEvent;
}
