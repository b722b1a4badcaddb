// The stateful mock (`--stateful`): state per credential, the document's rules over state, caps answered with a
// declared 429 that names them, /_mock/state to read, reset and move the clock, and every stateful answer checked
// against the contract before it is sent; each test without and with strict keys (`--strict-keys`). In this process,
// through the pipeline the mock's server runs (no port: the state is the point here; test/mock-http/ tests the mock
// over HTTP).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_MOCK_URL } from "../../src/mock/create-mock.ts";
import { fetchHandler } from "../../src/mock/fetch-handler.ts";
import { createPipeline, type StatefulOptions } from "../../src/mock/pipeline.ts";
import { listOperations } from "../../src/contract/operations.ts";
import { validCall } from "../../src/contract/valid-calls.ts";
import { MAX_RECORD_BODY } from "../../src/mock/state/model.ts";
import { readBundle, bundleJsonPath } from "../../scripts/build/lib/paths.ts";
import { contract, responseExample } from "../support/contract.ts";

interface InProcessMock {
  url: string;
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
}

/** The mock's pipeline behind a fetch handler, as createMock and the server's transport both run it; stateless when `stateful` is undefined. */
function inProcessMock(stateful: StatefulOptions | undefined, document = contract): InProcessMock {
  const handle = fetchHandler(createPipeline({ document, log: () => {}, stateful }));
  return { url: DEFAULT_MOCK_URL, fetch: (url, init) => handle(new Request(url, init)) };
}
const stateless = inProcessMock(undefined);

const json = (key: string, header = "x-svc-api-key") => ({ [header]: key, "content-type": "application/json" });

async function call(target: InProcessMock, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await target.fetch(`${target.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : (JSON.parse(text) as any) };
}

const createUser = (target: InProcessMock, key: string, clientUserId: string) => call(target, "POST", "/v2/user", json(key), { client_user_id: clientUserId });

// Every behaviour holds with strict keys too (`--strict-keys`): there a key must be one the mock knows, so each test's
// own team is reached by a key of the form verify makes up for its runs, which the strict mock knows; strict-keys.test.ts
// shows what it refuses.
describe.each([{ strictKeys: false }, { strictKeys: true }])("strictKeys: $strictKeys", ({ strictKeys }) => {
  const statefulMock = (stateful: StatefulOptions = {}, document = contract) => inProcessMock({ ...stateful, strictKeys }, document);
  const mock = statefulMock();
  const newKey = () => (strictKeys ? `sk_test_verify_${randomUUID()}` : `sk_test_${randomUUID()}`);
  const newManagementKey = () => (strictKeys ? `mk_test_verify_${randomUUID()}` : `mk_test_${randomUUID()}`);

  describe("state per credential", () => {
    it("keeps each team's users apart: the same client_user_id is free in another team and taken in its own", async () => {
      const [a, b] = [newKey(), newKey()];
      const first = await createUser(mock, a, "patient-x");
      expect(first.status).toBe(200);
      expect((await createUser(mock, b, "patient-x")).status).toBe(200);
      const again = await createUser(mock, a, "patient-x");
      expect(again.status).toBe(400);
      expect(again.body).toEqual({
        code: "user_already_exists",
        message: expect.stringContaining(first.body.user_id),
        user_id: first.body.user_id,
        created_on: first.body.created_on,
      });
    });

    it("answers 404 to every operation on a user the team does not have", async () => {
      const document = await readBundle(bundleJsonPath);
      const key = newKey();
      const userScoped = listOperations(document).filter((op) => op.template.includes("{user_id}"));
      expect(userScoped.length).toBeGreaterThan(10);
      for (const op of userScoped) {
        const valid = validCall(document, op);
        const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => (name === "user_id" ? randomUUID() : String(valid.path[name])));
        const query = new URLSearchParams(Object.entries(valid.query).map(([k, v]) => [k, String(v)])).toString();
        const answer = await call(mock, op.method, `${path}${query ? `?${query}` : ""}`, json(key), valid.body);
        expect([op.operationId, answer.status, answer.body?.code]).toEqual([op.operationId, 404, "not_found"]);
      }
    });

    it("reaches the team an issued key belongs to, and stops reaching it once the key is deleted", async () => {
      const management = { "x-management-key": newManagementKey(), "content-type": "application/json" };
      const team = await call(mock, "POST", "/v2/management/teams", management, { name: "Issued" });
      expect(team.status).toBe(201);
      const issued = await call(mock, "POST", `/v2/management/teams/${team.body.id}/api_keys`, management, { label: "tests" });
      expect(issued.status).toBe(201);
      const state = await call(mock, "GET", "/_mock/state", { "x-svc-api-key": issued.body.api_key });
      expect(state.body.team).toMatchObject({ id: team.body.id, org_id: team.body.org_id });
      // Bulk import needs the team's own OAuth credential for the provider (4.4).
      const importBody = { provider: "oura", connections: [] };
      const refused = await call(mock, "POST", "/v2/link/bulk_import", json(issued.body.api_key), importBody);
      expect([refused.status, refused.body.code]).toEqual([403, "feature_not_enabled"]);
      const credential = await call(mock, "PUT", `/v2/management/teams/${team.body.id}/custom_credentials/oura`, management, {
        client_id: "c",
        client_secret: "s",
      });
      expect(credential.status).toBe(200);
      expect((await call(mock, "POST", "/v2/link/bulk_import", json(issued.body.api_key), importBody)).status).toBe(202);
      expect((await call(mock, "DELETE", `/v2/management/teams/${team.body.id}/api_keys/${issued.body.id}`, management)).status).toBe(200);
      // A deleted key is refused, as the service refuses one, on the API and on /_mock/state alike.
      const refusedKey = await createUser(mock, issued.body.api_key, "after-deletion");
      expect([refusedKey.status, refusedKey.body.code]).toEqual([401, "unauthorized"]);
      expect((await call(mock, "PATCH", "/_mock/state", json(issued.body.api_key), {})).status).toBe(401);
      expect((await call(mock, "GET", `/v2/management/teams/${randomUUID()}`, management)).status).toBe(404);
    });
  });

  describe("the document's rules over state", () => {
    it("expires a link token on the team's clock (token_expired) and asks for another code with 111111", async () => {
      const key = newKey();
      const user = await createUser(mock, key, "expiring");
      const token = await call(mock, "POST", "/v2/link/token", json(key), { user_id: user.body.user_id });
      const complete = (code: string) =>
        call(mock, "POST", "/v2/link/provider/password/whoop/complete_mfa", json(token.body.link_token, "x-svc-link-token"), { mfa_code: code });
      const pending = await complete("111111");
      expect(pending.body).toMatchObject({
        state: "pending_provider_mfa",
        provider_mfa: (responseExample("completeProviderMfa", 200, "pending_provider_mfa") as { provider_mfa: unknown }).provider_mfa,
      });
      await call(mock, "PATCH", "/_mock/state", json(key), { clock: { advance_seconds: 1801 } });
      expect((await complete("123456")).body).toMatchObject({ state: "error", error_type: "token_expired" });
    });

    it("refuses MEDFED for a state its plan table does not have, naming the field", async () => {
      const key = newKey();
      const user = await createUser(mock, key, "no-state");
      const body: Record<string, any> = {
        ...(responseExample("createInsurance", 200, "medicare_inferred_from_state") as Record<string, any>),
        payor_code: "MEDFED",
      };
      delete body.company;
      body.insured.address.state = "ZZ";
      const answer = await call(mock, "POST", `/v2/user/${user.body.user_id}/insurance`, json(key), body);
      expect(answer.status).toBe(422);
      expect(answer.body.details).toEqual([{ location: "body", field: "/insured/address/state", message: expect.stringContaining("ZZ") }]);
    });

    it("takes a loopback http webhook URL (mock-only) and still refuses any other http URL", async () => {
      const management = { "x-management-key": newManagementKey(), "content-type": "application/json" };
      const team = await call(mock, "POST", "/v2/management/teams", management, { name: "Hooks" });
      const hooks = `/v2/management/teams/${team.body.id}/webhooks`;
      for (const url of ["http://127.0.0.1:9/events", "http://localhost/events", "http://[::1]:8080/x", "https://hooks.example/x"]) {
        expect([url, (await call(mock, "POST", hooks, management, { url })).status]).toEqual([url, 201]);
      }
      for (const url of ["http://example.com/events", "http://127.0.0.1.example.com/x", "ftp://127.0.0.1/x"]) {
        expect([url, (await call(mock, "POST", hooks, management, { url })).status]).toEqual([url, 422]);
      }
      // The stateless mock keeps the contract's https-only rule.
      const statelessAnswer = await call(stateless, "POST", `/v2/management/teams/${team.body.id}/webhooks`, management, { url: "http://127.0.0.1:9/events" });
      expect(statelessAnswer.status).toBe(422);
    });

    it("leaves the state alone when a Prefer header chooses a declared answer", async () => {
      const key = newKey();
      const chosen = await call(mock, "POST", "/v2/user", { ...json(key), prefer: "example=created" }, { client_user_id: "preferred" });
      expect(chosen.body).toEqual(responseExample("createUser", 200, "created"));
      expect((await createUser(mock, key, "preferred")).status).toBe(200);
    });
  });

  describe("/_mock/state", () => {
    it("moves a team's clock and changes its settings, and refuses what it does not know with the fields named", async () => {
      const key = newKey();
      const set = await call(mock, "PATCH", "/_mock/state", json(key), {
        clock: { now: "2030-01-01T00:00:00Z", advance_seconds: 60 },
        settings: { closed_beta_enabled: false },
      });
      expect(set.status).toBe(200);
      expect(Date.parse(set.body.team.clock)).toBeGreaterThanOrEqual(Date.parse("2030-01-01T00:01:00Z"));
      expect(set.body.team.settings.closed_beta_enabled).toBe(false);
      const user = await createUser(mock, key, "later");
      expect(user.body.created_on.startsWith("2030-01-01")).toBe(true);
      const wrong = await call(mock, "PATCH", "/_mock/state", json(key), {
        clock: { advance_seconds: "soon" },
        settings: { bulk_import_wait_ms: 60_000, colour: "red" },
        extra: 1,
      });
      expect(wrong.status).toBe(422);
      expect(wrong.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        "/clock/advance_seconds",
        "/extra",
        "/settings/bulk_import_wait_ms",
        "/settings/colour",
      ]);
      expect((await call(mock, "PATCH", "/_mock/state", { "content-type": "application/json" }, {})).status).toBe(401);
      const put = await call(mock, "PUT", "/_mock/state", json(key), {});
      expect([put.status, put.headers.get("allow")]).toEqual([405, "GET, PATCH, DELETE"]);
    });

    it("answers a browser's preflight for its methods", async () => {
      const preflight = await mock.fetch(`${mock.url}/_mock/state`, {
        method: "OPTIONS",
        headers: { origin: "http://app.example", "access-control-request-method": "PATCH", "access-control-request-headers": "x-svc-api-key, content-type" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, PATCH, DELETE");
      expect(preflight.headers.get("access-control-allow-origin")).toBe("http://app.example");
    });

    it("forgets a team's state on DELETE with its key", async () => {
      const key = newKey();
      await createUser(mock, key, "forgotten");
      const before = await call(mock, "GET", "/_mock/state", { "x-svc-api-key": key });
      expect(before.body.team.counts.users).toBe(1);
      const reset = await call(mock, "DELETE", "/_mock/state", { "x-svc-api-key": key });
      // Forgotten, and not made again by describing it: a reset or a probe uses up no team.
      expect(reset.body.team).toBeUndefined();
      expect(reset.body.totals.teams).toBe(before.body.totals.teams - 1);
      expect(reset.body.totals.records).toBeLessThan(before.body.totals.records);
      expect((await createUser(mock, key, "forgotten")).status).toBe(200);
    });

    it("says it is not stateful on the stateless mock, and refuses settings there naming --stateful", async () => {
      const answer = await call(stateless, "GET", "/_mock/state", {});
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ stateful: false });
      const settings = await call(stateless, "PATCH", "/_mock/state", json(newKey()), { settings: { closed_beta_enabled: true } });
      expect(settings.status).toBe(422);
      expect(JSON.stringify(settings.body)).toContain("--stateful");
    });
  });

  describe("the clock", () => {
    it("stays within 100 years of today however often it is moved, and every answer keeps its dates valid", async () => {
      const key = newKey();
      const moves = [];
      for (let i = 0; i < 5; i++) moves.push(await call(mock, "PATCH", "/_mock/state", json(key), { clock: { advance_seconds: 30 * 365 * 24 * 3600 } }));
      expect(moves.map((move) => move.status)).toEqual([200, 200, 200, 422, 422]);
      expect(moves[3]!.body.details).toEqual([{ location: "body", field: "/clock", message: expect.stringContaining("more than 100 years") }]);
      const user = await createUser(mock, key, "far-future");
      expect(user.status).toBe(200);
      expect(Number(user.body.created_on.slice(0, 4))).toBe(new Date().getUTCFullYear() + 90);
      expect((await call(mock, "PATCH", "/_mock/state", json(key), { clock: { now: "2026-01-01T00:00:00Z" } })).status).toBe(200);
    });

    it("shows a bulk operation in progress part way through its time, then completed", async () => {
      const key = newKey();
      await call(mock, "PATCH", "/_mock/state", json(key), { settings: { bulk_import_duration_ms: 100_000 } });
      const users = [];
      for (const n of [1, 2, 3, 4]) users.push((await createUser(mock, key, `bulk-${n}`)).body.user_id);
      const connections = [...users, randomUUID()].map((user_id) => ({
        user_id,
        access_token: "a",
        refresh_token: "r",
        provider_id: "p",
        expires_at: 1,
        oauth_scopes: [],
      }));
      expect((await call(mock, "POST", "/v2/link/bulk_import", json(key), { provider: "oura", connections })).status).toBe(202);
      const list = async () => (await call(mock, "GET", "/v2/link/bulk_op", { "x-svc-api-key": key })).body.bulk_ops[0];
      await call(mock, "PATCH", "/_mock/state", json(key), { clock: { advance_seconds: 50 } });
      const halfway = await list();
      expect(halfway).toMatchObject({
        status: "in_progress",
        counts: { submitted: 5, imported: 2, failed: 0, pending: 3 },
        user_ids_imported: users.slice(0, 2),
      });
      expect(Date.parse(halfway.updated_at) - Date.parse(halfway.created_at)).toBe(40_000);
      await call(mock, "PATCH", "/_mock/state", json(key), { clock: { advance_seconds: 51 } });
      const completed = await list();
      expect(completed).toMatchObject({ status: "completed", counts: { submitted: 5, imported: 4, failed: 1, pending: 0 } });
      expect(Date.parse(completed.updated_at) - Date.parse(completed.created_at)).toBe(100_000);
      // A clock moved back does not undo what the operation did.
      await call(mock, "PATCH", "/_mock/state", json(key), { clock: { advance_seconds: -3600 } });
      expect(await list()).toEqual(completed);
    });
  });

  describe("bounds", () => {
    it("refuses a create past a cap with 429 mock_state_full naming it, and keeps what it holds", async () => {
      const small = statefulMock({ caps: { recordsPerTeam: 3, records: 5, teams: 3 } });
      const key = newKey();
      const ids: string[] = [];
      for (const n of [1, 2, 3]) ids.push((await createUser(small, key, `u${n}`)).body.user_id);
      const full = await createUser(small, key, "u4");
      expect(full.status).toBe(429);
      expect(full.headers.get("retry-after")).toBe("3600");
      expect(full.body).toEqual({ code: "mock_state_full", message: expect.stringContaining("at most 3 records per team") });
      // Nothing already stored was dropped to make room.
      for (const [n, id] of ids.entries()) expect((await createUser(small, key, `u${n + 1}`)).body.user_id).toBe(id);
      const other = newKey();
      await createUser(small, other, "v1");
      await createUser(small, other, "v2");
      expect((await createUser(small, other, "v3")).body.message).toContain("at most 5 records in all");
      await createUser(small, newKey(), "w1");
      const teams = await createUser(small, newKey(), "x1");
      expect([teams.status, teams.body.message]).toEqual([429, expect.stringContaining("at most 3 teams")]);
    });
  });

  describe("custom credentials", () => {
    it("count a record per provider a team configures, so any number of provider slugs cannot grow the state past its cap", async () => {
      const small = statefulMock({ caps: { recordsPerTeam: 3 } });
      const management = { "x-management-key": newManagementKey(), "content-type": "application/json" };
      const team = await call(small, "POST", "/v2/management/teams", management, { name: "Credentials" });
      const set = (provider: string) =>
        call(small, "PUT", `/v2/management/teams/${team.body.id}/custom_credentials/${provider}`, management, { client_id: "c", client_secret: "s" });
      expect([(await set("oura")).status, (await set("oura")).status, (await set("fitbit")).status, (await set("whoop")).status]).toEqual([200, 200, 200, 200]);
      const full = await set("garmin");
      expect([full.status, full.body.code]).toEqual([429, "mock_state_full"]);
    });
  });

  describe("a link completion at the cap", () => {
    it("is refused and leaves its token usable once there is room again", async () => {
      const small = statefulMock({ caps: { records: 3 } });
      const [linker, other] = [newKey(), newKey()];
      const owner = await createUser(small, linker, "linker");
      const token = await call(small, "POST", "/v2/link/token", json(linker), { user_id: owner.body.user_id });
      expect((await createUser(small, other, "filler")).status).toBe(200);
      const complete = () =>
        call(small, "POST", "/v2/link/provider/password/whoop/complete_mfa", json(token.body.link_token, "x-svc-link-token"), { mfa_code: "123456" });
      expect((await complete()).body.code).toBe("mock_state_full");
      await call(small, "DELETE", "/_mock/state", { "x-svc-api-key": other });
      expect((await complete()).body.state).toBe("success");
    });
  });

  describe("what a record may hold", () => {
    it("refuses a body past the record size with 413 naming it, and counts each connection of a bulk import", async () => {
      const key = newKey();
      // Counted in bytes: 1,400 three-byte characters are over 4 KiB.
      const long = await createUser(mock, key, "€".repeat(1_400));
      expect([long.status, long.body.code]).toEqual([413, "payload_too_large"]);
      expect(long.body.message).toContain(`at most ${MAX_RECORD_BODY} bytes`);
      // A large body the mock keeps nothing of is answered as without --stateful.
      const markers = await call(mock, "POST", "/v3/lab_tests/list_order_set_markers", json(key), {
        lab_test_ids: Array.from({ length: 150 }, () => randomUUID()),
      });
      expect(markers.status).toBe(200);
      const before = (await call(mock, "GET", "/_mock/state", { "x-svc-api-key": key })).body.team.records;
      const connection = { user_id: randomUUID(), access_token: "a", refresh_token: "r", provider_id: "p", expires_at: 1, oauth_scopes: [] };
      const imported = await call(mock, "POST", "/v2/link/bulk_import", json(key), {
        provider: "oura",
        connections: Array.from({ length: 40 }, () => connection),
      });
      expect(imported.status).toBe(202);
      expect((await call(mock, "GET", "/_mock/state", { "x-svc-api-key": key })).body.team.records).toBe(before + 41);
    });
  });

  describe("an answer the state makes that breaks the contract", () => {
    it("is not sent: the mock answers 500 and says why in a header", async () => {
      // A contract whose User also requires a field the state never fills.
      const document = structuredClone(await readBundle(bundleJsonPath)) as any;
      document.components.schemas.User.required.push("nickname");
      const strict = statefulMock({}, document);
      const answer = await createUser(strict, newKey(), "strict");
      expect(answer.status).toBe(500);
      expect(answer.body.code).toBe("internal_error");
      expect(answer.headers.get("x-svc-mock-contract-violation")).toContain("/nickname");
    });
  });
});
