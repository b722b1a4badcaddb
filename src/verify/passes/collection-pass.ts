// The collection pass of `npm run verify`: what the contract says of paged lists and filters in words, checked where it
// marks them (x-svc-paging, x-svc-filter). A page holds at most `size` items, echoes `page` and `size`, and its `pages`
// agrees with `total`; a page past the last is empty; a filter keeps only items that match it. A number the server
// leaves null is not checked (the contract allows it).
import { collectionMarks, filterValues, matchesFilter, type Filter, type Paging } from "../../contract/collections.ts";
import { isObject } from "../../contract/json.ts";
import type { ContractOperation } from "../../contract/operations.ts";
import { judge } from "../judge.ts";
import { dependedOn, ownCredential, sendRequest, sentOf, skipReason, type Pass, type Unit, type VerifyContext } from "../context.ts";
import { buildRequest, type Call } from "../calls.ts";
import type { Expectation, ReplayRule, Sent } from "../check.ts";

/** The most values of one filter verify tries: those the unfiltered list holds, in its order. */
const VALUES_PER_FILTER = 3;

type Fetched = ({ ok: true; body: Record<string, unknown> } | { ok: false; detail: string }) & { ms: number; sent: Sent };

async function fetchList(context: VerifyContext, op: ContractOperation, call: Call, query: Record<string, unknown>): Promise<Fetched> {
  const credential = ownCredential(context, op);
  const asked = { ...call, query: { ...call.query, ...query } };
  const request = buildRequest(context.options.baseUrl, op, asked, credential);
  const answer = await sendRequest(context, op, asked, request);
  const verdict = judge(context, op, answer, LISTED);
  const sent = sentOf(request, answer);
  if (verdict.status === "failed" || !isObject(verdict.body)) return { ok: false, detail: verdict.detail ?? "no JSON body", ms: answer.ms, sent };
  return { ok: true, body: verdict.body, ms: answer.ms, sent };
}

const count = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** What every list of the pass must answer before its contents are judged. */
const LISTED: Expectation = { kind: "refusal", statuses: [200] };

/** Records a check of the pass: passed when nothing is wrong, else failed with what is, and the rule --replay judges by. */
function record(context: VerifyContext, op: ContractOperation, name: string, problems: string[], fetched: Fetched, rule: ReplayRule): void {
  const failed = problems.length > 0;
  context.record({
    suite: "collection",
    name,
    status: failed ? "failed" : "passed",
    // A list holds what the run's writes made: its replay makes them again before it asks.
    ...(failed ? { detail: problems.join("; "), sent: { ...fetched.sent, expect: LISTED, rule, ...dependedOn(context) } } : {}),
    operationId: op.operationId,
    ms: Math.round(fetched.ms),
  });
}

/** What is wrong with one page of a paged answer for `page` and `size`, as the contract states it. */
export function pageProblems(body: Record<string, unknown>, paging: Paging, page: number, size: number): string[] {
  const problems: string[] = [];
  const items = body[paging.items];
  if (!Array.isArray(items)) return [`${paging.items} is not a list`];
  if (items.length > size) problems.push(`${paging.items} holds ${items.length} items on a page of size ${size}`);
  for (const [field, asked] of [
    ["page", page],
    ["size", size],
  ] as const) {
    const said = count(body[field]);
    if (said !== undefined && said !== asked) problems.push(`${field} is ${said}, asked ${asked}`);
  }
  const total = count(body.total);
  const pages = count(body.pages);
  if (total !== undefined && pages !== undefined && pages !== Math.ceil(total / size))
    problems.push(`pages is ${pages}, but total ${total} at size ${size} makes ${Math.ceil(total / size)}`);
  if (total !== undefined && page * size <= total && items.length < size)
    problems.push(`page ${page} holds ${items.length} items, but total ${total} fills it to ${size}`);
  return problems;
}

/**
 * What is wrong with a page the rule asked for: its cut, and, for a page past the last of `total` items (the total an
 * earlier page said), that it holds any. The pass and --replay judge a page with it.
 */
export function pageRuleProblems(body: Record<string, unknown>, rule: { paging: Paging; page: number; size: number; total?: number }): string[] {
  const problems = pageProblems(body, rule.paging, rule.page, rule.size);
  const items = body[rule.paging.items];
  if (rule.total !== undefined && Array.isArray(items) && items.length > 0)
    problems.push(`page ${rule.page} is past the last of ${rule.total} items, yet holds ${items.length}`);
  return problems;
}

/** What is wrong with a list asked with a filter's value: items that do not match it. The pass and --replay judge a filter with it. */
export function filterProblems(body: Record<string, unknown>, filter: Filter, value: string): string[] {
  const items = body[filter.items];
  if (!Array.isArray(items)) return [`${filter.items} is not a list`];
  const wrong = items.filter((item) => !matchesFilter(item, filter, [value]));
  return wrong.length > 0
    ? [`${wrong.length} of ${items.length} ${filter.items} do not match (first: /${filter.items}/${items.indexOf(wrong[0])}/${filter.field})`]
    : [];
}

async function pagingChecks(context: VerifyContext, op: ContractOperation, call: Call, paging: Paging): Promise<void> {
  const check = (name: string, problems: string[], fetched: Fetched, rule: ReplayRule) =>
    record(context, op, `${op.operationId}: ${name}`, problems, fetched, rule);
  const firstRule = { kind: "page" as const, paging, page: 1, size: 1 };
  const first = await fetchList(context, op, call, { page: 1, size: 1 });
  if (!first.ok) return check("page 1 of size 1", [first.detail], first, firstRule);
  check("page 1 of size 1 holds at most one item and says so", pageRuleProblems(first.body, firstRule), first, firstRule);
  const total = count(first.body.total);
  // Past the last page: total + 1 at size 1 (or page 2 of an unknown total, which proves less).
  const past = (total ?? 1) + 1;
  const pastRule = { kind: "page" as const, paging, page: past, size: 1, ...(total === undefined ? {} : { total }) };
  const beyond = await fetchList(context, op, call, { page: past, size: 1 });
  if (!beyond.ok) return check(`page ${past} of size 1 (past the last)`, [beyond.detail], beyond, pastRule);
  check(`page ${past} of size 1, past the last, is empty`, pageRuleProblems(beyond.body, pastRule), beyond, pastRule);
}

async function filterChecks(context: VerifyContext, op: ContractOperation, call: Call, filters: Filter[]): Promise<void> {
  if (filters.length === 0) return;
  const whole = await fetchList(context, op, call, {});
  if (!whole.ok) return;
  // The list as it may be written: a value the contract marks is named by its place, never written.
  const shown = context.redactor.response(op, 200, whole.body) as Record<string, unknown>;
  for (const filter of filters) {
    const list = whole.body[filter.items];
    const shownValues = new Set<string>(Array.isArray(shown[filter.items]) ? filterValues(shown[filter.items] as unknown[], filter) : []);
    const label = (value: string) => (shownValues.has(value) ? String(value) : `<the ${filter.field} of an item of ${filter.items}, marked: not shown>`);
    // The values the server's own list holds: a value it does not hold proves nothing about the filter.
    for (const value of Array.isArray(list) ? filterValues(list, filter).slice(0, VALUES_PER_FILTER) : []) {
      const name = `${op.operationId}: ${filter.parameter}=${label(value)} keeps only ${filter.items} whose ${filter.field} matches`;
      const kept = await fetchList(context, op, call, { [filter.parameter]: filter.match === "all" ? [value] : value });
      const problems = kept.ok ? filterProblems(kept.body, filter, value) : [kept.detail];
      record(context, op, name, problems, kept, { kind: "filter", filter, value });
    }
  }
}

/**
 * The pass over every operation whose lists the contract marks (those of --only among them): a unit per operation, its
 * pages and filters in order (a filter's values come from its list). No pass that creates runs beside it (run.ts keeps
 * the passes apart), so a `total` read twice reads the same list.
 */
export function collectionUnits(context: VerifyContext): Unit[] {
  const only = context.options.only;
  return context.operations.flatMap((op): Unit[] => {
    if (only !== undefined && !only.includes(op.operationId)) return [];
    const marks = collectionMarks(context.document, op);
    if (marks.paging === undefined && marks.filters.length === 0) return [];
    const reason = skipReason(context, op, context.credentials.optionOf(op));
    if (reason !== undefined) {
      const check = { suite: "collection", name: `${op.operationId}: paging and filters`, status: "skipped" as const, detail: reason };
      return [{ run: async (unit) => unit.record({ ...check, operationId: op.operationId, ms: 0 }) }];
    }
    const call = context.fixtures.apply(op, context.validCalls[op.operationId]!);
    return [
      {
        run: async (unit) => {
          if (marks.paging !== undefined) await pagingChecks(unit, op, call, marks.paging);
          await filterChecks(unit, op, call, marks.filters);
        },
      },
    ];
  });
}

export const collectionPass: Pass = (context) => context.units(collectionUnits(context));
