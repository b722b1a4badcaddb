// The step that makes the service slow or failing on purpose, as a team's conditions ask (conditions.ts): after the
// latency, a dropped connection, a declared failure (429 with Retry-After, or 500) in place of the answer, or nothing.
import { conditionFailure } from "../refusals.ts";
import { jsonReply } from "../http-vocabulary.ts";
import { sleep } from "../platform.ts";
import type { Fate } from "../conditions.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";

function decide(x: Exchange, context: StepContext, fate: Fate): Outcome {
  if (fate.drop) {
    x.condition = "dropped";
    x.reply = { status: 0, headers: [], drop: true };
    return ANSWERED;
  }
  if (fate.failure === undefined) return undefined;
  x.condition = `failure ${fate.failure}`;
  // The operation's own declared answer for that status: its example body and required headers, Retry-After set to
  // what the conditions say.
  const declared = context.answersFor(x.match).byStatus.get(fate.failure)?.values().next().value;
  if (declared === undefined) return conditionFailure(fate.failure);
  const headers: string[] = [];
  for (let i = 0; i < declared.headers.length; i += 2) {
    const name = declared.headers[i]!;
    headers.push(name, name === "retry-after" ? String(fate.retryAfterS) : declared.headers[i + 1]!);
  }
  if (fate.failure === 429 && !headers.includes("retry-after")) headers.push("retry-after", String(fate.retryAfterS));
  x.reply = jsonReply(x.headers, fate.failure, declared.body, headers);
  return ANSWERED;
}

export function condition(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  // Without conditions anywhere (the usual case), a request costs no look for its team.
  if (context.conditions.idle) return undefined;
  const fate = context.conditions.draw(context.teamOf(x.headers));
  if (fate === undefined) return undefined;
  if (fate.latencyMs === 0) return decide(x, context, fate);
  x.condition = `latency ${fate.latencyMs} ms`;
  return sleep(fate.latencyMs).then(() => decide(x, context, fate));
}
