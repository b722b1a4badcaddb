// Seed data for the stateful mock (src/mock/state/seed.ts): a dataset loaded and read back through the mock's own
// answers, an export of what the API made loaded into a fresh mock exporting the same, a bad dataset refused whole
// (naming each record and field) with nothing loaded, `PUT /_mock/data` per credential, and `npm start -- --data`
// stopping on a bad file before it listens.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { toolEnv } from "../../scripts/build/lib/tools.ts";
import { CONTRACT_ID, createContractAjv } from "../../src/contract/ajv.ts";
import type { MockSeedData } from "../../src/mock/public-types.ts";
import { listOperations } from "../../src/contract/operations.ts";
import { createMockWith } from "../../src/mock/create-mock.ts";
import { StatefulMock } from "../../src/mock/state/handlers.ts";
import { allowLoopbackWebhooks } from "../../src/mock/state/loopback-webhooks.ts";
import { loadSeed, SeedError, type SeedData } from "../../src/mock/state/seed.ts";
import { contract, responseExample } from "../support/contract.ts";

const KEY = "sk_test_seed_team_0001";
const ORG_KEY = "mk_test_seed_org_0001";
const ORG_TEAM_KEY = "sk_test_seed_org_team_0001";
const USER_ID = "5eed0000-0000-4000-8000-000000000001";
const ORG_ID = "5eed0000-0000-4000-8000-0000000000a1";
const TEAM_ID = "5eed0000-0000-4000-8000-0000000000b1";
const HOOK_ID = "5eed0000-0000-4000-8000-0000000000c1";
const API_KEY_ID = "5eed0000-0000-4000-8000-0000000000d1";
const AT = "2025-01-02T03:04:05Z";

const insurance = responseExample("createInsurance", 200, "commercial_plan") as Record<string, any>;

function seed(): SeedData {
  return {
    version: 1,
    teams: [
      {
        api_key: KEY,
        name: "Seeded team",
        users: [
          {
            user_id: USER_ID,
            client_user_id: "seed-patient-1",
            created_on: AT,
            insurance: [structuredClone(insurance) as any],
            connections: [{ provider: "whoop" }],
          },
        ],
      },
    ],
    orgs: [
      {
        management_key: ORG_KEY,
        id: ORG_ID,
        teams: [
          {
            id: TEAM_ID,
            org_id: ORG_ID,
            name: "Seeded org team",
            created_at: AT,
            api_keys: [
              { id: API_KEY_ID, team_id: TEAM_ID, label: "suite", key_preview: `${ORG_TEAM_KEY.slice(0, 20)}…`, created_at: AT, api_key: ORG_TEAM_KEY },
            ],
            webhook_endpoints: [
              {
                id: HOOK_ID,
                team_id: TEAM_ID,
                url: "https://hooks.example.com/svc",
                event_types: null,
                headers: {},
                enabled: true,
                description: null,
                created_at: AT,
                updated_at: AT,
                secret: "whsec_ZmFrZS1zZWNyZXQ=",
              },
            ],
          },
        ],
      },
    ],
  };
}

type Mock = ReturnType<typeof createMockWith>;

async function send(mock: Mock, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const response = await mock.fetch(path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const team = (key: string) => ({ "x-svc-api-key": key });

/** The refusal of a dataset, which must be one. */
function refusalOf(data: unknown): SeedError {
  try {
    createMockWith(contract, { data: data as MockSeedData });
  } catch (error) {
    if (error instanceof SeedError) return error;
    throw error;
  }
  throw new Error("the dataset was loaded");
}
const org = (key: string) => ({ "x-management-key": key });

describe("seed data", () => {
  it("is what the mock answers from: its users, insurance, connections, org teams, API keys and webhook endpoints", async () => {
    const mock = createMockWith(contract, { data: seed() });
    const again = await send(mock, "POST", "/v2/user", team(KEY), { client_user_id: "seed-patient-1" });
    expect(again).toEqual({ status: 400, body: expect.objectContaining({ code: "user_already_exists", user_id: USER_ID, created_on: AT }) });

    const latest = await send(mock, "GET", `/v2/user/${USER_ID}/insurance/latest`, team(KEY));
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({ member_id: insurance.member_id, is_primary: true, insured: { address: { zip_code: insurance.insured.address.zip } } });
    expect(latest.body.insured.address).not.toHaveProperty("country");

    const token = await send(mock, "POST", "/v2/link/token", team(KEY), { user_id: USER_ID, provider: "whoop" });
    const mfa = await send(
      mock,
      "POST",
      "/v2/link/provider/password/whoop/complete_mfa",
      { "x-svc-link-token": token.body.link_token },
      { mfa_code: "123456" },
    );
    expect(mfa.body).toMatchObject({ state: "error", error_type: "duplicate_connection" });

    expect((await send(mock, "GET", "/v2/management/teams", org(ORG_KEY))).body).toEqual([
      { id: TEAM_ID, org_id: ORG_ID, name: "Seeded org team", created_at: AT },
    ]);
    const hooks = await send(mock, "GET", `/v2/management/teams/${TEAM_ID}/webhooks`, org(ORG_KEY));
    expect(hooks.body).toEqual([expect.objectContaining({ id: HOOK_ID, url: "https://hooks.example.com/svc" })]);
    expect(hooks.body[0]).not.toHaveProperty("secret");

    // Counted as the API counts what it makes: a user, its insurance record and its connection; an API key and an
    // endpoint; an org's team (the link token made above is a record too).
    const state = await send(mock, "GET", "/_mock/state", { ...team(KEY), ...org(ORG_KEY) });
    expect(state.body.team).toMatchObject({ name: "Seeded team", records: 4, counts: { users: 1, insurance_records: 1, connections: 1 } });
    expect(state.body.org).toMatchObject({ id: ORG_ID, teams: [TEAM_ID], records: 1, counts: { teams: 1, management_keys: 0, etl_pipelines: 0 } });
    expect((await send(mock, "GET", "/_mock/state", team(ORG_TEAM_KEY))).body.team).toMatchObject({ id: TEAM_ID, org_id: ORG_ID, records: 2 });
  });

  it("exports what the API made, and that export, loaded into a fresh mock, answers and exports the same", async () => {
    const made = createMockWith(contract, { stateful: true });
    const kept = await send(made, "POST", "/v2/user", team(KEY), { client_user_id: "made-1" });
    const gone = await send(made, "POST", "/v2/user", team(KEY), { client_user_id: "made-2" });
    await send(made, "POST", `/v2/user/${kept.body.user_id}/insurance`, team(KEY), responseExample("createInsurance", 200, "commercial_plan"));
    await send(made, "DELETE", `/v2/user/${gone.body.user_id}`, team(KEY));
    const token = await send(made, "POST", "/v2/link/token", team(KEY), { user_id: kept.body.user_id, provider: "whoop" });
    await send(made, "POST", "/v2/link/provider/password/whoop/complete_mfa", { "x-svc-link-token": token.body.link_token }, { mfa_code: "123456" });
    await send(made, "PATCH", "/_mock/state", team(KEY), { clock: { advance_seconds: 3600 }, settings: { bulk_import_duration_ms: 10 } });
    const orgTeam = await send(made, "POST", "/v2/management/teams", org(ORG_KEY), { name: "Made by the org" });
    const issued = await send(made, "POST", `/v2/management/teams/${orgTeam.body.id}/api_keys`, org(ORG_KEY), { label: "suite" });
    await send(made, "POST", `/v2/management/teams/${orgTeam.body.id}/webhooks`, org(ORG_KEY), {
      url: "http://127.0.0.1:9/hooks",
      event_types: ["provider.connection.created"],
    });
    await send(made, "PUT", `/v2/management/teams/${orgTeam.body.id}/custom_credentials/oura`, org(ORG_KEY), {
      client_id: "fake-client",
      client_secret: "fake-secret",
    });

    const exported = await send(made, "GET", "/_mock/data");
    expect(exported.status).toBe(200);
    expect(
      exported.body.teams[0].users.map((user: any) => [user.client_user_id, user.insurance?.length, user.connections, typeof user.deletion_requested_at]),
    ).toEqual([
      ["made-1", 1, [{ provider: "whoop" }], "undefined"],
      ["made-2", undefined, undefined, "string"],
    ]);
    // The mock-only description says what the export holds.
    const description = parse(await readFile(path.join(repoRoot, "openapi/workflows/mock-control.openapi.yaml"), "utf8")) as object;
    const described = createContractAjv(description).compile({ $ref: `${CONTRACT_ID}#/components/schemas/SeedData` });
    expect(described(exported.body), JSON.stringify(described.errors)).toBe(true);

    const loaded = createMockWith(contract, { data: exported.body });
    expect((await send(loaded, "GET", "/_mock/data")).body).toEqual(exported.body);

    for (const [path, headers] of [
      [`/v2/user/${kept.body.user_id}/insurance/latest`, team(KEY)],
      [`/v2/management/teams/${orgTeam.body.id}/webhooks`, org(ORG_KEY)],
      [`/v2/management/teams/${orgTeam.body.id}/api_keys`, org(ORG_KEY)],
    ] as const) {
      expect((await send(loaded, "GET", path, headers)).body, path).toEqual((await send(made, "GET", path, headers)).body);
    }
    // The user whose deletion is pending is still there, and its deletion can be undone, as in the mock that made it.
    expect((await send(loaded, "POST", `/v2/user/${gone.body.user_id}/undo_delete`, team(KEY))).status).toBe(200);
    expect((await send(loaded, "POST", "/v2/user", team(issued.body.api_key), { client_user_id: "reached" })).status).toBe(200);
  });

  it("is refused whole when anything in it is wrong, each problem naming its record and field, and nothing is loaded", async () => {
    const bad = seed();
    bad.teams![0]!.users![0]!.created_on = "yesterday";
    (bad.teams![0]!.users![0] as any).emial = "x@example.com";
    bad.orgs![0]!.teams![0]!.webhook_endpoints![0]!.url = "http://hooks.example.com/svc";
    bad.orgs![0]!.teams![0]!.webhook_endpoints![0]!.team_id = ORG_ID;
    const refused = refusalOf(bad);
    expect(refused.problems).toEqual([
      'teams[0].users[0] (client_user_id "seed-patient-1"): /created_on: must match format "date-time"',
      expect.stringMatching(
        /^teams\[0\]\.users\[0\] \(client_user_id "seed-patient-1"\): \/emial: is not a field this record takes \(user_id, client_user_id, created_on, /,
      ),
      expect.stringMatching(
        /^orgs\[0\]\.teams\[0\]\.webhook_endpoints\[0\] \(id "5eed0000-0000-4000-8000-0000000000c1"\): \/url: must match pattern "\^\(https:/,
      ),
      `orgs[0].teams[0].webhook_endpoints[0] (id "${HOOK_ID}"): /team_id: must be its team's id (${TEAM_ID})`,
    ]);
    expect(refused.message).toMatch(/^The seed data is refused \(4 problems\); nothing was loaded:\n {2}teams\[0\]/);

    // Over HTTP: a 422 whose details point at each field; the state is as it was, empty or not.
    const empty = createMockWith(contract, { stateful: true });
    const answer = await send(empty, "PUT", "/_mock/data", {}, bad);
    expect(answer.status).toBe(422);
    expect(answer.body.details.map((detail: any) => detail.field)).toEqual([
      "/teams/0/users/0/created_on",
      "/teams/0/users/0/emial",
      "/orgs/0/teams/0/webhook_endpoints/0/url",
      "/orgs/0/teams/0/webhook_endpoints/0/team_id",
    ]);
    expect(answer.body.details[0].message).toBe(refused.problems[0]);
    expect((await send(empty, "GET", "/_mock/state")).body.totals).toEqual({ teams: 0, records: 0 });
    const seeded = createMockWith(contract, { data: seed() });
    const before = await send(seeded, "GET", "/_mock/data");
    expect((await send(seeded, "PUT", "/_mock/data", {}, bad)).status).toBe(422);
    expect(await send(seeded, "GET", "/_mock/data")).toEqual(before);
  });

  it("refuses a client_user_id, user_id or API key held twice", () => {
    const twice = seed();
    const user = twice.teams![0]!.users![0]!;
    twice.teams![0]!.users!.push(
      { ...user, user_id: "5eed0000-0000-4000-8000-000000000002", insurance: [] },
      { ...user, client_user_id: "seed-patient-3", insurance: [] },
    );
    twice.teams!.push({ api_key: ORG_TEAM_KEY });
    expect(refusalOf(twice).problems).toEqual([
      'teams[0].users[1] (client_user_id "seed-patient-1"): /client_user_id: "seed-patient-1" is also the client_user_id of teams[0].users[0]',
      `teams[0].users[2] (client_user_id "seed-patient-3"): /user_id: "${USER_ID}" is also the user_id of teams[0].users[0]`,
      'orgs[0].teams[0].api_keys[0] (label "suite"): /api_key: is also the API key of teams[1]',
    ]);
  });

  it("refuses a dataset past the caps, naming the team, and keeps nothing of it", () => {
    const document = allowLoopbackWebhooks(contract);
    const mock = new StatefulMock({ document, operations: listOperations(document), caps: { recordsPerTeam: 2 }, log: () => {} });
    expect(() => loadSeed(mock, seed())).toThrow('teams[0] (name "Seeded team"): holds 3 records; the mock holds at most 2 per team');
    expect([mock.store.teamCount, mock.store.records]).toEqual([0, 0]);
  });

  it("counts a dataset for one credential beside what the mock keeps for the others", () => {
    const document = allowLoopbackWebhooks(contract);
    const mock = new StatefulMock({ document, operations: listOperations(document), caps: { records: 3 }, log: () => {} });
    const withUsers = (key: string, count: number) => ({
      version: 1,
      teams: [
        {
          api_key: key,
          users: Array.from({ length: count }, (_, i) => ({
            user_id: `5eed0000-0000-4000-8000-00000000000${i}`,
            client_user_id: `${key}-${i}`,
            created_on: AT,
          })),
        },
      ],
    });
    loadSeed(mock, withUsers("sk_test_seed_other_0002", 2));
    expect(() => loadSeed(mock, withUsers(KEY, 2), { apiKey: KEY })).toThrow(
      "the seed: holds 2 records, beside the 2 the mock keeps; the mock holds at most 3 in all",
    );
    loadSeed(mock, withUsers(KEY, 1), { apiKey: KEY });
    expect([mock.store.teamCount, mock.store.records]).toEqual([2, 3]);
  });

  it("with a credential, replaces only what it reaches: another suite's team is left alone", async () => {
    const mock = createMockWith(contract, { data: seed() });
    const other = "sk_test_seed_other_0002";
    await send(mock, "POST", "/v2/user", team(other), { client_user_id: "other-1" });
    const replaced = await send(mock, "PUT", "/_mock/data", team(KEY), { version: 1, teams: [{ api_key: KEY, name: "Replaced", users: [] }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.teams).toEqual([expect.objectContaining({ api_key: KEY, name: "Replaced", users: [] })]);
    const all = (await send(mock, "GET", "/_mock/data")).body;
    expect(all.teams.map((each: any) => [each.api_key, each.users.length])).toEqual([
      [other, 1],
      [KEY, 0],
    ]);
    expect(all.orgs[0].teams[0].id).toBe(TEAM_ID);

    const elsewhere = await send(mock, "PUT", "/_mock/data", team(KEY), { version: 1, teams: [{ api_key: other }] });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.details).toEqual([
      { location: "body", field: "/teams/0/api_key", message: expect.stringMatching(/^teams\[0\]: \/api_key: is not the one the request sends/) },
    ]);
    expect((await send(mock, "GET", "/_mock/data", team(ORG_TEAM_KEY))).status).toBe(401);
  });

  it("is answered only by the stateful mock: the stateless one's /_mock/data is a 404 naming --stateful", async () => {
    const answer = await send(createMockWith(contract), "GET", "/_mock/data");
    expect(answer.status).toBe(404);
    expect(answer.body.message).toContain("--stateful");
  });
});

describe("npm start -- --data", () => {
  it("stops on a bad file before it builds or listens, printing every problem, with exit status 1", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "svc-seed-"));
    const file = path.join(dir, "bad.json");
    const bad = seed();
    bad.teams![0]!.users![0]!.created_on = "yesterday";
    await writeFile(file, JSON.stringify(bad));
    try {
      const result = await promisify(execFile)(process.execPath, ["scripts/commands/start.js", "--port", "0", "--data", file], {
        cwd: repoRoot,
        env: toolEnv,
        // A hang guard only: a start on a busy machine can take seconds.
        timeout: 55_000,
      }).then(
        (done) => ({ code: 0, ...done }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).not.toContain("Mock server:");
      expect(result.stderr.trim().split("\n")).toEqual([
        `npm start: --data ${file} is refused (1 problem); nothing was loaded:`,
        '  teams[0].users[0] (client_user_id "seed-patient-1"): /created_on: must match format "date-time"',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
