// The generated pass of `npm run verify`: property-based calls made from the schemas with fast-check, seeded and
// replayable. Per operation, valid calls with varied data (each confirmed valid by the validator before it is sent)
// must be accepted, and calls with one input broken must get a declared 4xx. A failure is shrunk to the smallest call
// that still fails, and reported with its `curl` line and the seed and --only that replay it. A 413 naming the size
// limit the server states is reported as that limit, not as a failure.
import fc from "fast-check";
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import { openEnumValues } from "../../contract/open-enums.ts";
import { buildRequest, refusedByContract, type Call } from "../calls.ts";
import { breakingArbitrary, validArbitrary } from "../cases/arbitraries.ts";
import { dependedOn, ownCredential, send, skipCheck, skipReason, spentBudget, type Pass, type Unit, type VerifyContext } from "../context.ts";
import { describeValue } from "./coverage-pass.ts";
import { inputsOf, inputValue, setInput, type Input } from "../cases/inputs.ts";
import { judge, type Expectation, type Verdict } from "../judge.ts";
import type { HttpAnswer } from "../sender.ts";

/** An input left as the valid call has it (what shrinking goes back to), and an optional one left out. */
const KEEP = Symbol("keep");
const ABSENT = Symbol("absent");

type Overrides = Record<string, unknown>;

/** The valid call with a case's overrides in place. */
function applyOverrides(base: Call, inputs: Input[], overrides: Overrides): Call {
  const call: Call = structuredClone(base);
  for (const input of inputs) {
    if (!(input.key in overrides) || overrides[input.key] === KEEP) continue;
    const value = overrides[input.key];
    setInput(call, input, value === ABSENT ? undefined : value);
  }
  return call;
}

/** A case as a check names it: `body name="é", query size=3`. */
function describeCase(overrides: Overrides): string {
  const parts = Object.entries(overrides)
    .filter(([, value]) => value !== KEEP)
    .map(([key, value]) => (value === ABSENT ? `${key} left out` : `${key}=${describeValue(value)}`));
  return parts.length === 0 ? "the valid call" : parts.join(", ");
}

function isEnumerated(document: JsonObject, raw: unknown): boolean {
  const schema = deref(document, raw);
  return isObject(schema) && (Array.isArray(schema.enum) || openEnumValues(schema) !== undefined);
}

/** Whether some value breaks the input at all, by the validator (a free-text query parameter takes anything). */
function canBreak(context: VerifyContext, op: ContractOperation, base: Call, input: Input): boolean {
  if (input.required && input.location === "body") return true;
  const credential = ownCredential(context, op);
  return fc
    .sample(breakingArbitrary(context.document, input.schema), { numRuns: 20, seed: 1 })
    .some((value) => refusedByContract(context.validator, op, applyOverrides(base, [input], { [input.key]: value }), credential));
}

/** The seed of one operation's cases: the run's, mixed with the operation's id, so --only replays the same cases. */
export function operationSeed(seed: number, operationId: string): number {
  let hash = seed | 0;
  for (const char of operationId) hash = Math.imul(hash ^ char.charCodeAt(0), 0x5bd1e995) | 0;
  return hash;
}

/** A size limit a 413 states (`… over 1 MiB`, `limit: 65536 bytes`), if it states one. */
export function statedLimit(text: string): string | undefined {
  return /(\d[\d,.]*\s*(?:bytes|B|KB|KiB|kB|MB|MiB))\b/.exec(text)?.[1];
}

interface Outcome {
  failing?: { call: Call; verdict: Verdict; overrides: Overrides; status?: number; answer?: Extract<HttpAnswer, { kind: "answer" }> };
  limits: Set<string>;
}

async function runProperty(
  context: VerifyContext,
  op: ContractOperation,
  base: Call,
  inputs: Input[],
  cases: fc.Arbitrary<Overrides>,
  numRuns: number,
  seed: number,
  expectation: Expectation,
): Promise<{ result: fc.RunDetails<[Overrides]>; outcome: Outcome }> {
  const credential = ownCredential(context, op);
  const outcome: Outcome = { limits: new Set() };
  const wantsValid = expectation.kind === "success";
  const property = fc.asyncProperty(cases, async (overrides) => {
    const call = applyOverrides(base, inputs, overrides);
    // Only what the contract says of it: a valid case the validator refuses, or an invalid one it accepts, is not sent.
    fc.pre(refusedByContract(context.validator, op, call, credential) !== wantsValid);
    const answer = await send(context, op, call, credential);
    if (answer.kind === "answer" && answer.status === 413) {
      const limit = statedLimit(answer.text);
      if (limit !== undefined) {
        outcome.limits.add(limit);
        return true;
      }
    }
    const judged = judge(context, op, answer, expectation);
    // What a generated create made is deleted by the cleanup, like the pass's own.
    if (answer.kind === "answer") context.fixtures.learn(op, call, answer.status, judged.body, { extra: true, at: context.position });
    if (judged.status !== "failed") return true;
    // Shrinking moves only to cases that fail too: the last failure seen is the smallest.
    outcome.failing = { call, verdict: judged, overrides, ...(answer.kind === "answer" ? { status: answer.status, answer } : {}) };
    return false;
  });
  const result = await fc.check(property, {
    seed,
    numRuns,
    interruptAfterTimeLimit: Math.max(1, context.deadline - performance.now()),
    markInterruptAsFailure: false,
    maxSkipsPerRun: 20,
  });
  return { result, outcome };
}

function record(context: VerifyContext, op: ContractOperation, what: string, run: Awaited<ReturnType<typeof runProperty>>, expectation: Expectation): void {
  const { result, outcome } = run;
  const name = `${op.operationId}: ${what}`;
  const base = { suite: "generated", operationId: op.operationId, ms: 0 };
  for (const limit of outcome.limits) {
    context.record({
      ...base,
      name: `${op.operationId}: the server's size limit`,
      status: "skipped",
      detail: `answered 413 to a generated body, naming its limit of ${limit}: a limit of the server, not a failure`,
    });
  }
  if (result.failed && outcome.failing !== undefined) {
    const { call, verdict, overrides } = outcome.failing;
    const credential = ownCredential(context, op);
    const request = buildRequest(context.options.baseUrl, op, call, credential);
    context.record({
      ...base,
      name,
      status: "failed",
      detail: `${verdict.detail ?? "failed"}; smallest failing case (after ${result.numShrinks} shrinks): ${describeCase(overrides)}; replay with --seed ${context.options.seed} --only ${op.operationId}`,
      sent: {
        request,
        ...(outcome.failing.status === undefined ? {} : { answered: outcome.failing.status }),
        ...(outcome.failing.answer === undefined ? {} : { answer: outcome.failing.answer }),
        expect: expectation,
        ...dependedOn(context),
      },
    });
    return;
  }
  const ran = result.numRuns;
  const stopped = result.interrupted ? `; stopped by the time budget after ${ran} cases` : "";
  if (ran === 0)
    context.record({ ...base, name, status: "skipped", detail: `no case the contract confirms could be made (${result.numSkips} discarded)${stopped}` });
  else context.record({ ...base, name: `${name} (${ran} cases)`, status: "passed", ...(stopped === "" ? {} : { detail: stopped.slice(2) }) });
}

/**
 * The pass over the selected operations but the deletes, with --cases valid cases and half as many invalid ones each:
 * a unit per property (its cases and its shrinking stay in order), the operations' properties concurrent.
 */
export function generatedUnits(context: VerifyContext, selected: ContractOperation[]): Unit[] {
  const cases = context.options.cases;
  if (cases === 0) return [];
  return selected.flatMap((op): Unit[] => {
    if (context.fixtures.isRemove(op) !== undefined) return [];
    const base = context.fixtures.apply(op, context.validCalls[op.operationId]!);
    // A path's ids stay the run's (another id only finds nothing there); an enumerated path parameter is varied.
    const inputs = inputsOf(context.document, op).filter((input) => input.location !== "path" || isEnumerated(context.document, input.schema));
    const varied = inputs.flatMap((input) => {
      const made = validArbitrary(context.document, input.schema, inputValue(base, input));
      if (made === undefined) return [];
      // Optional inputs are also left out; KEEP, the valid call's value, is where shrinking ends.
      const value = input.required || input.location === "path" ? made : fc.oneof(made, fc.constant(ABSENT));
      return [[input.key, fc.option(value, { nil: KEEP, freq: 3 })] as const];
    });
    const breakable = inputs.filter((input) => canBreak(context, op, base, input));
    if (varied.length === 0 && breakable.length === 0) return [];
    const reason = skipReason(context, op, context.credentials.optionOf(op));
    if (reason !== undefined)
      return [
        { run: async (unit) => void (unit.budgetNoted.has("generated") || skipCheck(unit, "generated", `${op.operationId}: generated calls`, op, reason)) },
      ];
    const seed = operationSeed(context.options.seed, op.operationId);
    const units: Unit[] = [];
    if (varied.length > 0) {
      units.push({
        run: async (unit) => {
          if (spentBudget(unit, "generated")) return;
          const valid = fc.record(Object.fromEntries(varied)) as fc.Arbitrary<Overrides>;
          const expectation: Expectation = { kind: "success", accepted: true };
          const run = await runProperty(unit, op, base, inputs, valid, cases, seed, expectation);
          record(unit, op, "generated valid calls are accepted", run, expectation);
        },
      });
    }
    if (breakable.length > 0) {
      units.push({
        run: async (unit) => {
          if (spentBudget(unit, "generated")) return;
          const broken = fc
            .constantFrom(...breakable)
            .chain((input) =>
              (input.required && input.location === "body"
                ? fc.oneof(fc.constant<unknown>(ABSENT), breakingArbitrary(context.document, input.schema))
                : breakingArbitrary(context.document, input.schema)
              ).map((value): Overrides => ({ [input.key]: value })),
            );
          const expectation: Expectation = { kind: "invalid" };
          const run = await runProperty(unit, op, base, inputs, broken, Math.ceil(cases / 2), seed + 1, expectation);
          record(unit, op, "generated invalid calls get a declared 4xx", run, expectation);
        },
      });
    }
    return units;
  });
}

export const generatedPass: Pass = (context) => context.units(generatedUnits(context, context.plan.selected));
