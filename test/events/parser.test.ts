// The webhooks entry's parser: verifies signature and timestamp over the raw body, checks the envelope, narrows every
// known kind, keeps unknown kinds apart, and agrees with the standardwebhooks package on what a valid signature is.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  eventKinds,
  newSecret,
  parseWebhook,
  parseWebhookUnverified,
  signedHeaders,
  WebhookPayloadError,
  WebhookVerificationError,
} from "../../generated/webhooks/index.js";
import { examplePayloads } from "../../scripts/commands/send-events.ts";
import { contract, WEBHOOKS_AT_LEAST } from "../support/contract.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const payloads = examplePayloads(contract);

async function signed(body: string, options: { secret?: string | string[]; timestamp?: number; id?: string } = {}) {
  return signedHeaders(options.secret ?? SECRET, { id: options.id ?? "msg_test_1", timestamp: options.timestamp ?? Date.now() / 1000, body });
}

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe("parseWebhook", () => {
  it("knows every kind the contract lists", () => {
    expect([...eventKinds].sort()).toEqual(Object.keys(contract.webhooks as object).sort());
    expect(eventKinds.length).toBeGreaterThanOrEqual(WEBHOOKS_AT_LEAST);
  });

  for (const kind of eventKinds) {
    it(`verifies and narrows ${kind}`, async () => {
      const body = JSON.stringify(payloads.get(kind));
      const event = await parseWebhook(body, await signed(body), SECRET);
      expect(event.kind).toBe(kind);
      expect(event.payload).toEqual(payloads.get(kind));
    });
  }

  it("returns a kind added later under kind `unknown`, with its envelope", async () => {
    const body = JSON.stringify({ ...payloads.get("provider.connection.created"), event_type: "daily.data.blood_ketones.created", extra: 1 });
    const event = await parseWebhook(body, await signed(body), SECRET);
    expect(event).toMatchObject({ kind: "unknown", eventType: "daily.data.blood_ketones.created", payload: { extra: 1 } });
  });

  it("tolerates fields it does not know", async () => {
    const body = JSON.stringify({ ...payloads.get("daily.data.heartrate.created"), delivered_at: "2026-03-05T07:31:00Z" });
    const event = await parseWebhook(body, await signed(body), SECRET);
    expect(event.kind).toBe("daily.data.heartrate.created");
    expect((event.payload as Record<string, unknown>).delivered_at).toBe("2026-03-05T07:31:00Z");
  });

  it("takes the raw body as bytes and Node's header record", async () => {
    const body = JSON.stringify(payloads.get("daily.data.steps.created"));
    const headers = await signed(body);
    const event = await parseWebhook(
      Buffer.from(body),
      { "Webhook-Id": headers["webhook-id"], "webhook-timestamp": [headers["webhook-timestamp"]], "webhook-signature": headers["webhook-signature"] },
      SECRET,
    );
    expect(event.kind).toBe("daily.data.steps.created");
  });

  it("refuses a tampered body", async () => {
    const body = JSON.stringify(payloads.get("daily.data.glucose.created"));
    const headers = await signed(body);
    expect((await refusal(parseWebhook(body.replace("5.4", "9.9"), headers, SECRET))).reason).toBe("bad_signature");
  });

  it("refuses a message signed with another secret", async () => {
    const body = JSON.stringify(payloads.get("daily.data.glucose.created"));
    expect((await refusal(parseWebhook(body, await signed(body, { secret: newSecret() }), SECRET))).reason).toBe("bad_signature");
  });

  it("refuses a stale timestamp, and one from the future, beyond the tolerance", async () => {
    const body = JSON.stringify(payloads.get("daily.data.glucose.created"));
    const now = Date.now() / 1000;
    expect((await refusal(parseWebhook(body, await signed(body, { timestamp: now - 301 }), SECRET))).reason).toBe("stale_timestamp");
    expect((await refusal(parseWebhook(body, await signed(body, { timestamp: now + 301 }), SECRET))).reason).toBe("stale_timestamp");
    await expect(parseWebhook(body, await signed(body, { timestamp: now - 290 }), SECRET)).resolves.toBeDefined();
    await expect(parseWebhook(body, await signed(body, { timestamp: now - 600 }), SECRET, { toleranceSeconds: 900 })).resolves.toBeDefined();
  });

  it("refuses a message without its headers", async () => {
    const body = JSON.stringify(payloads.get("daily.data.glucose.created"));
    const headers = await signed(body);
    for (const missing of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const partial: Record<string, string> = { ...headers };
      delete partial[missing];
      expect((await refusal(parseWebhook(body, partial, SECRET))).reason).toBe("missing_header");
    }
  });

  it("accepts either secret during a rotation, signed with one or with both", async () => {
    const next = newSecret();
    const body = JSON.stringify(payloads.get("daily.data.weight.created"));
    await expect(parseWebhook(body, await signed(body, { secret: next }), [SECRET, next])).resolves.toMatchObject({ kind: "daily.data.weight.created" });
    await expect(parseWebhook(body, await signed(body, { secret: [SECRET, next] }), next)).resolves.toMatchObject({ kind: "daily.data.weight.created" });
  });

  it("refuses to run without a secret, or with one not in whsec_ form", async () => {
    const body = "{}";
    await expect(parseWebhook(body, await signed(body), [])).rejects.toThrow(TypeError);
    await expect(parseWebhook(body, await signed(body), "not-a-secret")).rejects.toThrow(/whsec_/);
  });

  it("never trusts a verified body that is not an event", async () => {
    for (const body of [
      "not json",
      "[]",
      "null",
      JSON.stringify({ event_type: "daily.data.steps.created", team_id: "t", user_id: "u", client_user_id: "c" }),
      JSON.stringify({ event_type: 7, team_id: "t", user_id: "u", client_user_id: "c", data: {} }),
    ]) {
      await expect(parseWebhook(body, await signed(body), SECRET), body).rejects.toBeInstanceOf(WebhookPayloadError);
    }
    await expect(parseWebhook(Buffer.from([0xff, 0xfe, 0x7b]), await signed("\u00ff"), SECRET)).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});

describe("parseWebhookUnverified", () => {
  it("parses without a signature, for tests and replays", () => {
    const body = JSON.stringify(payloads.get("provider.connection.created"));
    expect(parseWebhookUnverified(body).kind).toBe("provider.connection.created");
  });

  it("refuses bytes that are not UTF-8 as not JSON", () => {
    expect(() => parseWebhookUnverified(new Uint8Array([0xff, 0xfe, 0x7b]))).toThrow(WebhookPayloadError);
  });
});

describe("agreement with the standardwebhooks package", () => {
  it("its verifier accepts what this package signs", async () => {
    const body = JSON.stringify(payloads.get("daily.data.heartrate.created"));
    expect(new Webhook(SECRET).verify(body, await signed(body))).toEqual(payloads.get("daily.data.heartrate.created"));
  });

  it("this parser accepts what it signs, and refuses its signature of another body", async () => {
    const body = JSON.stringify(payloads.get("daily.data.heartrate.created"));
    const id = "msg_from_standardwebhooks";
    const timestamp = new Date();
    const signature = new Webhook(SECRET).sign(id, timestamp, body);
    const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)), "webhook-signature": signature };
    await expect(parseWebhook(body, headers, SECRET)).resolves.toMatchObject({ kind: "daily.data.heartrate.created" });
    await expect(parseWebhook(`${body} `, headers, SECRET)).rejects.toBeInstanceOf(WebhookVerificationError);
  });
});
