// `npm run verify` against the package's own mock, workflows included: on the stateful mock, run as a user runs it (a
// process of its own, with respect's), every check passes and the reports say what the console said; on the stateless
// mock, run in this process (the process is the first run's point, not this one's), the operation pass runs to its end
// and finds nothing wrong, while the flows that need state fail, naming the step and the difference.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { DELIVERY_PARTS } from "../../src/verify/workflows/delivery.ts";
import { readWorkflows } from "../../src/shared/workflow-files.ts";
import { operations, responseExample } from "../support/contract.ts";
import { failures, runVerify, runVerifyInProcess, type VerifyRun } from "../support/run-verify.ts";
import { parseXml } from "../support/xml.ts";
import { answerLine } from "../../src/verify/report/answer.ts";

let stateful: RunningMock | undefined;
let onStateful: VerifyRun;
let onStateless: VerifyRun;

beforeAll(async () => {
  stateful = await startMock({ port: 0, stateful: {} });
  [onStateful, onStateless] = await Promise.all([
    // Under a rate limit, as a staging server asks for: the workflows' requests then share the pass's limiter.
    // A few generated cases per operation: the pass is the point here, its volume is the benchmark's.
    runVerify(["--base-url", stateful.url, "--rate", "500", "--cases", "4"]),
    // --quiet, as a CI job runs it: the console has the failures alone, the reports every check.
    runVerifyInProcess(["--base-url", inject("mockUrl"), "--cases", "4", "--quiet"]),
  ]);
});

afterAll(async () => {
  await stateful?.stop();
});

const ids = operations.map((op) => op.operationId);

function namesIn(run: VerifyRun, suite: string): string[] {
  return run.report!.checks.filter((check) => check.suite === suite).map((check) => check.name);
}

describe("npm run verify against the stateful mock", () => {
  it("passes every check, skips none, and exits 0", () => {
    expect(failures(onStateful)).toEqual([]);
    expect(onStateful.report!.summary.skipped).toBe(0);
    expect(onStateful.code, onStateful.stderr).toBe(0);
    expect(onStateful.report!.mock).toBe(true);
  });

  it("calls every operation's valid call, creates first and deletes last", () => {
    const valid = namesIn(onStateful, "operation");
    expect([...valid].sort()).toEqual(ids.map((id) => `${id}: valid call`).sort());
    expect(valid.slice(0, 2)).toEqual(["createUser: valid call", "createTeam: valid call"]);
    expect(valid.indexOf("undoUserDeletion: valid call")).toBeGreaterThan(valid.indexOf("deleteUser: valid call"));
    expect(valid.indexOf("deleteTeam: valid call")).toBeGreaterThan(valid.indexOf("deleteWebhookEndpoint: valid call"));
  });

  it("checks two credential refusals per operation: none at all, and the other kind of key", () => {
    const refusals = namesIn(onStateful, "credential");
    for (const id of ids)
      expect(
        refusals.filter((name) => name.startsWith(`${id}: `)),
        id,
      ).toHaveLength(2);
    expect(refusals).toContain("getOrg: a team API key instead of its own");
    expect(refusals).toContain("listLabs: a management key instead of its own");
  });

  it("probes a concrete path's methods by OpenAPI's rule: PUT on …/custom_credentials/prepare is a 405 naming POST, not the templated path's operation", () => {
    const probes = onStateful.report!.checks.filter(
      (check) => check.suite === "protocol" && check.name.startsWith("/v2/management/teams/{team_id}/custom_credentials/"),
    );
    expect(probes.map((check) => [check.name, check.status])).toEqual(
      expect.arrayContaining([
        ["/v2/management/teams/{team_id}/custom_credentials/prepare: PUT is 405 naming POST", "passed"],
        ["/v2/management/teams/{team_id}/custom_credentials/{provider}: POST is 405 naming PUT", "passed"],
      ]),
    );
  });

  it("sends at most three invalid calls per operation, and some to every operation that takes a body", () => {
    const invalid = namesIn(onStateful, "invalid");
    for (const op of operations) {
      const mine = invalid.filter((name) => name.startsWith(`${op.operationId}: `));
      expect(mine.length, op.operationId).toBeLessThanOrEqual(3);
      if (op.operation.requestBody !== undefined) expect(mine.length, op.operationId).toBeGreaterThan(0);
    }
  });

  it("leaves the mock as it found it: no team, no record (keys of its own, forgotten at the end)", async () => {
    const state = (await (await fetch(`${stateful!.url}/_mock/state`)).json()) as { totals: { teams: number; records: number } };
    expect(state.totals).toEqual({ teams: 0, records: 0 });
  });

  it("deletes everything it created, or finds the pass did", () => {
    const cleanup = onStateful.report!.checks.filter((check) => check.suite === "cleanup" && check.operationId !== undefined);
    // What the valid calls made, and what the coverage and generated passes' creates made besides.
    expect(new Set(cleanup.map((check) => check.operationId))).toEqual(
      new Set(["deleteEtlPipeline", "deleteManagementKey", "deleteTeam", "deleteTeamApiKey", "deleteUser", "deleteWebhookEndpoint"]),
    );
    expect(cleanup.filter((check) => check.status !== "passed")).toEqual([]);
    // Then the mock forgets the run's own team and org (it used keys of its own, as none were given).
    const forgotten = onStateful.report!.checks.filter((check) => check.suite === "cleanup" && check.operationId === undefined);
    expect(forgotten.map((check) => [check.name, check.status])).toEqual([["the mock forgets this run's team and org (DELETE /_mock/state)", "passed"]]);
    // The user is deleted by the pass, brought back by undoUserDeletion, and deleted for good by the cleanup.
    expect(cleanup.find((check) => check.operationId === "deleteUser")!.detail).toBeUndefined();
  });

  it("prints a line per check and a summary whose counts and time are the report's", () => {
    const report = onStateful.report!;
    const lines = onStateful.stdout.split("\n").filter((line) => /^[✓✗-] /.test(line));
    expect(lines).toHaveLength(report.checks.length);
    // The summary is the last line, ending with the requests and the time.
    const last = onStateful.stdout.trimEnd().split("\n").at(-1)!;
    const summary = /^verify: (\d+) passed, (\d+) failed, (\d+) skipped against \S+: (\d+) requests in ([\d.]+) s$/.exec(last);
    expect(summary, last).not.toBeNull();
    expect(summary!.slice(1, 4).map(Number)).toEqual([report.summary.passed, report.summary.failed, report.summary.skipped]);
    expect(Number(summary![5])).toBeCloseTo(report.durationMs / 1000, 1);
    expect(Number(summary![4])).toBe(report.requests);
    expect(report.summary.total).toBe(report.checks.length);
    // The progress line, rewritten in place, is for a terminal only: a run whose output is a pipe (a CI log) has none.
    expect(onStateful.stderr + onStateful.stdout).not.toContain("\r");
  });

  it("writes a JUnit file a CI tool reads: a testsuite per suite, a testcase per check", () => {
    const root = parseXml(onStateful.junit!);
    const report = onStateful.report!;
    expect(root.name).toBe("testsuites");
    expect(Number(root.attributes.tests)).toBe(report.checks.length);
    expect(Number(root.attributes.failures)).toBe(0);
    // The pass's four kinds of check, then one suite per workflow, in the order they ran.
    const workflowSuites = [...new Set(report.checks.map((check) => check.suite).filter((suite) => suite.startsWith("workflow ")))];
    expect(workflowSuites.length).toBeGreaterThanOrEqual(10);
    // The state checks come with the valid calls whose answers link to them.
    expect(root.children.map((suite) => suite.attributes.name)).toEqual([
      "operation",
      "state",
      "credential",
      "invalid",
      "coverage",
      "generated",
      "collection",
      "protocol",
      "cleanup",
      ...workflowSuites,
    ]);
    for (const suite of root.children) {
      const checks = report.checks.filter((check) => check.suite === suite.attributes.name);
      expect(suite.children.map((testcase) => testcase.attributes.name)).toEqual(checks.map((check) => check.name));
      expect(Number(suite.attributes.tests)).toBe(checks.length);
    }
  });
});

describe("npm run verify against the stateless mock", () => {
  it("runs to its end: every operation's valid call and refusals, the cleanup, the summary and the reports", () => {
    const report = onStateless.report!;
    expect(report.mock).toBe(false);
    expect(namesIn(onStateless, "operation")).toHaveLength(ids.length);
    expect(namesIn(onStateless, "credential")).toHaveLength(2 * ids.length);
    expect(namesIn(onStateless, "cleanup").length).toBeGreaterThan(0);
    expect(onStateless.stdout).toMatch(/verify: \d+ passed, \d+ failed, \d+ skipped against \S+: \d+ requests in [\d.]+ s\n$/);
    expect(onStateless.junit).toBeDefined();
  });

  it("with --quiet prints the failures alone, each with its reproduction and the server's answer, then the causes and the summary", () => {
    const report = onStateless.report!;
    const lines = onStateless.stdout.split("\n");
    // No line for a check that passed or was skipped; one for each failure, with its id.
    expect(lines.filter((line) => /^[✓-] /.test(line))).toEqual([]);
    const failed = report.checks.filter((check) => check.status === "failed");
    expect(lines.filter((line) => /^✗ .*  \[F\d+\]$/.test(line))).toHaveLength(failed.length);
    // The reports still hold every check.
    expect(report.summary.passed).toBeGreaterThan(100);
    expect(report.checks).toHaveLength(report.summary.total);
    // Under a failure, its curl line, then the first line of what the server answered: a state check's read, and a
    // workflow's step (from respect's log; respect's steps have no curl line).
    const answered = failed.filter((check) => check.answer !== undefined);
    expect(answered.filter((check) => check.suite === "state").length).toBeGreaterThan(0);
    expect(answered.filter((check) => check.suite.startsWith("workflow ")).length).toBeGreaterThan(0);
    for (const check of answered) {
      const at = lines.findIndex((line) => line.endsWith(`  [${check.id}]`));
      const under = [...(check.repro === undefined ? [] : [`    reproduce: ${check.repro}`]), `    answered: ${answerLine(check.answer!)}`];
      expect(lines.slice(at + 1, at + 1 + under.length), check.id).toEqual(under);
    }
    expect(lines).toContain(`verify: failures by cause (${report.groups.length} groups, most first):`);
  });

  it("finds nothing wrong in the operations: the examples it answers from keep the contract", () => {
    expect(failures(onStateless).filter((line) => !line.startsWith("workflow ") && !line.startsWith("state "))).toEqual([]);
  });

  it("fails the state checks, each saying it needs a server that keeps state: what was created and deleted is read back as the example", () => {
    const state = onStateless.report!.checks.filter((check) => check.suite === "state" && check.status === "failed");
    expect(state.map((check) => check.name)).toEqual(
      expect.arrayContaining([
        "createTeam → getTeam: reads back what was sent",
        "deleteTeam → getTeam: what was deleted is gone",
        "deleteTeamApiKey → listProviders: a call made with the deleted credential is refused",
      ]),
    );
    // Past its cause's first few, a failure is kept by name and group: its group's first failure says it.
    const detail = (check: (typeof state)[number]) => check.detail ?? onStateless.report!.groups.find((group) => group.id === check.group)!.first.detail;
    for (const check of state) expect(detail(check)).toMatch(/this check needs a server that keeps state \(the package's mock does with --stateful\)$/);
  });

  it("fails the flows that need state, each at its step with the criterion and the answer, skips the mock-only ones, and exits 1", () => {
    const failed = onStateless.report!.checks.filter((check) => check.status === "failed" && check.suite !== "state");
    expect(failed.length).toBeGreaterThan(0);
    for (const check of failed) {
      expect(check.suite).toMatch(/^workflow /);
      expect(check.name).toMatch(/^[a-z-]+ \/ [A-Za-z]+$/);
      expect(check.detail ?? onStateless.report!.groups.find((group) => group.id === check.group)!.first.detail).toMatch(/criteria check .*; got \d{3} /);
    }
    expect(failed.map((check) => check.name)).toContain("user-conflict-and-undo / create");
    const mockOnly = onStateless.report!.checks.filter((check) => check.detail?.startsWith("mock-only"));
    expect(mockOnly.map((check) => check.name)).toContain("bulk-import-progress");
    expect(onStateless.code).toBe(1);
  });

  it("skips exactly the mock-only flows, and names the failing step's criterion and answer", async () => {
    const checks = onStateless.report!.checks;
    const skipped = checks.filter((check) => check.detail?.startsWith("mock-only"));
    expect(skipped.map((check) => check.name).sort()).toEqual(
      (await readWorkflows())
        .filter((w) => w.mockOnly)
        .map((w) => w.workflowId)
        .sort(),
    );
    const example = responseExample("createUser", 200, "created") as { user_id: string; client_user_id: string };
    const exampleUser = example.user_id;
    const conflict = checks.find((check) => check.name === "user-conflict-and-undo / create");
    // The stateless mock answers the example's user, not the one asked for.
    expect(conflict).toMatchObject({ status: "failed", operationId: "createUser" });
    expect(conflict?.detail).toContain("$response.body#/client_user_id == $inputs.clientUserId");
    // The user id itself is not quoted: the run's redactor learnt it as part of the bulk import's marked connections.
    expect(conflict?.detail).toMatch(/; got 200 \{"user_id":/);
    expect(conflict?.detail).toContain(`"client_user_id":"${example.client_user_id}"`);
    expect(checks.find((check) => check.name === "user-conflict-and-undo / createAgain")).toMatchObject({
      status: "skipped",
      detail: "not run: step create failed",
    });
    expect(checks.find((check) => check.name === "link-token-never-issued / completeWithUnknownToken")?.detail).toContain("error_type == 'invalid_token'");
    // What a flow created before it stopped is deleted: sign-in-token stopped after its user was created.
    const leftByFlows = checks.filter((check) => check.suite === "cleanup" && / it left$/.test(check.name));
    // The id as the report may write it: redacted, since the run's redactor learnt it (above), as a secret (the bulk
    // import's connections) or health data (the historical pulls' user_id), whichever it met first.
    expect(leftByFlows.map((check) => check.name.replace(exampleUser, "[secret removed]"))).toContainEqual(
      expect.stringMatching(/^sign-in-token: user \[(secret|phi) removed\] it left$/),
    );
    expect(leftByFlows.every((check) => check.status === "passed" && check.operationId === "deleteUser")).toBe(true);
  });
});

describe("the workflows in npm run verify", () => {
  it("all pass on the stateful mock step by step, under the rate limit, the connection's event arriving signed and about the workflow's user", async () => {
    const flows = onStateful.report!.checks.filter((check) => check.suite.startsWith("workflow "));
    expect(flows.length).toBeGreaterThan(50);
    expect(flows.filter((check) => check.status !== "passed")).toEqual([]);
    // A check per step, and one for each part the event's delivery is judged by.
    expect(flows.length).toBe((await readWorkflows()).reduce((sum, workflow) => sum + workflow.steps.length, 0) + DELIVERY_PARTS.length);
    const delivery = flows.filter((check) => check.name.startsWith("connection-webhook / provider.connection.created: "));
    expect(delivery.map((check) => [check.name, check.status, check.detail])).toEqual(
      DELIVERY_PARTS.map((part) => [`connection-webhook / provider.connection.created: ${part}`, "passed", undefined]),
    );
  });
});
