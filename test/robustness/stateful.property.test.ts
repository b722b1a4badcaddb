// Property-based robustness of the stateful mock: random sequences of the calls that change state (users, link tokens
// and MFA codes, insurance, bulk imports, management teams, keys and webhook endpoints, /_mock/state with good and bad
// bodies, resets), on small caps, each answered in time with a status the operation declares and a body its contract
// accepts, never a 5xx; and the document's rules hold along the way (a created user conflicts until it is gone).
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { operations, validator } from "../support/contract.ts";

const RUNS = Math.max(20, Math.round(Number(process.env.ROBUSTNESS_RUNS ?? 300) / 6));
const SEED = process.env.FC_SEED === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(process.env.FC_SEED);
const ANSWER_MS = 10_000;

let mock: RunningMock;
beforeAll(async () => {
  // Small caps, so the runs reach them; the bulk wait is kept short so a wait_for_completion answers quickly.
  mock = await startMock({
    port: 0,
    stateful: { caps: { teams: 40, recordsPerTeam: 25, records: 400 }, defaults: { bulk_import_duration_ms: 20, bulk_import_wait_ms: 30 } },
  });
});
afterAll(() => mock.stop());

/** What a sequence has seen so far, which later calls pick from (and, now and then, ids nobody made). */
interface World {
  keys: string[];
  management: string;
  users: string[];
  tokens: string[];
  teams: string[];
  hooks: { team: string; id: string }[];
}

type Step = (world: World, pick: (n: number) => number) => { method: string; path: string; headers: Record<string, string>; body?: unknown };

const json = { "content-type": "application/json" };
const address = (state: string) => ({ first_line: "1 Main St", second_line: null, city: "Town", state, zip: "00001", country: "US" });
const person = (state: string) => ({
  first_name: "A",
  last_name: "B",
  gender: "female",
  dob: "1970-01-01",
  email: "a@example.com",
  phone_number: "+10000000000",
  address: address(state),
});
const among = <T>(items: T[], pick: (n: number) => number, otherwise: () => T): T =>
  items.length === 0 || pick(4) === 0 ? otherwise() : items[pick(items.length)]!;

const STEPS: Record<string, Step> = {
  createUser: (w, pick) => ({
    method: "POST",
    path: "/v2/user",
    headers: { ...json, "x-svc-api-key": w.keys[pick(w.keys.length)]! },
    body: { client_user_id: `c${pick(6)}` },
  }),
  deleteUser: (w, pick) => ({
    method: "DELETE",
    path: `/v2/user/${among(w.users, pick, randomUUID)}`,
    headers: { "x-svc-api-key": w.keys[pick(w.keys.length)]! },
  }),
  undoUserDeletion: (w, pick) => ({
    method: "POST",
    path: `/v2/user/${among(w.users, pick, randomUUID)}/undo_delete`,
    headers: { "x-svc-api-key": w.keys[pick(w.keys.length)]! },
  }),
  createSignInToken: (w, pick) => ({
    method: "POST",
    path: `/v2/user/${among(w.users, pick, randomUUID)}/sign_in_token`,
    headers: { "x-svc-api-key": w.keys[pick(w.keys.length)]! },
  }),
  createLinkToken: (w, pick) => ({
    method: "POST",
    path: "/v2/link/token",
    headers: { ...json, "x-svc-api-key": w.keys[pick(w.keys.length)]! },
    body: { user_id: among(w.users, pick, randomUUID), provider: ["whoop", null, "oura"][pick(3)] },
  }),
  completeProviderMfa: (w, pick) => ({
    method: "POST",
    path: `/v2/link/provider/password/${["whoop", "peloton"][pick(2)]}/complete_mfa`,
    headers: { ...json, "x-svc-link-token": among(w.tokens, pick, () => `nope-${pick(100)}`) },
    body: { mfa_code: ["000000", "111111", "482913", ""][pick(4)] },
  }),
  createInsurance: (w, pick) => ({
    method: "POST",
    path: `/v2/user/${among(w.users, pick, randomUUID)}/insurance`,
    headers: { ...json, "x-svc-api-key": w.keys[pick(w.keys.length)]! },
    body: {
      payor_code: ["ACMEHP", "MEDFED", "MAIDFED"][pick(3)],
      member_id: "M1",
      relationship: ["Self", "Spouse"][pick(2)],
      is_primary: pick(2) === 0,
      insured: person(["CA", "NY", "ZZ", "dc", ""][pick(5)]!),
    },
  }),
  getLatestInsurance: (w, pick) => ({
    method: "GET",
    path: `/v2/user/${among(w.users, pick, randomUUID)}/insurance/latest?is_primary=${["true", "false", "0", "1"][pick(4)]}`,
    headers: { "x-svc-api-key": w.keys[pick(w.keys.length)]! },
  }),
  bulkImportConnections: (w, pick) => ({
    method: "POST",
    path: "/v2/link/bulk_import",
    headers: { ...json, "x-svc-api-key": w.keys[pick(w.keys.length)]! },
    body: {
      provider: "oura",
      wait_for_completion: pick(2) === 0,
      connections: Array.from({ length: pick(3) }, () => ({
        user_id: among(w.users, pick, randomUUID),
        access_token: "a",
        refresh_token: "r",
        provider_id: "p",
        expires_at: 1,
        oauth_scopes: [],
      })),
    },
  }),
  listBulkOps: (w, pick) => ({
    method: "GET",
    path: `/v2/link/bulk_op?page=${1 + pick(3)}&size=${1 + pick(3)}`,
    headers: { "x-svc-api-key": w.keys[pick(w.keys.length)]! },
  }),
  createTeam: (w) => ({ method: "POST", path: "/v2/management/teams", headers: { ...json, "x-management-key": w.management }, body: { name: "T" } }),
  createTeamApiKey: (w, pick) => ({
    method: "POST",
    path: `/v2/management/teams/${among(w.teams, pick, randomUUID)}/api_keys`,
    headers: { ...json, "x-management-key": w.management },
    body: { label: "k" },
  }),
  createWebhookEndpoint: (w, pick) => ({
    method: "POST",
    path: `/v2/management/teams/${among(w.teams, pick, randomUUID)}/webhooks`,
    headers: { ...json, "x-management-key": w.management },
    body: {
      url: ["http://127.0.0.1:9/x", "https://example.com/x", "http://example.com/x"][pick(3)],
      event_types: pick(2) === 0 ? null : ["provider.connection.created"],
    },
  }),
  deleteWebhookEndpoint: (w, pick) => {
    const hook = w.hooks.length === 0 ? { team: among(w.teams, pick, randomUUID), id: randomUUID() } : w.hooks[pick(w.hooks.length)]!;
    return { method: "DELETE", path: `/v2/management/teams/${hook.team}/webhooks/${hook.id}`, headers: { "x-management-key": w.management } };
  },
  deleteTeam: (w, pick) => ({
    method: "DELETE",
    path: `/v2/management/teams/${among(w.teams, pick, randomUUID)}`,
    headers: { "x-management-key": w.management },
  }),
  patchState: (w, pick) => ({
    method: "PATCH",
    path: "/_mock/state",
    headers: { ...json, "x-svc-api-key": w.keys[pick(w.keys.length)]! },
    body: [
      { clock: { advance_seconds: [60, 604_860, -3600, 1e12, Number.MAX_SAFE_INTEGER][pick(5)] } },
      { clock: { now: ["2030-01-01T00:00:00Z", "yesterday", "9999-12-31T23:59:59Z"][pick(3)] } },
      { settings: { closed_beta_enabled: pick(2) === 0, bulk_import_wait_ms: [0, 30, -1, 1e9][pick(4)] } },
      { settings: { link_token_lifetime_s: [1, 0, 1.5][pick(3)] } },
      [],
      "text",
    ][pick(6)],
  }),
  resetState: (w, pick) => ({
    method: "DELETE",
    path: "/_mock/state",
    headers: pick(2) === 0 ? { "x-svc-api-key": w.keys[pick(w.keys.length)]! } : ({ "x-management-key": w.management } as Record<string, string>),
  }),
};

const operationOf = new Map(operations.map((op) => [op.operationId, op]));

async function send(step: ReturnType<Step>) {
  const response = await fetch(`${mock.url}${step.path}`, {
    method: step.method,
    headers: step.headers,
    ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
    signal: AbortSignal.timeout(ANSWER_MS),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as any) };
}

describe("the stateful mock under random sequences of calls", () => {
  it(`answers every call in time with a declared status and a body the contract accepts, never a 5xx (${RUNS} sequences)`, async () => {
    console.log(`[robustness] stateful: fast-check seed ${SEED} (replay with FC_SEED=${SEED}), ${RUNS} sequences`);
    const names = Object.keys(STEPS);
    const sequence = fc.array(fc.tuple(fc.constantFrom(...names), fc.array(fc.nat(1_000), { minLength: 12, maxLength: 12 })), { minLength: 5, maxLength: 25 });
    await fc.assert(
      fc.asyncProperty(sequence, async (calls) => {
        const world: World = {
          keys: [`sk_test_${randomUUID()}`, `sk_test_${randomUUID()}`],
          management: `mk_test_${randomUUID()}`,
          users: [],
          tokens: [],
          teams: [],
          hooks: [],
        };
        for (const [name, numbers] of calls) {
          let next = 0;
          const pick = (n: number) => numbers[next++ % numbers.length]! % n;
          const step = STEPS[name]!(world, pick);
          const answer = await send(step);
          expect(answer.status, `${name} ${step.method} ${step.path}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
          const op = operationOf.get(name);
          if (op !== undefined) expect([name, validator.validateResponse(op, answer.status, answer.body)]).toEqual([name, []]);
          else expect([name, answer.status, typeof answer.body?.code === "string" || answer.body?.stateful === true]).toEqual([name, answer.status, true]);
          // Remember what was made, for later calls to use.
          if (name === "createUser" && answer.status === 200) world.users.push(answer.body.user_id);
          if (name === "createLinkToken" && answer.status === 200) world.tokens.push(answer.body.link_token);
          if (name === "createTeam" && answer.status === 201) world.teams.push(answer.body.id);
          if (name === "createTeamApiKey" && answer.status === 201) world.keys.push(answer.body.api_key);
          if (name === "createWebhookEndpoint" && answer.status === 201) world.hooks.push({ team: answer.body.team_id, id: answer.body.id });
          if (name === "createUser" && answer.status === 200) {
            // Section 7, rule 3, at once: the same client_user_id again names that user.
            const again = await send(step);
            expect([again.status, again.body?.user_id]).toEqual([400, answer.body.user_id]);
          }
        }
      }),
      { seed: SEED, numRuns: RUNS, interruptAfterTimeLimit: 120_000, markInterruptAsFailure: false },
    );
  }, 180_000);
});
