// State across calls, from the links the contract declares on an answer (OpenAPI `links`): after a call, each GET it
// links to reads back what the call sent, and a link carrying `x-svc-credential` is a call made with the credential
// the answer gave; after a delete of something verify made, the same links of its create find it gone (404 or 410)
// and its credential refused (401). Nothing here names an operation: the contract's links say it all.
import { isDeepStrictEqual } from "node:util";
import { isObject, type JsonObject } from "../../contract/json.ts";
import { responseLinks, type ResponseLink } from "../../contract/links.ts";
import type { ContractOperation } from "../../contract/operations.ts";
import type { Call } from "../calls.ts";
import type { Expectation, ReplayStep } from "../check.ts";
import { checkCall, ownCredential, skipCheck, skipReason, type VerifyContext } from "../context.ts";
import type { Created } from "../fixtures.ts";

/** What a failed state check adds: a server that keeps nothing fails them all, which says why. */
const NEEDS_STATE = "this check needs a server that keeps state (the package's mock does with --stateful)";

export interface Exchange {
  call: Call;
  status: number;
  body: unknown;
  /** What the item the call changed held before it (the body of the create that made it), when verify made it. */
  before?: unknown;
}

interface Link extends ResponseLink {
  target: ContractOperation;
}

/** The links an operation's answer with this status declares, with their target operations. */
function linksOf(context: VerifyContext, op: ContractOperation, status: number): Link[] {
  // A link that only hands an id on (`x-svc-state: none`) claims nothing a server must keep.
  return responseLinks(context.document, op, String(status)).flatMap((link) => {
    if (!link.state) return [];
    const target = context.operations.find((each) => each.operationId === link.operationId);
    return target === undefined ? [] : [{ ...link, target }];
  });
}

function pointerInto(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let node = value;
  for (const raw of pointer.replace(/^\//, "").split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    // An answer's own fields only: a pointer never reaches a prototype's.
    node = (isObject(node) || Array.isArray(node)) && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** A runtime expression of a link against the exchange it hangs on: `$response.body#/id`, `$request.path.team_id`. */
export function evaluate(expression: unknown, exchange: Exchange): unknown {
  if (typeof expression !== "string" || !expression.startsWith("$")) return expression;
  const body = /^\$(request|response)\.body(?:#(.*))?$/.exec(expression);
  if (body !== null) return pointerInto(body[1] === "request" ? exchange.call.body : exchange.body, body[2] ?? "");
  const part = /^\$request\.(path|query)\.(.+)$/.exec(expression);
  if (part !== null) return part[1] === "path" ? exchange.call.path[part[2]!] : exchange.call.query[part[2]!];
  return undefined;
}

/** The target's call: its valid call with this run's ids, and the link's parameters in place; undefined if one does not resolve. */
function linkedCall(context: VerifyContext, link: Link, exchange: Exchange): Call | undefined {
  const call = context.fixtures.apply(link.target, context.validCalls[link.target.operationId]!);
  for (const [qualified, expression] of Object.entries(link.parameters)) {
    const name = qualified.replace(/^(path|query|header|cookie)\./, "");
    const value = evaluate(expression, exchange);
    if (value === undefined) return undefined;
    const parameter = link.target.parameters.find((p) => p.name === name);
    if (parameter?.in === "query") call.query[name] = value;
    else call.path[name] = String(value);
  }
  return call;
}

/** A top-level field as a JSON pointer: what verify's sentences name, never a marked value. */
const pointer = (field: string) => `/${field.replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** What a read-back found wrong: the fields that read otherwise than sent, and whether each reads what it was before the write. */
interface Differences {
  lines: string[];
  /** Every wrong field reads the value it had before the write the server acknowledged. */
  stale: boolean;
}

/**
 * The fields a call sent that a read gives back otherwise, named by pointer (a field the contract marks is not
 * compared: a server may mask it, and its value is not written); `before` is what the item held before the call, when
 * the call changed something verify made.
 */
/**
 * Whether a read gives back what was sent: equal, where an object's field the read leaves out is not compared at any
 * depth, as at the top (a write-only field, such as a destination's access key, is sent and never read back).
 */
function readsBack(got: unknown, sent: unknown): boolean {
  if (isObject(got) && isObject(sent)) return Object.entries(sent).every(([field, value]) => !Object.hasOwn(got, field) || readsBack(got[field], value));
  if (Array.isArray(got) && Array.isArray(sent)) return got.length === sent.length && sent.every((value, i) => readsBack(got[i], value));
  return isDeepStrictEqual(got, sent);
}

function differences(context: VerifyContext, read: ContractOperation, sent: unknown, got: unknown, before: unknown): Differences {
  if (!isObject(sent) || !isObject(got)) return { lines: [], stale: false };
  const shown = context.redactor.response(read, 200, got) as JsonObject;
  const wrong = Object.entries(sent).filter(
    ([field, value]) => Object.hasOwn(got, field) && isDeepStrictEqual(shown[field], got[field]) && !readsBack(got[field], value),
  );
  const wasBefore = ([field]: [string, unknown]) => isObject(before) && Object.hasOwn(before, field) && isDeepStrictEqual(before[field], got[field]);
  return {
    lines: wrong.map(
      ([field, value]) =>
        `${pointer(field)} reads ${JSON.stringify(got[field])}, sent ${JSON.stringify(value)}${wasBefore([field, value]) ? " (its value before the update)" : ""}`,
    ),
    stale: wrong.length > 0 && wrong.every(wasBefore),
  };
}

/** What a read-back's failure says of its cause: a stale read when the old value came back, else a server that keeps nothing. */
function readBackHint(found: Differences, status: number): string {
  return found.stale ? `a stale read: the server acknowledged the update (${status}) and the read returns the value from before it` : NEEDS_STATE;
}

/**
 * What a read-back found wrong, as its failure says it, or undefined when the read gives back every field the call
 * sent: the pass and --replay judge a read-back with it.
 */
export function readBackProblem(context: VerifyContext, read: ContractOperation, exchange: Exchange, got: unknown): string | undefined {
  const found = differences(context, read, exchange.call.body, got, exchange.before);
  return found.lines.length === 0 ? undefined : `${found.lines.join("; ")}; ${readBackHint(found, exchange.status)}`;
}

/** A successful call as its links are resolved against, with what the item it changed held before, when verify made it. */
export function exchangeAfter(context: VerifyContext, op: ContractOperation, call: Call, status: number, body: unknown): Exchange {
  const item = context.fixtures.isCreate(op) === undefined ? context.fixtures.madeItem(call) : undefined;
  return { call, status, body, ...(item === undefined ? {} : { before: item.made.call.body }) };
}

/** Runs one linked call and records its check; `expect` is what it must answer. */
async function linkCheck(
  context: VerifyContext,
  name: string,
  link: Link,
  exchange: Exchange,
  expect: "read" | "accepted" | "gone" | "refused",
  steps: ReplayStep[],
): Promise<void> {
  const { target } = link;
  const credentialValue = link.credential === undefined ? undefined : evaluate(link.credential, exchange);
  const option = context.credentials.optionOf(target);
  const reason = skipReason(context, target, link.credential === undefined ? option : undefined);
  if (reason !== undefined) return skipCheck(context, "state", name, target, reason);
  const call = linkedCall(context, link, exchange);
  if (call === undefined || (link.credential !== undefined && typeof credentialValue !== "string")) {
    return skipCheck(context, "state", name, target, `link ${link.name}: a parameter it names is not in the answer`);
  }
  const credential =
    link.credential === undefined ? ownCredential(context, target) : { header: context.credentials.header(option!), value: credentialValue as string };
  if (link.credential !== undefined) context.redactor.rememberCredential(credentialValue as string);
  const statuses = expect === "gone" ? [404, 410] : expect === "refused" ? [401] : undefined;
  // The verdict is recorded by checkCall; a read-back that answered is compared here as well, as a check of its own name.
  const expectation: Expectation =
    statuses === undefined
      ? {
          kind: "refusal",
          statuses: Object.keys(target.responses)
            .filter((s) => /^2\d\d$/.test(s))
            .map(Number),
        }
      : { kind: "refusal", statuses };
  const checked = await checkCall(context, "state", name, target, call, credential, expectation, {
    // A server that keeps nothing answers a read as ever, and what was deleted as if it were there; any other failure is its own.
    note: (got) => (got !== undefined && (statuses === undefined ? got === 404 || got === 410 : got >= 200 && got < 300) ? NEEDS_STATE : undefined),
    steps,
  });
  if (expect === "read" && checked.verdict.status === "passed") {
    const problem = readBackProblem(context, target, exchange, checked.body);
    // Its replay makes the steps again and compares what the last of them sent with what the read gives back.
    const sent = { ...checked.sent, expect: expectation, steps, rule: { kind: "read-back" as const, step: steps.length - 1 } };
    context.record({
      suite: "state",
      name: name.replace(/answers$/, "reads back what was sent"),
      status: problem === undefined ? "passed" : "failed",
      ...(problem === undefined ? {} : { detail: problem, sent }),
      operationId: target.operationId,
      ms: 0,
    });
  }
}

/** A call as a check's step: what --replay sends again before the check's own request. */
export function stepOf(op: ContractOperation, call: Call): ReplayStep {
  return { operationId: op.operationId, call: structuredClone(call) };
}

/**
 * The state checks after a successful call of the pass: over the links of its answer, and, when it deleted something
 * verify made, over the links of that thing's create.
 */
export async function stateAfterCall(
  context: VerifyContext,
  op: ContractOperation,
  call: Call,
  status: number,
  body: unknown,
  deleted: Created | undefined,
): Promise<void> {
  if (status < 200 || status >= 300) return;
  const exchange = exchangeAfter(context, op, call, status, body);
  // Each check depends on the call it follows, and one after a delete on the create of what was deleted as well.
  const steps = [stepOf(op, call)];
  for (const link of linksOf(context, op, status)) {
    if (link.credential !== undefined)
      await linkCheck(
        context,
        `${op.operationId} → ${link.target.operationId}: a call made with the credential it gave answers`,
        link,
        exchange,
        "accepted",
        steps,
      );
    else if (link.target.method === "GET") await linkCheck(context, `${op.operationId} → ${link.target.operationId}: answers`, link, exchange, "read", steps);
  }
  if (deleted === undefined) return;
  const made: Exchange = deleted.made;
  const afterDelete = [stepOf(deleted.lifecycle.create, made.call), ...steps];
  for (const link of linksOf(context, deleted.lifecycle.create, made.status)) {
    if (link.credential !== undefined)
      await linkCheck(
        context,
        `${op.operationId} → ${link.target.operationId}: a call made with the deleted credential is refused`,
        link,
        made,
        "refused",
        afterDelete,
      );
    else if (link.target.method === "GET")
      await linkCheck(context, `${op.operationId} → ${link.target.operationId}: what was deleted is gone`, link, made, "gone", afterDelete);
  }
}
