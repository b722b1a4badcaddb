// What verify's operation pass will send, worked out from the contract before anything is sent: the create and delete
// pairs, the order of the valid calls, the ids put into them, and the invalid calls (each really invalid).
import { describe, expect, it } from "vitest";
import { isObject } from "../../src/contract/json.ts";
import { validCalls } from "../../src/contract/valid-calls.ts";
import { requestInput } from "../../src/verify/calls.ts";
import { Fixtures, lifecycles } from "../../src/verify/fixtures.ts";
import { invalidCalls, MAX_INVALID_CALLS } from "../../src/verify/cases/invalid-calls.ts";
import { passOrder, planDependencies } from "../../src/verify/passes/operation-plan.ts";
import { contract, operation, operations, validator } from "../support/contract.ts";

const pairs = lifecycles(operations);
const examples = validCalls(contract, operations);

describe("verify's creates and deletes", () => {
  it("makes each valid call wait, when they run concurrently, for what the plan's order carries, and no more", () => {
    const fixtures = new Fixtures("verify-test", pairs);
    const order = passOrder(operations, fixtures);
    const after = planDependencies(order, fixtures);
    const ids = order.map((op) => op.operationId);
    /** Whether `later` waits for `earlier`, directly or through what it waits for. */
    const waits = (later: string, earlier: string): boolean => {
      const seen = new Set<number>();
      const visit = (i: number): boolean => after[i]!.some((j) => ids[j] === earlier || (!seen.has(j) && (seen.add(j), visit(j))));
      return visit(ids.indexOf(later));
    };
    for (const [later, earlier] of [
      ["completeProviderMfa", "createLinkToken"],
      ["getLatestInsurance", "createInsurance"],
      ["listBulkOps", "bulkImportConnections"],
      ["createTeamApiKey", "createTeam"],
      ["getTeam", "createTeam"],
      ["updateTeam", "getTeam"],
      ["deleteTeam", "deleteTeamApiKey"],
      ["deleteTeam", "deleteWebhookEndpoint"],
      ["undoUserDeletion", "deleteUser"],
    ])
      expect(waits(later!, earlier!), `${later} after ${earlier}`).toBe(true);
    // Every dependency points back: the pool starts units in order.
    for (const [i, before] of after.entries()) for (const j of before) expect(j).toBeLessThan(i);
    // What carries nothing runs together: two areas, two reads between the same writes, two deletes of one depth.
    for (const [one, other] of [
      ["listLabs", "listProviders"],
      ["listTeamApiKeys", "listManagementKeys"],
      ["createUser", "createTeam"],
      ["deleteTeamApiKey", "deleteWebhookEndpoint"],
    ])
      expect(waits(one!, other!) || waits(other!, one!), `${one} and ${other}`).toBe(false);
  });

  it("pairs each POST on a collection with the DELETE of its item, from the paths alone", () => {
    expect(pairs.map((p) => `${p.create.operationId} → ${p.remove.operationId} (${p.param})`).sort()).toEqual([
      "createEtlPipeline → deleteEtlPipeline (pipeline_id)",
      "createManagementKey → deleteManagementKey (key_id)",
      "createTeam → deleteTeam (team_id)",
      "createTeamApiKey → deleteTeamApiKey (api_key_id)",
      "createUser → deleteUser (user_id)",
      "createWebhookEndpoint → deleteWebhookEndpoint (webhook_id)",
    ]);
  });

  it("runs the creates first, parents before children, and the deletes last, children before parents, then the undo", () => {
    const order = passOrder(operations, new Fixtures("verify-test", pairs)).map((op) => op.operationId);
    expect(order).toHaveLength(operations.length);
    expect(order.slice(0, 6)).toEqual(["createUser", "createTeam", "createManagementKey", "createTeamApiKey", "createWebhookEndpoint", "createEtlPipeline"]);
    expect(order.slice(-7)).toEqual([
      "deleteTeamApiKey",
      "deleteWebhookEndpoint",
      "deleteEtlPipeline",
      "deleteUser",
      "deleteTeam",
      "deleteManagementKey",
      "undoUserDeletion",
    ]);
    expect(order.indexOf("createLinkToken")).toBeLessThan(order.indexOf("completeProviderMfa"));
  });

  it("puts the ids it made into paths and body fields, marks what it creates, and learns the link token", () => {
    const fixtures = new Fixtures("verify-0a1b2c3d", pairs);
    const createUser = operation("createUser");
    const created = fixtures.apply(createUser, examples.createUser!);
    expect(created.body).toEqual({ client_user_id: "verify-0a1b2c3d" });
    fixtures.learn(createUser, created, 200, { user_id: "11111111-1111-4111-8111-111111111111", client_user_id: "verify-0a1b2c3d" });
    fixtures.learn(operation("createTeam"), examples.createTeam!, 201, { id: "22222222-2222-4222-8222-222222222222", name: "verify-0a1b2c3d" });

    expect(fixtures.apply(operation("getLatestUserInfo"), examples.getLatestUserInfo!).path).toEqual({ user_id: "11111111-1111-4111-8111-111111111111" });
    const bulk = fixtures.apply(operation("bulkImportConnections"), examples.bulkImportConnections!).body as { connections: { user_id: string }[] };
    expect(bulk.connections.map((c) => c.user_id)).toEqual(["11111111-1111-4111-8111-111111111111", "11111111-1111-4111-8111-111111111111"]);
    expect((fixtures.apply(operation("createManagementKey"), examples.createManagementKey!).body as { team_ids: string[] }).team_ids).toEqual([
      "22222222-2222-4222-8222-222222222222",
    ]);

    const token = fixtures.apply(operation("createLinkToken"), examples.createLinkToken!);
    fixtures.learn(operation("createLinkToken"), token, 200, { link_token: "lt_made_by_the_run", link_web_url: "https://link.example/lt_made_by_the_run" });
    expect(fixtures.linkToken).toBe("lt_made_by_the_run");
  });

  it("knows what the pass deleted, and what an undo brought back", () => {
    const fixtures = new Fixtures("verify-0a1b2c3d", pairs);
    const user = { user_id: "11111111-1111-4111-8111-111111111111" };
    fixtures.learn(operation("createUser"), { path: {}, query: {} }, 200, { ...user, client_user_id: "verify-0a1b2c3d" });
    fixtures.learn(operation("deleteUser"), { path: user, query: {} }, 200, { user_id: user.user_id });
    expect(fixtures.created[0]!.deletedBy).toBe("deleteUser");
    fixtures.learn(operation("undoUserDeletion"), { path: user, query: {} }, 200, { user_id: user.user_id });
    expect(fixtures.created[0]!.deletedBy).toBeUndefined();
  });
});

describe("verify's invalid calls", () => {
  const generated = operations.map((op) => ({ op, calls: invalidCalls(contract, validator, op, examples[op.operationId]!, undefined) }));

  it("are at most three per operation, and every one is refused by the contract's validator", () => {
    for (const { op, calls } of generated) {
      expect(calls.length, op.operationId).toBeLessThanOrEqual(MAX_INVALID_CALLS);
      for (const { what, call } of calls) {
        const verdict = validator.validateRequest(op, requestInput(op, call, undefined));
        expect(verdict.details.length + (verdict.refusal ? 1 : 0), `${op.operationId}: ${what}`).toBeGreaterThan(0);
      }
    }
  });

  it("try the path, the query and the body in turn", () => {
    const names = (id: string) => generated.find(({ op }) => op.operationId === id)!.calls.map((c) => c.what);
    expect(names("listLabTestMarkers")).toEqual(["path lab_test_id=not-a-uuid", "query lab_account_id=not-a-uuid", "query page=0"]);
    expect(names("createUser")).toEqual(["body without client_user_id", "body client_user_id=12345", "no body"]);
    expect(names("createTeamApiKey")).toEqual(["path team_id=not-a-uuid", "body without label", "body label=12345"]);
  });

  it("never offer an unlisted value of a non-exhaustive enumeration, which the service may accept", () => {
    const open = new Set<string>();
    for (const op of operations) {
      for (const parameter of op.parameters) {
        const schema = parameter.schema as Record<string, unknown>;
        const resolved =
          typeof schema.$ref === "string" ? (contract.components as Record<string, Record<string, unknown>>).schemas![schema.$ref.split("/").at(-1)!] : schema;
        if (isObject(resolved) && resolved["x-svc-non-exhaustive"] === true) open.add(`${op.operationId} ${String(parameter.in)} ${String(parameter.name)}`);
      }
    }
    expect(open.size).toBeGreaterThan(0);
    for (const { op, calls } of generated) {
      for (const { what } of calls) {
        const [location, assignment] = what.split(" ");
        expect(open.has(`${op.operationId} ${location} ${assignment?.split("=")[0]}`), `${op.operationId}: ${what}`).toBe(false);
      }
    }
  });
});
