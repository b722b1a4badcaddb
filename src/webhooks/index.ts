// The package's webhooks entry: the verifying parser of event deliveries, its errors and types, and signing for senders and tests.
export { eventKinds } from "../../generated/events.js";
export { WebhookPayloadError, WebhookVerificationError } from "./webhook-errors.js";
export type { WebhookVerificationReason } from "./webhook-errors.js";
export { parseWebhook, parseWebhookUnverified } from "./parse.js";
export { newSecret, signedHeaders } from "./signature.js";
export type {
  EventEnvelope,
  EventKind,
  EventPayload,
  HeaderSource,
  KnownWebhookEvent,
  UnknownWebhookEvent,
  VerifyOptions,
  WebhookEvent,
} from "./event-types.js";
