// `npm run events -- --to <url> [--kind <kind>] [--secret <whsec_...>]`: posts each event kind's example from the bundled
// contract to a receiver, signed as the service signs it, and reports per kind what the receiver answered (a redirect
// is an answer, never followed). Without --secret it signs with a new secret and prints it, on purpose: the person
// running it gives that secret to the receiver.
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { deref } from "../../src/contract/operations.ts";
import { readBundle } from "../build/lib/paths.ts";
import { isObject, type JsonObject } from "../../src/contract/json.ts";
import { isMain } from "../build/lib/cli.ts";
import { newSecret, signedHeaders } from "../../src/webhooks/signature.ts";

export interface Delivery {
  kind: string;
  /** The receiver's status, or undefined when it gave none within the timeout. */
  status: number | undefined;
  ms: number;
  error?: string;
  /** Where a redirect pointed: never followed, since the event would go to an address the receiver chose. */
  location?: string;
}

/** The resource an event kind is about (`daily.data.heartrate.created` → `heartrate`), which names its example. */
function resourceOf(kind: string): string {
  const parts = kind.split(".");
  return parts.length === 4 ? parts[2]! : kind.replaceAll(".", "_");
}

/**
 * Each kind's payload: its family's example for the kind's resource (or the family's first example), with
 * `event_type` set to the kind, so every kind sends a body its schema accepts.
 */
export function examplePayloads(document: JsonObject): Map<string, JsonObject> {
  const payloads = new Map<string, JsonObject>();
  for (const [kind, item] of Object.entries((document.webhooks ?? {}) as JsonObject)) {
    const operation = deref(document, deref(document, item).post);
    const media = (deref(document, operation.requestBody).content as JsonObject)["application/json"] as JsonObject;
    const examples = (media.examples ?? {}) as JsonObject;
    const chosen = examples[resourceOf(kind)] ?? Object.values(examples)[0];
    const value = deref(document, chosen).value;
    if (!isObject(value)) throw new Error(`send-events: the ${kind} event has no example`);
    payloads.set(kind, { ...structuredClone(value), event_type: kind });
  }
  return payloads;
}

export interface SendOptions {
  to: string;
  secret: string;
  kinds?: string[];
  timeoutMs?: number;
}

/** Posts every chosen kind, one after another, and returns what the receiver answered to each. */
export async function sendEvents(document: JsonObject, options: SendOptions): Promise<Delivery[]> {
  const payloads = examplePayloads(document);
  const kinds = options.kinds ?? [...payloads.keys()];
  const unknown = kinds.filter((kind) => !payloads.has(kind));
  if (unknown.length > 0) throw new Error(`send-events: no such event kind: ${unknown.join(", ")}`);
  const deliveries: Delivery[] = [];
  for (const kind of kinds) {
    const body = JSON.stringify(payloads.get(kind));
    const headers = await signedHeaders(options.secret, { id: `msg_${randomUUID()}`, timestamp: Date.now() / 1000, body });
    const started = performance.now();
    try {
      const response = await fetch(options.to, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "svc-events-sender", ...headers },
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        redirect: "manual",
      });
      await response.body?.cancel();
      const location = response.headers.get("location");
      deliveries.push({ kind, status: response.status, ms: performance.now() - started, ...(location === null ? {} : { location }) });
    } catch (error) {
      deliveries.push({ kind, status: undefined, ms: performance.now() - started, error: (error as Error).message });
    }
  }
  return deliveries;
}

function verdict(delivery: Delivery): string {
  if (delivery.status === undefined) return `no answer (${delivery.error}): the service would retry`;
  if (delivery.status >= 300 && delivery.status < 400) return `refused: a redirect${delivery.location ? ` to ${delivery.location}` : ""}, not followed`;
  return delivery.status >= 200 && delivery.status < 300 ? "delivered" : "refused: the service would retry";
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { to: { type: "string" }, kind: { type: "string", multiple: true }, secret: { type: "string" } } });
  if (!values.to) {
    console.error("usage: npm run events -- --to <url> [--kind <kind> ...] [--secret <whsec_...>]");
    process.exit(2);
  }
  const secret = values.secret ?? newSecret();
  if (!values.secret) console.log(`Signing with a new secret (give your receiver this one, or pass --secret): ${secret}`);
  try {
    const deliveries = await sendEvents(await readBundle(), { to: values.to, secret, ...(values.kind ? { kinds: values.kind } : {}) });
    for (const d of deliveries) console.log(`${String(d.status ?? "---").padEnd(4)} ${d.ms.toFixed(0).padStart(5)} ms  ${d.kind}  ${verdict(d)}`);
    const failed = deliveries.filter((d) => d.status === undefined || d.status < 200 || d.status >= 300);
    console.log(`\nevents: ${deliveries.length - failed.length} delivered, ${failed.length} refused or unanswered, to ${values.to}`);
    process.exitCode = failed.length === 0 ? 0 : 1;
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 2;
  }
}
