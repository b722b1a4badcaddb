// The errors of webhook parsing: a message whose signature, timestamp or headers do not check out, and a body that is not an event.

/** Why a message was refused before its body was trusted. */
export type WebhookVerificationReason = "missing_header" | "stale_timestamp" | "bad_signature";

/** The message did not come signed by the service with one of the given secrets, or not recently: do not process it. */
export class WebhookVerificationError extends globalThis.Error {
  readonly reason: WebhookVerificationReason;
  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.reason = reason;
  }
}

/** The body is not JSON, or not an event: it lacks `event_type`, `team_id`, `user_id`, `client_user_id` or `data`. */
export class WebhookPayloadError extends globalThis.Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookPayloadError";
  }
}
