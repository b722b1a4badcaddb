// One check of `npm run verify` and what became of it: the unit the console lines, the JSON report and the JUnit file
// are made of.
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
  /** The operation the check called, when it is about one. */
  operationId?: string;
  ms: number;
}
