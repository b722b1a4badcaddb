// The protocol pass of `npm run verify`: a write method a documented path does not document (POST, PUT, PATCH, DELETE)
// is refused with 405, its body the contract's error body, and an `Allow` header naming the path's own methods. HEAD,
// OPTIONS, TRACE and CONNECT are never sent. Each probe is a write to a server that gets it wrong, so it needs
// --allow-writes, like every write. Run after the deletes (a path's URL takes the ids still alive); gives checks only.
import type { ContractOperation } from "../../contract/operations.ts";
import { createRouter } from "../../contract/router.ts";
import { buildRequest, callPath, WRITE_METHODS } from "../calls.ts";
import { ownCredential, sendRequest, sentOf, skipReason, type Pass, type Unit, type VerifyContext } from "../context.ts";
import { judge, type JudgeContext } from "../judge.ts";
import type { HttpAnswer } from "../sender.ts";

/** Methods an `Allow` may name beyond the documented ones without being wrong: HEAD goes with GET, OPTIONS with CORS. */
const TOLERATED = new Set(["HEAD", "OPTIONS"]);

/** What is wrong with an `Allow` header for a path documenting `methods`, or undefined when it names them. */
export function allowProblem(allow: string | null, methods: string[]): string | undefined {
  if (allow === null) return "no Allow header";
  const named = new Set(
    allow
      .split(",")
      .map((method) => method.trim().toUpperCase())
      .filter((method) => method !== ""),
  );
  const missing = methods.filter((method) => !named.delete(method));
  const extra = [...named].filter((method) => !TOLERATED.has(method));
  if (missing.length === 0 && extra.length === 0) return undefined;
  return `Allow: ${allow} (${[missing.length > 0 ? `leaves out ${missing.join(", ")}` : "", extra.length > 0 ? `names ${extra.join(", ")}, which the path does not document` : ""].filter(Boolean).join("; ")})`;
}

const PROBE_EXPECTATION = { kind: "refusal" as const, statuses: [405] };

/**
 * A probe's answer judged: a 405 with the error body of the path's first operation (`first`: the 405 is declared on
 * every operation, a transport-level answer) and an `Allow` naming the path's methods. The pass and --replay judge with it.
 */
export function probeVerdict(
  context: JudgeContext,
  first: ContractOperation,
  method: string,
  answer: HttpAnswer,
  methods: string[],
): { failed: boolean; detail: string } {
  const verdict = judge(context, first, answer, PROBE_EXPECTATION);
  const allow = answer.kind === "answer" && answer.status === 405 ? allowProblem(answer.headers.get("allow"), methods) : undefined;
  const detail = [verdict.detail?.replace(`${first.operationId} answered`, `${method} ${first.template} answered`), allow].filter(Boolean).join("; ");
  return { failed: verdict.status === "failed" || allow !== undefined, detail };
}

/** A unit per probe: a write method a documented path does not document, sent to the path's URL. */
export function protocolUnits(context: VerifyContext): Unit[] {
  const router = createRouter(context.document);
  const byPath = new Map<string, ContractOperation[]>();
  for (const op of context.operations) byPath.set(op.template, [...(byPath.get(op.template) ?? []), op]);
  const only = context.options.only;
  const units: Unit[] = [];
  for (const [template, ops] of byPath) {
    // With --only, the paths of the operations it names.
    if (only !== undefined && !ops.some((op) => only.includes(op.operationId))) continue;
    // The path's first operation gives the URL (its path parameters, the ids this run made) and the credential.
    const first = ops[0]!;
    const option = context.credentials.optionOf(first);
    const call = { ...context.fixtures.apply(first, context.validCalls[first.operationId]!), query: {} };
    delete call.body;
    // The methods of the path item the URL reaches, by OpenAPI's rule (a concrete path before a templated one): for
    // .../custom_credentials/prepare, POST alone, so its PUT is probed and must be a 405, not the templated path's
    // setTeamCustomCredential. Asked of the router rather than read from `ops`, in case a valid call's value makes a
    // templated path's URL one a more concrete path reaches.
    const methods = router.methodsAt(callPath(first, call));
    for (const method of [...WRITE_METHODS].filter((m) => !methods.includes(m))) {
      units.push({
        run: async (unit) => {
          const probe: ContractOperation = { ...first, method };
          const name = `${template}: ${method} is 405 naming ${methods.join(", ")}`;
          const reason = skipReason(unit, probe, option);
          if (reason !== undefined) return unit.record({ suite: "protocol", name, status: "skipped", detail: reason, ms: 0 });
          const credential = ownCredential(unit, first);
          const request = buildRequest(unit.options.baseUrl, probe, call, credential);
          const answer = await sendRequest(unit, probe, call, request);
          const { failed, detail } = probeVerdict(unit, first, method, answer, methods);
          // About a path, not one of its operations: the check names no operation. Its replay judges by the same rule.
          const sent = { ...sentOf(request, answer), expect: PROBE_EXPECTATION, rule: { kind: "allow" as const, operationId: first.operationId, methods } };
          unit.record({ suite: "protocol", name, status: failed ? "failed" : "passed", ...(failed ? { detail, sent } : {}), ms: Math.round(answer.ms) });
        },
      });
    }
  }
  return units;
}

export const protocolPass: Pass = (context) => context.units(protocolUnits(context));
