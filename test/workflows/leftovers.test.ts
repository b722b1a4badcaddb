// Which users a workflow leaves behind, from respect's log: those of its successful creates that no successful delete
// of its own removed (a workflow that stopped at a failed step).
import { describe, expect, it } from "vitest";
import { leftoverUsers } from "../../src/verify/workflows/workflow-leftovers.ts";
import type { Workflow } from "../../src/shared/workflow-files.ts";
import type { RespectWorkflow } from "../../src/verify/workflows/respect.ts";

const workflow: Workflow = {
  file: "users.arazzo.yaml",
  workflowId: "flow",
  inputs: ["apiKey"],
  mockOnly: false,
  traces: ["7"],
  steps: [
    { stepId: "create", operationId: "createUser", source: "svc" },
    { stepId: "createOther", operationId: "createUser", source: "svc" },
    { stepId: "delete", operationId: "deleteUser", source: "svc" },
  ],
};

const step = (stepId: string, status: number, body: unknown, url = "http://server/v2/user") => ({
  stepId,
  request: { method: "post", url, headers: { "x-svc-api-key": "sk_test_key", "content-type": "application/json" } },
  response: { statusCode: status, body },
  checks: [],
  status: "success",
});

describe("the users a workflow leaves", () => {
  it("are its created users no delete of its own removed", () => {
    const ran: RespectWorkflow = {
      workflowId: "flow",
      status: "failure",
      executedSteps: [
        step("create", 200, { user_id: "u1" }),
        step("createOther", 200, { user_id: "u2" }),
        step("delete", 200, { user_id: "u1" }, "http://server/v2/user/u1"),
      ],
    };
    expect(leftoverUsers(workflow, ran)).toEqual([
      { workflowId: "flow", userId: "u2", headers: { "x-svc-api-key": "sk_test_key", "content-type": "application/json" } },
    ]);
  });

  it("leave out a create that did not succeed and keep a user whose delete failed", () => {
    const ran: RespectWorkflow = {
      workflowId: "flow",
      status: "failure",
      executedSteps: [
        step("create", 200, { user_id: "u1" }),
        step("createOther", 400, { code: "user_already_exists", user_id: "u0" }),
        step("delete", 500, {}, "http://server/v2/user/u1"),
      ],
    };
    expect(leftoverUsers(workflow, ran).map((leftover) => leftover.userId)).toEqual(["u1"]);
  });
});
