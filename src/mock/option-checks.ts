// What a caller gives the mock, checked before the mock is made, in one set of words for the library's options
// (createMock, createMockHandlers) and the command's flags: an unknown name answered with the nearest known one, a value
// out of range with its range. A mistake that ran a stateless mock for `statefull` is now an error naming `stateful`.
import { readConditions, type ConditionDetail } from "./conditions.ts";
import { MAX_JOURNAL_SIZE } from "./journal.ts";
import type { MockOptions } from "./public-types.ts";
import { unknownOption } from "../shared/nearest-name.ts";

/** The journal's size as every way of starting the mock says it. */
export const JOURNAL_SIZE_RANGE = `a number of requests from 0 (off) to ${MAX_JOURNAL_SIZE}`;

/** Conditions' problems in one line, each field as it is written in the options (`failure_rate must be a share from 0 to 1`). */
export function conditionProblems(details: ConditionDetail[]): string {
  return details.map((detail) => `${detail.field.replace(/^\//, "").replaceAll("/", ".") || "(whole)"} ${detail.message}`).join("; ");
}

/** Whether a journal size is one the mock takes. */
export const isJournalSize = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_JOURNAL_SIZE;

/**
 * Each option's check: what is wrong with its value, or undefined. Keyed by every option of MockOptions, so an option
 * added to the type without a check does not compile. (`data`, the seed, is checked record by record when it is read.)
 */
const CHECKS: { [K in keyof Required<MockOptions>]: (value: unknown) => string | undefined } = {
  stateful: (value) => (typeof value === "boolean" ? undefined : `stateful must be true or false (got ${JSON.stringify(value)})`),
  data: () => undefined,
  strictKeys: (value) => (typeof value === "boolean" ? undefined : `strictKeys must be true or false (got ${JSON.stringify(value)})`),
  conditions: (value) => {
    const read = readConditions(value);
    return Array.isArray(read) ? `conditions: ${conditionProblems(read)}` : undefined;
  },
  journalSize: (value) => (isJournalSize(value) ? undefined : `journalSize ${JSON.stringify(value)} is not ${JOURNAL_SIZE_RANGE}`),
  baseUrl: (value) =>
    typeof value === "string" && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
      ? undefined
      : `baseUrl must be an absolute http(s) address, such as http://svc-mock.invalid (got ${JSON.stringify(value)})`,
  log: (value) => (typeof value === "function" ? undefined : "log must be a function taking a line"),
};

/** Throws a TypeError naming every problem of the options `where` (createMock, createMockHandlers) was given. */
export function checkMockOptions(where: string, options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new TypeError(`${where}: its options must be an object`);
  const problems: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(CHECKS, name)) problems.push(unknownOption(name, Object.keys(CHECKS)));
    else if (value !== undefined) {
      const problem = CHECKS[name as keyof MockOptions](value);
      if (problem !== undefined) problems.push(problem);
    }
  }
  if (problems.length > 0) throw new TypeError(`${where}: ${problems.join("; ")}`);
}
