// The whole management API kept by the stateful mock, derived from the contract rather than written per operation:
// each resource with a create is created, read, listed, updated, read back, deleted and then gone; each setting
// (a GET beside a PUT or PATCH, with no create) is set and read back; a created management key reaches its org as
// its kind and team_ids scope it, and is refused once deleted.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_MOCK_URL } from "../../src/mock/create-mock.ts";
import { fetchHandler } from "../../src/mock/fetch-handler.ts";
import { createPipeline } from "../../src/mock/pipeline.ts";
import type { SeedError } from "../../src/mock/state/seed.ts";
import { deref, type ContractOperation } from "../../src/contract/operations.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { assertMatchesContract, contract, operations } from "../support/contract.ts";

const handle = fetchHandler(createPipeline({ document: contract, log: () => {}, stateful: {} }));
const management = operations.filter((op) => op.template.startsWith("/v2/management/"));
const at = (method: string, template: string) => management.find((op) => op.method === method.toUpperCase() && op.template === template);
/** The path parameter a template ends with (`/teams/{team_id}` → team_id), when it does. */
const lastParameter = (template: string) => /\/\{([^}]+)\}$/.exec(template)?.[1];
const parent = (template: string) => template.slice(0, template.lastIndexOf("/"));

async function call(key: string, op: ContractOperation, path: Record<string, string>, body?: unknown, target = handle) {
  const url = op.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(path[name] ?? `missing-${name}`));
  const headers = { "x-management-key": key, "content-type": "application/json" };
  const response = await target(
    new Request(`${DEFAULT_MOCK_URL}${url}`, { method: op.method, headers, body: body === undefined ? null : JSON.stringify(body) }),
  );
  const text = await response.text();
  const answer = { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as any) };
  if (answer.status < 300) assertMatchesContract(op.operationId, answer.status, answer.body);
  return answer;
}

/** Every request example of an operation, in the contract's order. */
function requestBodies(op: ContractOperation): unknown[] {
  const media = op.requestBody === undefined ? undefined : ((op.requestBody.content as JsonObject)["application/json"] as JsonObject);
  return Object.values((media?.examples ?? {}) as JsonObject).map((example) => structuredClone(deref(contract, example).value));
}

/** What was sent, as a read shows it: a field the read leaves out (a write-only secret) is not compared. */
function expectReadBack(read: any, sent: any) {
  for (const [field, value] of Object.entries(sent)) {
    expect(read, `the read holds ${field}`).toHaveProperty([field]);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      expect(read[field]).toMatchObject(Object.fromEntries(Object.entries(value).filter(([inner]) => inner in read[field])));
    } else expect(read[field], field).toEqual(value);
  }
}

/** A resource: a create on a collection, and what acts on one of its items (`{collection}/{id}`). */
const resources = management
  .filter((op) => op.method === "POST" && op.responses["201"] !== undefined)
  .map((create) => {
    const item = management.find((op) => parent(op.template) === create.template && lastParameter(op.template) !== undefined)?.template;
    return {
      create,
      list: at("get", create.template),
      read: item === undefined ? undefined : at("get", item),
      update: item === undefined ? undefined : (at("patch", item) ?? at("put", item)),
      remove: item === undefined ? undefined : at("delete", item),
      idParameter: item === undefined ? undefined : lastParameter(item)!,
    };
  });

/** A setting: a GET and a PUT or PATCH on one path that no create makes an item of. */
const settings = management
  .filter((op) => (op.method === "PUT" || op.method === "PATCH") && at("get", op.template) !== undefined)
  .filter((op) => !resources.some((resource) => parent(op.template) === resource.create.template))
  .map((set) => ({ set, get: at("get", set.template)! }));

/** A new org (a management key the mock has not met) with one team, and the path parameters that reach it. */
async function newOrg(target = handle) {
  const key = `mk_test_${randomUUID()}`;
  const team = await call(key, at("post", "/v2/management/teams")!, {}, { name: "Derived" }, target);
  expect(team.status).toBe(201);
  return { key, path: { team_id: team.body.id as string } };
}

describe("every management resource with a create is kept in state (derived from the contract)", () => {
  it("finds the resources and settings the contract has", () => {
    expect(resources.map((resource) => resource.create.operationId)).toEqual(
      expect.arrayContaining(["createTeam", "createTeamApiKey", "createManagementKey", "createWebhookEndpoint", "createEtlPipeline"]),
    );
    expect(settings.map((setting) => setting.set.operationId).sort()).toEqual(["setTeamBrand", "updateOrg"]);
  });

  it.each(resources.map((resource) => [resource.create.operationId, resource] as const))(
    "%s: create → read, list → update → read back → delete → gone",
    async (_, resource) => {
      const { key, path } = await newOrg();
      // The first request example the mock accepts: another may name teams only the contract's examples have.
      let created: Awaited<ReturnType<typeof call>> | undefined;
      for (const body of requestBodies(resource.create)) {
        created = await call(key, resource.create, path, body);
        if (created.status === 201) break;
      }
      expect(created?.status).toBe(201);
      const id = String(created!.body.id);
      const itemPath = { ...path, [resource.idParameter!]: id };
      const found = async () => {
        if (resource.list === undefined) return undefined;
        const listed = await call(key, resource.list, path);
        expect(listed.status).toBe(200);
        return (listed.body as any[]).find((entry) => entry.id === id);
      };
      const listedEntry = await found();
      if (resource.list !== undefined) expect(listedEntry, "the created record is listed").toBeDefined();
      if (resource.read !== undefined) {
        const read = await call(key, resource.read, itemPath);
        expect(read.status).toBe(200);
        if (listedEntry !== undefined) expect(read.body).toEqual(listedEntry);
        expectReadBack(read.body, Object.fromEntries(Object.entries(created!.body).filter(([field]) => field in read.body)));
      }
      if (resource.update !== undefined) {
        const [change] = requestBodies(resource.update);
        const updated = await call(key, resource.update, itemPath, change);
        expect(updated.status).toBe(200);
        const read = resource.read === undefined ? { body: await found() } : await call(key, resource.read, itemPath);
        expectReadBack(read.body, change);
      }
      expect(resource.remove, `${resource.create.operationId} has a delete`).toBeDefined();
      expect((await call(key, resource.remove!, itemPath)).status).toBe(200);
      if (resource.read !== undefined) expect((await call(key, resource.read, itemPath)).status).toBe(404);
      expect(await found(), "the deleted record is no longer listed").toBeUndefined();
      expect((await call(key, resource.remove!, itemPath)).status).toBe(404);
    },
  );

  it.each(settings.map((setting) => [setting.set.operationId, setting] as const))("%s: set → read back", async (_, setting) => {
    const { key, path } = await newOrg();
    for (const body of requestBodies(setting.set)) {
      expect((await call(key, setting.set, path, body)).status).toBe(200);
      const read = await call(key, setting.get, path);
      expect(read.status).toBe(200);
      expectReadBack(read.body, body);
    }
  });
});

describe("a created management key reaches its org, scoped by its kind and team_ids", () => {
  const op = (operationId: string) => management.find((each) => each.operationId === operationId)!;

  it("an org key reaches every team; a team key only its own, and no org-level operation; a deleted key is refused", async () => {
    const { key, path } = await newOrg();
    const other = await call(key, op("createTeam"), {}, { name: "Other" });
    const orgKey = await call(key, op("createManagementKey"), {}, { kind: "org", label: "Automation" });
    const teamKey = await call(key, op("createManagementKey"), {}, { kind: "team", label: "Health only", team_ids: [path.team_id] });
    expect([orgKey.status, teamKey.status]).toEqual([201, 201]);
    const [asOrg, asTeam] = [orgKey.body.management_key as string, teamKey.body.management_key as string];

    const teamIds = async (as: string) => ((await call(as, op("listTeams"), {})).body as { id: string }[]).map((team) => team.id).sort();
    expect(await teamIds(asOrg)).toEqual([path.team_id, other.body.id].sort());
    expect(await teamIds(asTeam)).toEqual([path.team_id]);
    expect((await call(asTeam, op("getTeam"), path)).status).toBe(200);
    const outside = await call(asTeam, op("getTeam"), { team_id: other.body.id });
    expect([outside.status, outside.body.code]).toEqual([403, "team_not_in_key_scope"]);
    const orgLevel = await call(asTeam, op("getOrg"), {});
    expect([orgLevel.status, orgLevel.body.code]).toEqual([403, "org_key_required"]);
    expect((await call(asOrg, op("createTeam"), {}, { name: "By the new key" })).status).toBe(201);

    const unknownTeam = await call(key, op("createManagementKey"), {}, { kind: "team", label: "Nowhere", team_ids: [randomUUID()] });
    expect(unknownTeam.status).toBe(422);

    expect((await call(key, op("deleteManagementKey"), { key_id: teamKey.body.id })).status).toBe(200);
    expect((await call(asTeam, op("getTeam"), path)).status).toBe(401);
    expect((await call(asOrg, op("getTeam"), path)).status).toBe(200);
  });
});

describe("the management state in seed data", () => {
  it("exports the org's name, management keys, brand and ETL pipelines, and a fresh mock loaded with the export answers the same", async () => {
    const { key, path } = await newOrg();
    const op = (operationId: string) => management.find((each) => each.operationId === operationId)!;
    const [pipelineBody] = requestBodies(op("createEtlPipeline"));
    const [brand] = requestBodies(op("setTeamBrand"));
    expect((await call(key, op("updateOrg"), {}, { name: "Seeded org" })).status).toBe(200);
    expect((await call(key, op("setTeamBrand"), path, brand)).status).toBe(200);
    const pipeline = await call(key, op("createEtlPipeline"), path, pipelineBody);
    const teamKey = await call(key, op("createManagementKey"), {}, { kind: "team", label: "Seeded", team_ids: [path.team_id] });
    const exported = await handle(new Request(`${DEFAULT_MOCK_URL}/_mock/data`, { headers: { "x-management-key": key } }));
    const data = (await exported.json()) as any;
    expect(data.orgs[0]).toMatchObject({ name: "Seeded org", management_keys: [teamKey.body], teams: [{ brand, etl_pipelines: [pipeline.body] }] });

    const fresh = fetchHandler(createPipeline({ document: contract, log: () => {}, stateful: { data } }));
    const read = async (as: string, url: string) => {
      const response = await fresh(new Request(`${DEFAULT_MOCK_URL}${url}`, { headers: { "x-management-key": as } }));
      return { status: response.status, body: (await response.json()) as any };
    };
    const asTeam = teamKey.body.management_key as string;
    expect((await read(asTeam, `/v2/management/teams/${path.team_id}/etl_pipelines/${pipeline.body.id}`)).body).toEqual(pipeline.body);
    expect((await read(asTeam, `/v2/management/teams/${path.team_id}/brand`)).body).toEqual(brand);
    expect((await read(asTeam, "/v2/management/org")).status).toBe(403);
    expect((await read(key, "/v2/management/org")).body.name).toBe("Seeded org");
    const again = await fresh(new Request(`${DEFAULT_MOCK_URL}/_mock/data`, { headers: { "x-management-key": key } }));
    expect(await again.json()).toEqual(data);
  });
});

describe("the management state within the caps", () => {
  const capped = fetchHandler(createPipeline({ document: contract, log: () => {}, stateful: { caps: { recordsPerTeam: 3 } } }));

  it.each(resources.map((resource) => [resource.create.operationId, resource] as const))(
    "%s past the records per team is 429 mock_state_full",
    async (_, resource) => {
      const { key, path } = await newOrg(capped);
      const statuses: number[] = [];
      let refused: any;
      for (let i = 0; i < 5 && refused === undefined; i++) {
        for (const body of requestBodies(resource.create)) {
          const answer = await call(key, resource.create, path, body, capped);
          if (answer.status === 422) continue;
          statuses.push(answer.status);
          if (answer.status === 429) refused = answer.body;
          break;
        }
      }
      expect(statuses.at(-1), JSON.stringify(statuses)).toBe(429);
      expect(statuses.slice(0, -1).every((status) => status === 201)).toBe(true);
      expect(refused.code).toBe("mock_state_full");
    },
  );
});

describe("seed data's management keys", () => {
  it("refuses a team management key bound to a team its org does not have, and an org key bound to teams, naming each", () => {
    const ORG = "5eed0000-0000-4000-8000-0000000000a1";
    const TEAM = "5eed0000-0000-4000-8000-0000000000b1";
    const key = (kind: string, team_ids: string[], n: number) => ({
      id: `5eed0000-0000-4000-8000-00000000000${n}`,
      kind,
      label: `Key ${n}`,
      team_ids,
      key_preview: "mk_test_seed…",
      created_at: "2025-01-01T00:00:00Z",
      management_key: `mk_test_seed_${n}`,
    });
    const data = {
      version: 1,
      orgs: [
        {
          management_key: "mk_test_seed_org",
          id: ORG,
          teams: [{ id: TEAM, org_id: ORG, name: "Seeded", created_at: "2025-01-01T00:00:00Z" }],
          management_keys: [key("team", [TEAM], 1), key("team", ["5eed0000-0000-4000-8000-0000000000b2"], 2), key("org", [TEAM], 3)],
        },
      ],
    };
    let problems: string[] = [];
    try {
      createPipeline({ document: contract, log: () => {}, stateful: { data } });
    } catch (error) {
      problems = (error as SeedError).problems;
    }
    expect(problems).toEqual([
      `orgs[0].management_keys[1] (label "Key 2"): /team_ids/0: must be the id of one of the org's teams`,
      `orgs[0].management_keys[2] (label "Key 3"): /team_ids: must be empty for an org management key`,
    ]);
  });
});
