// verify's judgement of the connection workflow's event, by its parts, against a real receiver on 127.0.0.1 to which
// the test posts the deliveries itself: each fault fails the one check about it, and only no delivery fails "arrived".
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/check.ts";
import { checkDelivery, type EventWorkflow } from "../../src/verify/workflows/delivery.ts";
import { startReceiver, type Receiver } from "../../src/verify/workflows/receiver.ts";
import { newSecret, signedHeaders } from "../../src/webhooks/signature.ts";
import { examplePayloads } from "../../scripts/commands/send-events.ts";
import { contract } from "../support/contract.ts";
import { EventContract } from "../../src/verify/workflows/event-contract.ts";

const events = new EventContract(contract);

const WORKFLOW: EventWorkflow = {
  id: "connection-webhook",
  event: "provider.connection.created",
  endpointStep: "createEndpoint",
  userStep: "createUser",
  teamStep: "createTeam",
};
const SECRET = newSecret();
const USER = "0b9d8c7e-6f5a-4b3c-8d2e-1f0a9b8c7d6e";
const TEAM = "5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c";
/** What respect's log holds of the workflow's steps: the endpoint's secret, the user and the team. */
const RUN = {
  executedSteps: [
    { stepId: "createTeam", response: { body: { id: TEAM } } },
    { stepId: "createEndpoint", response: { body: { secret: SECRET } } },
    { stepId: "createUser", response: { body: { user_id: USER } } },
  ],
};
/** Short, so that the cases where the right delivery never comes stay fast. */
const TIMEOUT_MS = 100;

function event(): Record<string, unknown> {
  return { ...structuredClone(examplePayloads(contract).get(WORKFLOW.event)!), user_id: USER, team_id: TEAM };
}

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await receiver.close();
});

/** Posts a delivery as the service does, signed (with another secret, or without a header, when asked). */
async function deliver(payload: unknown, change: { secret?: string; without?: string; timestamp?: number } = {}): Promise<void> {
  const body = JSON.stringify(payload);
  const signed: Record<string, string> = await signedHeaders(change.secret ?? SECRET, {
    id: "msg_delivery_test",
    timestamp: change.timestamp ?? Date.now() / 1000,
    body,
  });
  if (change.without !== undefined) delete signed[change.without];
  const answer = await fetch(receiver.url, { method: "POST", headers: { "content-type": "application/json", ...signed }, body });
  expect(answer.status).toBe(204);
}

/** Each check names the workflow and the event kind it is about. */
const PREFIX = "connection-webhook / provider.connection.created: ";

/** Each part's check by the part's name (`arrived`, `signature`, ...). */
async function judged(): Promise<Record<string, Check>> {
  const checks = await checkDelivery(receiver, RUN, WORKFLOW, events, { timeoutMs: TIMEOUT_MS });
  expect(checks.every((check) => check.suite === "workflow connection-webhook" && check.name.startsWith(PREFIX) && check.event === WORKFLOW.event)).toBe(true);
  return Object.fromEntries(checks.map((check) => [check.name.slice(PREFIX.length), check]));
}

function statuses(checks: Record<string, Check>): Record<string, string> {
  return Object.fromEntries(Object.entries(checks).map(([part, check]) => [part, check.status]));
}

const ALL_PASSED = {
  arrived: "passed",
  timestamp: "passed",
  signature: "passed",
  "required headers": "passed",
  "payload schema": "passed",
  "user and team ids": "passed",
};

describe("a webhook delivery judged by its parts", () => {
  it("passes every part for a right delivery, and judges the one naming the user over an earlier one", async () => {
    await deliver({ ...event(), user_id: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f" });
    await deliver(event());
    const checks = await judged();
    expect(statuses(checks)).toEqual(ALL_PASSED);
    expect(Object.values(checks).map((check) => check.detail)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it("fails only `arrived` when nothing came, and skips the rest", async () => {
    const checks = await judged();
    expect(checks.arrived).toMatchObject({ status: "failed", detail: `no delivery reached the receiver within ${TIMEOUT_MS} ms of the workflow's end` });
    for (const part of ["timestamp", "signature", "required headers", "payload schema", "user and team ids"]) {
      expect(checks[part]).toMatchObject({ status: "skipped", detail: "not judged: no delivery to judge" });
    }
  });

  it("fails only the signature for one made with another secret", async () => {
    await deliver(event(), { secret: newSecret() });
    const checks = await judged();
    expect(statuses(checks)).toEqual({ ...ALL_PASSED, signature: "failed" });
    expect(checks.signature!.detail).toContain("no signature of the message matches the secret");
    expect(checks.signature!.detail).not.toContain(SECRET);
  });

  it("fails the required headers, naming the one missing, and leaves the signature it was needed for unjudged", async () => {
    await deliver(event(), { without: "webhook-timestamp" });
    const checks = await judged();
    expect(statuses(checks)).toEqual({ ...ALL_PASSED, "required headers": "failed", signature: "skipped", timestamp: "skipped" });
    expect(checks["required headers"]!.detail).toBe("webhook-timestamp is missing");
  });

  it("fails the timestamp, not the signature, for a delivery signed with its timestamp in milliseconds", async () => {
    await deliver(event(), { timestamp: Date.now() });
    const checks = await judged();
    expect(statuses(checks)).toEqual({ ...ALL_PASSED, timestamp: "failed" });
    expect(checks.timestamp!.detail).toMatch(/^webhook-timestamp \d{13} is in milliseconds: the timestamp is whole seconds since the epoch/);
  });

  it("fails the timestamp, naming how far off it is, for one an hour old", async () => {
    await deliver(event(), { timestamp: Date.now() / 1000 - 3600 });
    const checks = await judged();
    expect(statuses(checks)).toEqual({ ...ALL_PASSED, timestamp: "failed" });
    expect(checks.timestamp!.detail).toMatch(/^webhook-timestamp \d{10} is 360\d s from when the delivery arrived; a receiver refuses more than 300 s$/);
  });

  it("judges a delivery without user_id by its payload and ids, not as one that did not arrive", async () => {
    const { user_id: _left, ...withoutUser } = event();
    await deliver(withoutUser);
    const checks = await judged();
    expect(statuses(checks)).toEqual({ ...ALL_PASSED, "payload schema": "failed", "user and team ids": "failed" });
    expect(checks.arrived!.detail).toBe(`1 delivery arrived, none naming user ${USER}: the first is judged`);
    expect(checks["payload schema"]!.detail).toBe("payload /user_id is required");
    expect(checks["user and team ids"]!.detail).toBe(`user_id is missing, not ${USER}`);
  });

  it("fails only the ids for another team's event", async () => {
    const other = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
    await deliver({ ...event(), team_id: other });
    const checks = await judged();
    expect(statuses(checks)).toEqual({ ...ALL_PASSED, "user and team ids": "failed" });
    expect(checks["user and team ids"]!.detail).toBe(`team_id is ${other}, not ${TEAM}`);
  });
});
