// Judges the event a workflow's connection caused by its parts, a check each: that a delivery arrived, its signature
// (the package's own ./webhooks parser, with the endpoint's secret), the headers the contract requires, its payload
// against the contract's schema, and its kind, user and team. Apart, so that a delivery lacking a field is reported
// as that field, and only a delivery that never came as one that did not arrive.
import { parseWebhook, WebhookPayloadError, WebhookVerificationError } from "../../../generated/webhooks/index.js";
import type { Check } from "../check.ts";
import type { JsonObject } from "../../contract/json.ts";
import { isObject, readJson } from "../../contract/json.ts";
import type { EventContract } from "./event-contract.ts";
import type { Delivery, Receiver } from "./receiver.ts";

/** How long the event may take to arrive after the workflow that caused it ended. */
const DELIVERY_TIMEOUT_MS = 5_000;

/** The parts a delivery is judged by, in the order they are reported. */
export const DELIVERY_PARTS = ["arrived", "timestamp", "signature", "required headers", "payload schema", "user and team ids"] as const;

/** How far a delivery's timestamp may be from its arrival: what a receiver using the ./webhooks parser accepts by default. */
const TOLERANCE_SECONDS = 300;
type Part = (typeof DELIVERY_PARTS)[number];

/** The workflow whose event is received: its id, the event's kind, and the steps that answered its secret, user and team. */
export interface EventWorkflow {
  id: string;
  event: string;
  endpointStep: string;
  userStep: string;
  teamStep: string;
}

interface ExecutedWorkflow {
  executedSteps: { stepId: string; response?: { body: unknown } }[];
}

type Verdict = Pick<Check, "status" | "detail">;

/** A part's check, named after the event kind it is about (a team with many kinds searches for it). */
function partCheck(workflow: EventWorkflow, part: Part, verdict: Verdict, ms = 0): Check {
  return { suite: `workflow ${workflow.id}`, name: `${workflow.id} / ${workflow.event}: ${part}`, event: workflow.event, ...verdict, ms };
}

/** Every part skipped, for a workflow whose steps did not all pass (the event may never have been caused). */
export function deliverySkipped(workflow: EventWorkflow, detail: string): Check[] {
  return DELIVERY_PARTS.map((part) => partCheck(workflow, part, { status: "skipped", detail }));
}

export async function checkDelivery(
  receiver: Receiver,
  run: ExecutedWorkflow,
  workflow: EventWorkflow,
  events: EventContract,
  options: { timeoutMs?: number } = {},
): Promise<Check[]> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const answer = (stepId: string) => run.executedSteps.find((step) => step.stepId === stepId)?.response?.body as JsonObject | undefined;
  const secret = answer(workflow.endpointStep)?.secret;
  const userId = answer(workflow.userStep)?.user_id;
  const teamId = answer(workflow.teamStep)?.id;
  // The delivery naming the workflow's user if one comes; else the first that came, so that one without the user's id
  // is judged by its parts rather than taken for lost.
  const about = await receiver.next((each) => typeof userId !== "string" || each.body.includes(userId), timeoutMs);
  const delivery = about ?? receiver.deliveries[0];
  const ms = Math.round(performance.now() - started);
  if (delivery === undefined) {
    return [
      partCheck(workflow, "arrived", { status: "failed", detail: `no delivery reached the receiver within ${timeoutMs} ms of the workflow's end` }, ms),
      ...DELIVERY_PARTS.slice(1).map((part) => partCheck(workflow, part, { status: "skipped", detail: "not judged: no delivery to judge" })),
    ];
  }
  const count = receiver.deliveries.length;
  const arrived: Verdict =
    about === undefined
      ? { status: "passed", detail: `${count} ${count === 1 ? "delivery" : "deliveries"} arrived, none naming user ${String(userId)}: the first is judged` }
      : { status: "passed" };
  const payload = readJson(delivery.body);
  return [
    partCheck(workflow, "arrived", arrived, ms),
    partCheck(workflow, "timestamp", timestamp(delivery)),
    partCheck(workflow, "signature", await signature(delivery, secret, workflow.endpointStep)),
    partCheck(workflow, "required headers", headers(events, delivery, workflow.event)),
    partCheck(workflow, "payload schema", payloadSchema(events, payload, workflow.event)),
    partCheck(workflow, "user and team ids", ids(payload, workflow.event, userId, teamId)),
  ];
}

/** The webhook-timestamp header: whole seconds since the epoch, near when the delivery arrived. */
function timestamp(delivery: Delivery): Verdict {
  const said = delivery.headers["webhook-timestamp"];
  if (typeof said !== "string" || said === "") return { status: "skipped", detail: "not judged: webhook-timestamp is missing (see required headers)" };
  if (!/^\d+$/.test(said)) return { status: "failed", detail: `webhook-timestamp ${JSON.stringify(said.slice(0, 40))} is not whole seconds since the epoch` };
  const seconds = Number(said);
  const off = Math.round(Math.abs(seconds - delivery.receivedAt));
  if (off <= TOLERANCE_SECONDS) return { status: "passed" };
  // A clock in milliseconds (or microseconds) lands within the tolerance once divided: say the unit, not a skew.
  for (const [unit, per] of [
    ["milliseconds", 1e3],
    ["microseconds", 1e6],
  ] as const) {
    if (Math.abs(seconds / per - delivery.receivedAt) <= TOLERANCE_SECONDS) {
      return {
        status: "failed",
        detail: `webhook-timestamp ${said} is in ${unit}: the timestamp is whole seconds since the epoch (a receiver refuses it as ${off} s away)`,
      };
    }
  }
  return {
    status: "failed",
    detail: `webhook-timestamp ${said} is ${off} s from when the delivery arrived; a receiver refuses more than ${TOLERANCE_SECONDS} s`,
  };
}

async function signature(delivery: Delivery, secret: unknown, endpointStep: string): Promise<Verdict> {
  if (typeof secret !== "string") return { status: "failed", detail: `step ${endpointStep} answered no secret to check it with` };
  try {
    // The signature alone: how far the timestamp is from now is the timestamp check's to report.
    await parseWebhook(delivery.body, delivery.headers, secret, { toleranceSeconds: Number.MAX_SAFE_INTEGER });
    return { status: "passed" };
  } catch (error) {
    // The parser reads the payload only once the signature holds: a payload it refuses is the payload check's to report.
    if (error instanceof WebhookPayloadError) return { status: "passed" };
    if (error instanceof WebhookVerificationError && error.reason === "missing_header") {
      return { status: "skipped", detail: `not judged: ${error.message} (see required headers)` };
    }
    if (error instanceof WebhookVerificationError && error.reason === "stale_timestamp") {
      return { status: "skipped", detail: "not judged: the timestamp it is signed with is not whole seconds (see timestamp)" };
    }
    return { status: "failed", detail: `the ./webhooks parser refused it with step ${endpointStep}'s secret: ${(error as Error).message}` };
  }
}

function headers(events: EventContract, delivery: Delivery, kind: string): Verdict {
  const problems = events.headerProblems(kind, delivery.headers);
  return problems.length === 0 ? { status: "passed" } : { status: "failed", detail: problems.join("; ") };
}

function payloadSchema(events: EventContract, payload: { value: unknown } | undefined, expected: string): Verdict {
  if (payload === undefined) return { status: "failed", detail: "the body is not JSON" };
  // A delivery of another kind the contract defines keeps that kind's schema; its kind is the ids check's to report.
  const named = isObject(payload.value) ? payload.value.event_type : undefined;
  const kind = typeof named === "string" && events.defines(named) ? named : expected;
  const problems = events.payloadProblems(kind, payload.value);
  return problems.length === 0 ? { status: "passed" } : { status: "failed", detail: problems.map((problem) => `payload ${problem}`).join("; ") };
}

function ids(payload: { value: unknown } | undefined, kind: string, userId: unknown, teamId: unknown): Verdict {
  if (payload === undefined || !isObject(payload.value)) return { status: "skipped", detail: "not judged: the body is not a JSON object (see payload schema)" };
  const event = payload.value;
  const wrong = [
    event.event_type === kind ? undefined : `the event is ${shown(event.event_type)}, not ${kind}`,
    event.user_id === userId ? undefined : `user_id is ${shown(event.user_id)}, not ${String(userId)}`,
    event.team_id === teamId ? undefined : `team_id is ${shown(event.team_id)}, not ${String(teamId)}`,
  ].filter((line): line is string => line !== undefined);
  return wrong.length === 0 ? { status: "passed" } : { status: "failed", detail: wrong.join("; ") };
}

/** A field's value as a detail writes it: missing, a string as it is, anything else as (a little of) its JSON. */
function shown(value: unknown): string {
  if (value === undefined) return "missing";
  return typeof value === "string" ? value : JSON.stringify(value).slice(0, 80);
}
