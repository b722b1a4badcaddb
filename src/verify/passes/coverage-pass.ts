// The coverage pass of `npm run verify`, deterministic: for every operation, each query parameter, body field and
// enumerated path parameter at the valid edges its schema states and just past each one (cases/boundaries.ts), every
// optional input left out and sent, and every request example the contract has beyond the valid call's. A value the
// validator does not confirm on its side of the edge is not sent, so a right server passes every check.
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject } from "../../contract/json.ts";
import { VALID_CALL } from "../../contract/valid-calls.ts";
import { refusedByContract, type Call } from "../calls.ts";
import { boundaryValues, someValue } from "../cases/boundaries.ts";
import { inputsOf, inputValue, setInput, type Input } from "../cases/inputs.ts";
import { checkCall, ownCredential, skipCheck, skipReason, spentBudget, type Pass, type Unit, type VerifyContext } from "../context.ts";

interface Variant {
  /** What the variant changes, as the check names it: `query size=100 (its maximum)`. */
  what: string;
  call: Call;
  valid: boolean;
}

/** A value as a check's name writes it: long strings and lists by their size. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return value.length > 24 ? `"${value.slice(0, 8)}…" (${value.length} characters)` : JSON.stringify(value);
  if (Array.isArray(value) && value.length > 3) return `[${value.length} items]`;
  return JSON.stringify(value);
}

/** A copy of the call with one input set (or left out, for `undefined`). */
function withInput(call: Call, input: Input, value: unknown): Call {
  const changed: Call = structuredClone(call);
  setInput(changed, input, value);
  return changed;
}

/** The request examples of the operation's body beyond the one its valid call sends, with this run's ids in. */
function otherExamples(context: VerifyContext, op: ContractOperation, base: Call): Variant[] {
  const media = isObject(op.requestBody?.content) ? op.requestBody.content["application/json"] : undefined;
  const examples = isObject(media) && isObject(media.examples) ? media.examples : {};
  const declared = op.operation[VALID_CALL];
  const used = isObject(declared) ? declared.body_example : undefined;
  return Object.entries(examples)
    .filter(([name]) => name !== used)
    .map(([name, raw]) => {
      const example = deref(context.document, raw);
      const call = context.fixtures.apply(op, { path: base.path, query: base.query, body: isObject(example) ? example.value : undefined });
      return { what: `request example ${name}`, call, valid: true };
    });
}

/** Every variant of an operation's valid call, each confirmed by the validator to be on the side it claims. */
export function coverageVariants(context: VerifyContext, op: ContractOperation, base: Call): Variant[] {
  const variants: Variant[] = [];
  for (const input of inputsOf(context.document, op)) {
    const current = inputValue(base, input);
    const label = input.key;
    for (const boundary of boundaryValues(context.document, input.schema, current)) {
      if (boundary.valid && JSON.stringify(boundary.value) === JSON.stringify(current)) continue;
      variants.push({
        what: `${label}=${describeValue(boundary.value)} (${boundary.label})`,
        call: withInput(base, input, boundary.value),
        valid: boundary.valid,
      });
    }
    if (input.required || input.location === "path") continue;
    if (current !== undefined) variants.push({ what: `${label} left out`, call: withInput(base, input, undefined), valid: true });
    else {
      const value = someValue(context.document, input.schema);
      if (value !== undefined)
        variants.push({ what: `${label}=${describeValue(value)} (sent, though optional)`, call: withInput(base, input, value), valid: true });
    }
  }
  variants.push(...otherExamples(context, op, base));
  const credential = ownCredential(context, op);
  const seen = new Set<string>([JSON.stringify(base)]);
  return variants.filter((variant) => {
    const key = JSON.stringify(variant.call);
    if (seen.has(key)) return false;
    seen.add(key);
    return refusedByContract(context.validator, op, variant.call, credential) !== variant.valid;
  });
}

/** The pass over the selected operations but the deletes (which would remove what the other checks use): a unit per variant. */
export function coverageUnits(context: VerifyContext, selected: ContractOperation[]): Unit[] {
  return selected.flatMap((op) => {
    if (context.fixtures.isRemove(op) !== undefined) return [];
    const base = context.fixtures.apply(op, context.validCalls[op.operationId]!);
    const reason = skipReason(context, op, context.credentials.optionOf(op));
    return coverageVariants(context, op, base).map(
      (variant): Unit => ({
        run: async (unit) => {
          // Once the budget is spent, the pass records nothing more (a run of one stops the pass there).
          if (unit.budgetNoted.has("coverage")) return;
          const name = `${op.operationId}: ${variant.what}`;
          if (reason !== undefined) return skipCheck(unit, "coverage", name, op, reason);
          if (spentBudget(unit, "coverage")) return;
          const checked = await checkCall(
            unit,
            "coverage",
            name,
            op,
            variant.call,
            ownCredential(unit, op),
            variant.valid ? { kind: "success", accepted: true } : { kind: "invalid" },
          );
          // What a variant of a create made is deleted by the cleanup, like the pass's own.
          if (checked.status !== undefined) unit.fixtures.learn(op, variant.call, checked.status, checked.body, { extra: true, at: unit.position });
        },
      }),
    );
  });
}

export const coveragePass: Pass = (context) => context.units(coverageUnits(context, context.plan.selected));
