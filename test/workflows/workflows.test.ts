// The document's flows (openapi/workflows/): linted by Redocly and by the repository's own check, and run with
// `redocly respect` through verify's runner against a workflow respect cannot run and the stateless mock told it is the
// mock (the mock-only flows fail without crashing); verify's own runs on the mocks are test/verify/mock.test.ts's.
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { redoclyProblems } from "../../scripts/commands/lint.ts";
import { workflowProblems } from "../../scripts/commands/lint-workflows.ts";
import { readWorkflows } from "../../src/shared/workflow-files.ts";
import { runWorkflows, type WorkflowRunOptions } from "../../src/verify/workflows/workflow-pass.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { senderAndRedactor } from "../support/verify-sender.ts";

const FIXTURES = path.join(repoRoot, "test/fixtures/workflows");

describe("the workflows' lint", () => {
  it("finds every step's operation in its source description", async () => {
    expect(await workflowProblems()).toEqual([]);
  });

  it("reports a step whose operation or source does not exist (Redocly's rules do not), and Redocly a repeated stepId", async () => {
    expect(await workflowProblems(FIXTURES)).toEqual([
      "broken.arazzo.yaml broken/unknownOperation: svc has no operation createUserTwice",
      "broken.arazzo.yaml broken/unknownSource: no source description is named elsewhere",
    ]);
    const problems = await redoclyProblems(path.join(FIXTURES, "broken.arazzo.yaml"));
    expect(problems.map((problem) => problem.ruleId)).toContain("stepId-unique");
  });

  it("marks every workflow that uses the mock's control endpoint as mock-only, and only those", async () => {
    const workflows = await readWorkflows();
    expect(workflows.length).toBeGreaterThanOrEqual(10);
    for (const workflow of workflows)
      expect([workflow.workflowId, workflow.mockOnly]).toEqual([workflow.workflowId, workflow.steps.some((step) => step.source === "mock")]);
    // The flows a real server can run: no clock, no mock conventions.
    expect(
      workflows
        .filter((workflow) => !workflow.mockOnly)
        .map((workflow) => workflow.workflowId)
        .sort(),
    ).toEqual(["insurance-latest", "link-token-never-issued", "sign-in-token", "user-conflict-and-undo"]);
  });
});

const options = (baseUrl: string, mock: boolean): WorkflowRunOptions => ({
  baseUrl,
  apiKey: `sk_test_workflows_${Math.random().toString(36).slice(2)}`,
  managementKey: `mk_test_workflows_${Math.random().toString(36).slice(2)}`,
  mock,
  allowWrites: true,
  ...senderAndRedactor(),
  log: () => {},
});

// Against the stateful mock, every step passing and the event's delivery (under a rate limit, so through the proxy's
// shared limiter) are read from npm run verify's own run there, in test/verify/mock.test.ts.

describe("a workflow respect cannot run", () => {
  it("fails at its first step with respect's reason, and skips the rest", async () => {
    const checks = await runWorkflows({ ...options(inject("mockUrl"), false), dir: path.join(repoRoot, "test/fixtures/workflows-unrunnable") });
    expect(checks.map((check) => [check.name, check.status])).toEqual([
      ["cannot-run / createUser", "failed"],
      ["cannot-run / deleteUser", "skipped"],
    ]);
    expect(checks[0]!.detail).toMatch(/^respect (wrote no log|ran no workflow)/);
  }, 60_000);
});

// What the flows report against the stateless mock when verify runs them (the mock-only ones skipped, the others'
// failures named by step, criterion and answer, the cleanup of what they left) is read from npm run verify's own run
// on it, in test/verify/mock.test.ts.
describe("the workflows against the stateless mock", () => {
  it("run the mock-only ones when told the target is the mock, and fail them without crashing", async () => {
    const checks = await runWorkflows(options(inject("mockUrl"), true));
    const first = checks.find((check) => check.name === "bulk-import-progress / slowOperations");
    expect(first).toMatchObject({ status: "failed", operationId: "updateMockState" });
    expect(first?.detail).toContain("got 422");
  }, 60_000);
});
