// A replayed answer judged as the failed check judged the first one: by its expectation (status, body and headers,
// contract/answer-check.ts through judge.ts), then by the rule kept with the failure (a read-back, a page's cut, a
// filter, a 405's Allow), with the functions the passes themselves judge with.
import { isObject } from "../../contract/json.ts";
import type { ContractOperation } from "../../contract/operations.ts";
import type { ReplayRule, ReproRequest } from "../check.ts";
import type { VerifyContext } from "../context.ts";
import { judge } from "../judge.ts";
import { filterProblems, pageRuleProblems } from "../passes/collection-pass.ts";
import { probeVerdict } from "../passes/protocol-pass.ts";
import { readBackProblem, type Exchange } from "../passes/state-readback.ts";
import type { Made } from "./steps.ts";
import type { HttpAnswer } from "../sender.ts";

export interface Again {
  /** The failure is there again. */
  again: boolean;
  /** What the replay says of the answer: `answered 500 — …`. */
  said: string;
}

/** The operation a rule judges the answer as: a probe's path's first one, else the one the request calls. */
export function judgedAs(context: VerifyContext, rule: ReplayRule | undefined, called: ContractOperation | undefined): ContractOperation | undefined {
  return rule?.kind === "allow" ? context.operations.find((op) => op.operationId === rule.operationId) : called;
}

/** What the rule finds wrong with an answer that met the expectation (an empty list: nothing). */
function ruleProblems(
  context: VerifyContext,
  rule: Exclude<ReplayRule, { kind: "allow" }>,
  op: ContractOperation,
  body: unknown,
  exchanges: Exchange[],
): string[] {
  if (rule.kind === "read-back") {
    const exchange = exchanges[rule.step];
    if (exchange === undefined) return [`its step ${rule.step + 1} was not made again`];
    const problem = readBackProblem(context, op, exchange, body);
    return problem === undefined ? [] : [problem];
  }
  if (!isObject(body)) return ["no JSON body"];
  return rule.kind === "page" ? pageRuleProblems(body, rule) : filterProblems(body, rule.filter, rule.value);
}

/**
 * The replayed answer judged: failing again when the check would fail on it. A report of an earlier release kept no
 * rule for a check that judged more than one answer: the same status is then the same failure, as it used to be.
 */
export function judgeAgain(
  context: VerifyContext,
  request: ReproRequest,
  op: ContractOperation | undefined,
  answer: HttpAnswer,
  made: Pick<Made, "values" | "exchanges">,
): Again {
  const { expect } = request;
  // A filter's value that was an id of the run's is the replay's id now, as in the request it was sent in.
  const rule = request.rule?.kind === "filter" ? { ...request.rule, value: made.values.get(request.rule.value) ?? request.rule.value } : request.rule;
  const { exchanges } = made;
  if (answer.kind === "failure") return { again: request.answered === undefined || expect !== undefined, said: answer.error };
  const answered = `answered ${answer.status}`;
  if (op === undefined || expect === undefined) return { again: answer.status === request.answered, said: answered };
  if (rule?.kind === "allow") {
    const probe = probeVerdict(context, op, request.method, answer, rule.methods);
    return { again: probe.failed, said: `${answered}${probe.detail === "" ? "" : ` — ${probe.detail}`}` };
  }
  const verdict = judge(context, op, answer, expect);
  if (verdict.status === "failed" || rule === undefined)
    return { again: verdict.status === "failed", said: `${answered}${verdict.detail === undefined ? "" : ` — ${verdict.detail}`}` };
  const problems = ruleProblems(context, rule, op, verdict.body, exchanges);
  return { again: problems.length > 0, said: `${answered}${problems.length === 0 ? "" : ` — ${problems.join("; ")}`}` };
}
