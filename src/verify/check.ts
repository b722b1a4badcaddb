// One check of `npm run verify` and what became of it: the unit the console lines, the JSON report and the JUnit file
// are made of.
import type { Filter, Paging } from "../contract/collections.ts";
import type { HttpAnswer, HttpRequest } from "./sender.ts";

export type CheckStatus = "passed" | "failed" | "skipped";

export interface Check {
  /** The group the check belongs to: `workflow <id>`, `operation`, `credential`, `invalid`, `cleanup`. */
  suite: string;
  /** What was checked, such as `createUser: valid call` or `users-lifecycle / createAgain`. */
  name: string;
  status: CheckStatus;
  /** Why it failed or was skipped: the difference between what the contract says and what the server did. */
  detail?: string;
  /** The request that failed, as a `curl` line with the credential as an environment variable. */
  repro?: string;
  /** The request that failed as it was sent (credentials as variables), and what the run made that it names: for --replay. */
  request?: ReproRequest;
  /** A failure's id (`F1`, `F2`, … in the order failures are recorded): the console, the reports and --replay name it. */
  id?: string;
  /** A failure's group (`G1`, `G2`, …): its cause, shared with the failures of the same class and message (src/verify/report/groups.ts). */
  group?: string;
  /** The operation the check called, when it is about one. */
  operationId?: string;
  /** The event kind a delivery check is about (`provider.connection.created`). */
  event?: string;
  /** What the server answered a failure, redacted (src/verify/report/answer.ts); only a cause's first failures keep it. */
  answer?: ServerAnswer;
  ms: number;
}

/** A server's answer as the reports write it: nothing of it that a report may not hold. */
export interface ServerAnswer {
  status: number;
  statusText: string;
  /** Its headers (names in lower case), but `Set-Cookie` and any header that carries a credential. */
  headers: Record<string, string>;
  /**
   * `json`: the body with marked values removed where they stand, cut at 4,000 characters (saying so); `described`: a
   * body verify cannot read as JSON, named by content type, status line, size and title, never quoted; `empty`.
   */
  bodyForm: "json" | "described" | "empty";
  body: string;
  /** How many characters of a JSON body were cut off. */
  cut?: number;
}

/**
 * What a check expects of an answer: a success (a declared 4xx but 401 is noted, not failed; with `accepted`, a 422 or
 * a 400 `invalid_request` fails too, for a request verify checked valid against the contract), a refusal with one of
 * these statuses, or any declared 4xx.
 */
export type Expectation = { kind: "success"; accepted?: boolean } | { kind: "refusal"; statuses: number[] } | { kind: "invalid" };

/**
 * A failed request as a pass hands it over: what was sent, the status it got (none: no answer), and what the check
 * expected of the answer when that alone decided it (--replay judges the new answer by it).
 */
export interface Sent {
  request: HttpRequest;
  answered?: number;
  expect?: Expectation;
  /** The answer itself, for the reports (a failure's first few keep it, redacted). */
  answer?: Extract<HttpAnswer, { kind: "answer" }>;
  /** The calls the check made itself before its request, in order: --replay makes them again first. */
  steps?: ReplayStep[];
  /**
   * The check depended on the run's writes kept before this plan position (an insurance added before a read): read
   * into `steps` when the check is recorded, in plan order, so that concurrent work before it is all there.
   */
  keptBefore?: number;
  /** What the check judged beyond the expectation: --replay judges the new answer by it too. */
  rule?: ReplayRule;
}

/**
 * A call of the check's own that its request depended on (the create and the delete before a "gone after delete"
 * read, the update before a read-back), as the run sent it: the run's ids, which a replay's own replace by name.
 */
export interface ReplayStep {
  operationId: string;
  call: { path: Record<string, string>; query: Record<string, unknown>; body?: unknown };
}

/**
 * What a check judged of an answer beyond its status, body and headers, with what it judged it against: the fields
 * a step sent that must read back, a page's cut (past the last of `total` when given), a filter's value, the `Allow`
 * of a 405 (the methods of the path, the body judged as operation `operationId`'s).
 */
export type ReplayRule =
  | { kind: "read-back"; step: number }
  | { kind: "page"; paging: Paging; page: number; size: number; total?: number }
  | { kind: "filter"; filter: Filter; value: string }
  | { kind: "allow"; operationId: string; methods: string[] };

/** A check as a pass makes it: recording gives a failure its id, and its `sent` request becomes its reproduction. */
export interface MadeCheck extends Omit<Check, "id" | "repro" | "request"> {
  sent?: Sent;
}

/** Something the run created that a request names, and the operation that creates it again. */
export interface Need {
  /** The path parameter it fills (`user_id`), or `credential` for a credential an answer gave. */
  param: string;
  /** As the request holds it: the id, or the variable (`$SVC_CREATED_CREDENTIAL`) of a credential. */
  value: string;
  create: string;
  /** Where the create's answer gives it (a JSON pointer), for a credential. */
  pointer?: string;
}

/** A failed request as the report keeps it. */
export interface ReproRequest {
  method: string;
  url: string;
  /** The headers as sent, but each credential's value, which is `$VARIABLE`. */
  headers: Record<string, string>;
  /** The header names whose value is a variable. */
  variables: string[];
  /** The body as sent (JSON holds any text). */
  body?: string;
  /** The body's file, relative to the report folder, when it cannot stand in a shell quote: the curl line reads it. */
  bodyFile?: string;
  needs: Need[];
  /** What the server answered (undefined: no answer). */
  answered?: number;
  /** What the check expected of the answer, when that alone decided it: --replay judges the new answer by it. */
  expect?: Expectation;
  /** The calls the check made itself before this request (--replay makes them again first). */
  steps?: ReplayStep[];
  /** What the check judged beyond the expectation (--replay judges by it too). */
  rule?: ReplayRule;
}
