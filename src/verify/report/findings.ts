// What a run keeps of its checks, bounded whatever the server does: every check as much as the reports need of it (its
// suite, name, status, time and a bounded note or reason), each cause's first failures whole, and only the name, id
// and cause of the failures after them, which are counted; so a run's memory does not grow with what a server gets wrong.
import type { Check } from "../check.ts";
import { causeKey, causeOf, groupTitle } from "./groups.ts";
import type { FailureGroup, Summary } from "./report-shape.ts";

export type { FailureGroup };

/** The failures of one cause kept whole (detail, reproduction, request): enough to act on, the rest counted. */
export const KEPT_PER_GROUP = 5;

/** The longest detail kept: a detail quoting a large answer says what it has to in its start. */
export const MAX_DETAIL = 4_000;

/** The most distinct notes and reasons shared rather than kept per check (a pass skips hundreds of checks for one reason). */
const SHARED_REASONS = 256;

/** A detail at most `MAX_DETAIL` characters long, saying how much was left out (never cutting a character in two). */
export function boundDetail(detail: string): string {
  if (detail.length <= MAX_DETAIL) return detail;
  const end = /[\uD800-\uDBFF]/.test(detail[MAX_DETAIL - 1]!) ? MAX_DETAIL - 1 : MAX_DETAIL;
  return `${detail.slice(0, end)}… (${detail.length - end} more characters)`;
}

/** The groups, most failures first (the first found first among equals). */
export function byCount(groups: FailureGroup[]): FailureGroup[] {
  return [...groups].sort((a, b) => b.count - a.count);
}

/** Operations as a line: the first few, and how many more. */
export function operationList(operations: string[], shown = 6): string {
  if (operations.length === 0) return "none (checks of a path or of the run)";
  return `${operations.slice(0, shown).join(", ")}${operations.length > shown ? ` and ${operations.length - shown} more` : ""}`;
}

interface Group extends Omit<FailureGroup, "operations" | "title"> {
  operations: Set<string>;
}

export class Findings {
  readonly #checks: Check[] = [];
  readonly #groups = new Map<string, Group>();
  readonly #reasons = new Map<string, string>();
  readonly #counts: Summary = { passed: 0, failed: 0, skipped: 0, total: 0 };

  /**
   * Keeps a check (a failure with its id and group), and gives it back as kept. `whole` adds to a failure kept whole
   * what costs to make (the server's answer, redacted), called only for those: the later failures of a cause never pay.
   */
  add(check: Check, whole?: () => Partial<Check>): Check {
    this.#counts[check.status]++;
    this.#counts.total++;
    const kept = check.status === "failed" ? this.#failure(check, whole) : this.#other(check);
    this.#checks.push(kept);
    return kept;
  }

  /** The counts so far: exact, whatever was left out of the checks. */
  get summary(): Summary {
    return { ...this.#counts };
  }

  get last(): Check | undefined {
    return this.#checks.at(-1);
  }

  get checks(): Check[] {
    return this.#checks;
  }

  /** The groups in the order they were found (G1 first), each titled by its first failure's own sentence. */
  get groups(): FailureGroup[] {
    return [...this.#groups.values()].map((group) => ({ ...group, title: groupTitle(group.first, group.count), operations: [...group.operations] }));
  }

  #failure(check: Check, whole: (() => Partial<Check>) | undefined): Check {
    const cause = causeOf(check);
    const key = causeKey(cause);
    let group = this.#groups.get(key);
    const id = check.id ?? `F${this.#counts.failed}`;
    if (group === undefined) {
      const detail = check.detail === undefined ? {} : { detail: boundDetail(check.detail) };
      const first = { id, suite: check.suite, name: check.name, ...detail, ...pick(check, "repro", "operationId") };
      group = { id: `G${this.#groups.size + 1}`, ...cause, count: 0, operations: new Set(), examples: [], first };
      this.#groups.set(key, group);
    }
    group.count++;
    if (check.operationId !== undefined) group.operations.add(check.operationId);
    if (group.examples.length < KEPT_PER_GROUP) {
      group.examples.push(id);
      return { ...check, ...whole?.(), id, group: group.id, ...(check.detail === undefined ? {} : { detail: boundDetail(check.detail) }) };
    }
    return { suite: check.suite, name: check.name, status: "failed", id, group: group.id, ...pick(check, "operationId", "event"), ms: check.ms };
  }

  /**
   * A passed or skipped check as JUnit needs it, and its note or reason (verify's words, at most a server's error
   * message): bounded, and shared with the checks that say the same.
   */
  #other(check: Check): Check {
    const { suite, name, status, ms } = check;
    const said = check.detail === undefined ? {} : { detail: this.#shared(boundDetail(check.detail)) };
    return { suite, name, status, ...said, ...pick(check, "operationId", "event"), ms };
  }

  #shared(reason: string): string {
    const known = this.#reasons.get(reason);
    if (known !== undefined) return known;
    if (this.#reasons.size < SHARED_REASONS) this.#reasons.set(reason, reason);
    return reason;
  }
}

function pick<K extends keyof Check>(check: Check, ...keys: K[]): Pick<Check, K> {
  const out: Partial<Pick<Check, K>> = {};
  for (const key of keys) if (check[key] !== undefined) out[key] = check[key];
  return out as Pick<Check, K>;
}
