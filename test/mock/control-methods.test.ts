// The mock's own state through typed methods (src/mock/create-mock.ts over /_mock/state and /_mock/data): a team's
// settings, conditions and clock read and changed, a refused change thrown naming each field, the export another mock
// starts from, and the resets; on the stateless mock, conditions alone.
import { describe, expect, it } from "vitest";
import { createMockWith } from "../../src/mock/create-mock.ts";
import { contract } from "../support/contract.ts";

const key = "sk_test_control_methods_0001";
const json = { "x-svc-api-key": key, "content-type": "application/json" };

describe("the stateful mock's state, by method", () => {
  it("reads and changes a team's settings, conditions and clock, and throws a refused change naming the field", async () => {
    const mock = createMockWith(contract, { stateful: true });
    expect((await mock.fetch("/v2/user", { method: "POST", headers: json, body: '{"client_user_id":"control-1"}' })).status).toBe(200);
    const before = await mock.team(key).state();
    expect(before.stateful).toBe(true);
    expect(before.team?.counts.users).toBe(1);
    const after = await mock.team(key).set({ settings: { bulk_import_wait_ms: 50 }, clock: { advance_seconds: 3600 }, conditions: { latency_ms: 0 } });
    expect(after.team?.settings.bulk_import_wait_ms).toBe(50);
    expect(Date.parse(after.team!.clock) - Date.parse(before.team!.clock)).toBeGreaterThanOrEqual(3_600_000);
    expect(after.conditions).toEqual({ latency_ms: 0 });
    await expect(mock.team(key).set({ settings: { bulk_import_wait_ms: -5 } })).rejects.toThrow(
      /^mock\.team\(…\)\.set: .*\(\/settings\/bulk_import_wait_ms must be a whole number from 0 to \d+\)$/,
    );
    expect(() => mock.team("")).toThrow("mock.team: give the team's API key");
  });

  it("exports a seed another mock starts from, and forgets a team or everything", async () => {
    const mock = createMockWith(contract, { stateful: true });
    await mock.fetch("/v2/user", { method: "POST", headers: json, body: '{"client_user_id":"exported-1"}' });
    const data = await mock.exportData();
    expect(data.version).toBe(1);
    expect(data.teams?.[0]?.users?.map((user) => user.client_user_id)).toEqual(["exported-1"]);
    const copy = createMockWith(contract, { data });
    expect((await copy.team(key).state()).team?.counts.users).toBe(1);
    await copy.team(key).reset();
    expect((await copy.team(key).state()).team).toBeUndefined();
    await mock.reset();
    expect((await mock.team(key).state()).totals).toEqual({ teams: 0, records: 0 });
  });
});

describe("the stateless mock's state, by method", () => {
  it("keeps a team's conditions, and says the export needs the stateful mock", async () => {
    const mock = createMockWith(contract, {});
    const view = await mock.team(key).set({ conditions: { failure_rate: 0 } });
    expect(view).toMatchObject({ stateful: false, conditions: { failure_rate: 0 } });
    await expect(mock.exportData()).rejects.toThrow(/^mock\.exportData: .*--stateful/);
  });
});
