// Strict keys (`--strict-keys`, `strictKeys: true`): the keys the mock knows authenticate (the seed's, those the
// management API issues, the placeholders, verify's own), any other is the contract's 401 whatever Prefer asks, and an
// unissued link token is the service's invalid_token; without the option any key is a team. The option is checked as the others are, and the flag reaches the mock.
import { describe, expect, it } from "vitest";
import { hostOptionsOf, readMockOptions } from "../../src/mock/command-options.ts";
import { createMockWith } from "../../src/mock/create-mock.ts";
import type { Mock, MockOptions, MockSeedData } from "../../src/mock/public-types.ts";
import { assertMatchesContract, contract } from "../support/contract.ts";

const SEED_KEY = "sk_test_seeded_team";
const SEED_MANAGEMENT_KEY = "mk_test_seeded_org";
const seed: MockSeedData = { version: 1, teams: [{ api_key: SEED_KEY }], orgs: [{ management_key: SEED_MANAGEMENT_KEY }] };

const made = (options: MockOptions) => createMockWith(contract, options);
const strict = made({ strictKeys: true, data: seed });

const team = (key: string) => ({ "x-svc-api-key": key, "content-type": "application/json" });
const org = (key: string) => ({ "x-management-key": key, "content-type": "application/json" });

async function call(mock: Mock, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await mock.fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as any };
}

/** A refusal as the contract declares the operation's 401, its message matching `message`. */
function expectRefused(answer: { status: number; body: unknown }, operationId: string, message: RegExp = /strict keys/) {
  expect(answer.status).toBe(401);
  assertMatchesContract(operationId, 401, answer.body);
  expect(answer.body).toMatchObject({ code: "unauthorized", message: expect.stringMatching(message) });
}

describe("strict keys", () => {
  it("refuse a key the mock does not know with the contract's 401, a Prefer header included; the stateful mock without them takes it", async () => {
    const unknown = team("SCHEMATHESIS-INVALID-VALUE");
    expectRefused(await call(strict, "GET", "/v3/lab_tests/labs", unknown), "listLabs");
    expectRefused(await call(strict, "GET", "/v3/lab_tests/labs", { ...unknown, prefer: "code=200" }), "listLabs");
    expectRefused(await call(strict, "POST", "/v2/management/teams", org("mk_never_issued"), { name: "x" }), "createTeam");
    const lenient = made({ stateful: true });
    expect((await call(lenient, "GET", "/v3/lab_tests/labs", unknown)).status).toBe(200);
    expect((await call(lenient, "POST", "/v2/management/teams", org("mk_never_issued"), { name: "x" })).status).toBe(201);
  });

  it("take the seed's keys, the placeholders and verify's own", async () => {
    for (const key of [SEED_KEY, "YOUR_TEAM_API_KEY", "sk_test_verify_0123abcd"]) {
      expect([key, (await call(strict, "POST", "/v2/user", team(key), { client_user_id: "strict-1" })).status]).toEqual([key, 200]);
    }
    for (const key of [SEED_MANAGEMENT_KEY, "YOUR_MANAGEMENT_KEY", "mk_test_verify_0123abcd"]) {
      expect([key, (await call(strict, "GET", "/v2/management/teams", org(key))).status]).toEqual([key, 200]);
    }
  });

  it("take a key createTeamApiKey issued until it is deleted, then refuse it as deleted, a Prefer header included", async () => {
    const made = await call(strict, "POST", "/v2/management/teams", org(SEED_MANAGEMENT_KEY), { name: "Issued" });
    const issued = await call(strict, "POST", `/v2/management/teams/${made.body.id}/api_keys`, org(SEED_MANAGEMENT_KEY), { label: "tests" });
    expect((await call(strict, "GET", "/v3/lab_tests/labs", team(issued.body.api_key))).status).toBe(200);
    await call(strict, "DELETE", `/v2/management/teams/${made.body.id}/api_keys/${issued.body.id}`, org(SEED_MANAGEMENT_KEY));
    const deleted = { ...team(issued.body.api_key), prefer: "code=200" };
    expectRefused(await call(strict, "GET", "/v3/lab_tests/labs", deleted), "listLabs", /was deleted/);
  });

  it("take a key createManagementKey issued until it is deleted, then refuse it", async () => {
    const issued = await call(strict, "POST", "/v2/management/keys", org(SEED_MANAGEMENT_KEY), { kind: "org", label: "tests" });
    expect(issued.status).toBe(201);
    expect((await call(strict, "GET", "/v2/management/teams", org(issued.body.management_key))).status).toBe(200);
    expect((await call(strict, "DELETE", `/v2/management/keys/${issued.body.id}`, org(SEED_MANAGEMENT_KEY))).status).toBe(200);
    expect((await call(strict, "GET", "/v2/management/teams", org(issued.body.management_key))).status).toBe(401);
  });

  it("answer a link token createLinkToken did not issue as the service does (invalid_token), an issued one as issued", async () => {
    const user = await call(strict, "POST", "/v2/user", team(SEED_KEY), { client_user_id: "strict-link" });
    const token = await call(strict, "POST", "/v2/link/token", team(SEED_KEY), { user_id: user.body.user_id });
    const complete = (value: string) =>
      call(
        strict,
        "POST",
        "/v2/link/provider/password/whoop/complete_mfa",
        { "x-svc-link-token": value, "content-type": "application/json" },
        { mfa_code: "123456" },
      );
    expect(await complete(token.body.link_token)).toMatchObject({ status: 200, body: { state: "success" } });
    expect(await complete("YOUR_LINK_TOKEN")).toMatchObject({ status: 200, body: { state: "error", error_type: "invalid_token" } });
  });

  it("give no team to an unknown key through /_mock/state", async () => {
    await expect(strict.team("sk_never_issued").set({ settings: { closed_beta_enabled: false } })).rejects.toThrow(/strict keys/);
    await expect(strict.team(SEED_KEY).set({ settings: { closed_beta_enabled: false } })).resolves.toBeDefined();
  });

  it("are checked as the other options are, and --strict-keys implies the stateful mock and is refused beside --proxy", () => {
    expect(() => made({ strictKeys: "yes" } as never)).toThrow('createMock: strictKeys must be true or false (got "yes")');
    const fail = (line: string): never => {
      throw new Error(line);
    };
    const options = readMockOptions("usage", "hint", fail, ["--strict-keys"]);
    expect(hostOptionsOf(options, undefined)).toMatchObject({ stateful: { strictKeys: true } });
    expect(hostOptionsOf(readMockOptions("usage", "hint", fail, ["--stateful"]), undefined).stateful).toEqual({});
    expect(() => readMockOptions("usage", "hint", fail, ["--proxy", "http://127.0.0.1:9", "--strict-keys"])).toThrow(
      /--strict-keys is for the mock's own answers/,
    );
  });
});
