// The steps that answer from the contract: the declared answer chosen (by `Prefer`, or by the first branch of the
// document's rules the request meets), its collection cut to the page and filters asked for, then sent, or invented by
// Prism when `Prefer: dynamic=true` asks.
import { preferChoosesNothing, preferNotUnderstood } from "../refusals.ts";
import type { JsonObject } from "../../contract/json.ts";
import { parsePrefer, pick } from "../static-answers.ts";
import { chooseBranch } from "../branches.ts";
import { DYNAMIC_FALLBACK, dynamicAnswer } from "../prism-answers.ts";
import { headerValue, jsonReply } from "../http-vocabulary.ts";
import { encodeText } from "../platform.ts";
import { cutsCollection, shapeCollection } from "../whole-collection.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";

const decoder = new TextDecoder();

export function branch(x: Exchange, context: StepContext): Outcome {
  const header = headerValue(x.headers, "prefer");
  const prefer = header !== undefined && header.trim() !== "" ? header : undefined;
  const answers = context.answersFor(x.match);
  try {
    // A Prefer header chooses; otherwise the first branch of the document's rules the request meets (x-svc-mock-branches).
    x.choice = prefer !== undefined ? parsePrefer(prefer) : (chooseBranch(answers.branches, { body: x.body, query: x.url.searchParams })?.answer ?? {});
  } catch (error) {
    const message = (error as Error).message;
    return preferNotUnderstood(message);
  }
  // Chosen even for a dynamic answer: an undeclared status or example is refused alike, and it is the fallback.
  const answer = pick(answers, x.match.operation.operationId, x.choice);
  if (typeof answer === "string") return preferChoosesNothing(answer);
  x.answer = answer;
  return undefined;
}

/**
 * Cuts and filters the collection a declared success holds as the query asks (x-svc-paging, x-svc-filter): an example
 * is a whole collection, so `size=1` answers one item and says so, and a filter keeps only what matches it.
 */
export function collection(x: Exchange, context: StepContext): Outcome {
  const marks = context.answersFor(x.match).collections;
  if (x.choice.dynamic === true || !cutsCollection(x.answer.status, marks)) return undefined;
  const shaped = shapeCollection(JSON.parse(decoder.decode(x.answer.body)) as JsonObject, marks, x.url.searchParams);
  x.answer = { ...x.answer, body: encodeText(JSON.stringify(shaped)) };
  return undefined;
}

export async function respond(x: Exchange, context: StepContext): Promise<Outcome> {
  let fallback: string[] = [];
  if (x.choice.dynamic === true) {
    const dynamic = await dynamicAnswer(
      context.prism,
      context.validator,
      { requestHeaders: x.headers, match: x.match, url: x.url, method: x.method, body: x.body, choice: x.choice, headers: context.readHeaders },
      context.log,
    );
    if (dynamic.answer) {
      // The headers the contract requires of that status (a 429's Retry-After), as a declared answer sends them.
      const required = context.answersFor(x.match).byStatus.get(dynamic.answer.status)?.values().next().value?.headers ?? [];
      x.reply = jsonReply(x.headers, dynamic.answer.status, dynamic.answer.body, required);
      return ANSWERED;
    }
    fallback = [DYNAMIC_FALLBACK, dynamic.why];
  }
  x.reply = jsonReply(x.headers, x.answer.status, x.answer.body, [...x.answer.headers, ...fallback]);
  return ANSWERED;
}
