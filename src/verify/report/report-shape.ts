// The shape of a verify run's report (verify-report.json): its settings, its checks, their failures grouped by cause
// and what the requests covered. A leaf: the collector, the console and the HTML page read it without importing each
// other.
import type { Check } from "../check.ts";
import type { OperationCoverage } from "./coverage-map.ts";
import type { CredentialVariable } from "./repro.ts";

/** The failures of one cause: a class and a message without values, across operations. */
export interface FailureGroup {
  /** `G1`, `G2`, … by first appearance. */
  id: string;
  class: string;
  /** The detail with its values taken out (`<op> answered 500 internal_error: <message>`): the cause, as a template. */
  message: string;
  /** Its first failure's own sentence, cut at 160 characters, with how many more are like it: what a reader is shown. */
  title: string;
  count: number;
  /** The operations its failures called, in the order they met it. */
  operations: string[];
  /** The ids of its failures kept whole, the first first; the others are counted. */
  examples: string[];
  /** Its first failure as the console and the reports show it. */
  first: Pick<Check, "id" | "suite" | "name" | "detail" | "repro" | "operationId">;
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

export interface Report {
  baseUrl: string;
  /** The target answered GET /_mock/state as the package's stateful mock does. */
  mock: boolean;
  allowWrites: boolean;
  /** Requests a second; null for no limit. */
  rate: number | null;
  /** Requests in flight at once (--concurrency). */
  concurrency: number;
  startedAt: string;
  durationMs: number;
  /** Requests verify sent itself (the probe, the operation pass, the cleanup); the workflows' are respect's. */
  requests: number;
  /** The generated pass's seed (--seed replays it) and its cases per operation. */
  seed: number;
  cases: number;
  /** The environment variables the reproductions read credentials from, and their values where they may be printed. */
  credentials: CredentialVariable[];
  summary: Summary;
  /** What the requests covered, per operation the run checked. */
  coverage: OperationCoverage[];
  /** The failures by cause, G1 first; each failed check names its group. */
  groups: FailureGroup[];
  /** Every check; after a group's first few failures, a failure keeps only its name, id and group. */
  checks: Check[];
}
