// The request journal, through createMock and over HTTP at /_mock/journal: per team, bounded, filtered by operation,
// status and time, with credentials masked and the values the contract marks as health data or secrets removed.
import { describe, expect, it } from "vitest";
import { createMockWith } from "../../src/mock/create-mock.ts";
import { DEFAULT_JOURNAL_SIZE, Journal } from "../../src/mock/journal.ts";
import type { JournalEntry } from "../../src/mock/public-types.ts";
import { contract, requestExample } from "../support/contract.ts";

const KEY_A = "sk_test_journal_team_a_0001";
const KEY_B = "sk_test_journal_team_b_0002";
const json = (key: string) => ({ "x-svc-api-key": key, "content-type": "application/json" });

async function send(mock: ReturnType<typeof createMockWith>, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await mock.fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, body: (await response.json()) as any };
}

describe("the journal", () => {
  it("keeps each team's requests apart, with what was answered and why a request was refused", async () => {
    const mock = createMockWith(contract, { stateful: true });
    const user = await send(mock, "POST", "/v2/user", json(KEY_A), { client_user_id: "journal-1" });
    await send(mock, "POST", "/v2/link/token", json(KEY_A), { user_id: user.body.user_id });
    await send(mock, "POST", "/v2/user", json(KEY_A), { client_user_id: 5 });
    await send(mock, "GET", "/v3/lab_tests/labs", { "x-svc-api-key": KEY_B });

    const tokens = mock.journal({ credential: KEY_A, operationId: "createLinkToken" });
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).toMatchObject({ method: "POST", path: "/v2/link/token", status: 200, body: { user_id: user.body.user_id }, refusal: null });

    const refused = mock.journal({ credential: KEY_A, status: "4xx" });
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status).toBe(422);
    expect(refused[0]!.refusal).toMatchObject({
      code: "invalid_request",
      details: [expect.objectContaining({ field: expect.stringContaining("client_user_id") })],
    });

    expect(mock.journal({ credential: KEY_B }).map((entry) => entry.operation_id)).toEqual(["listLabs"]);
    expect(mock.journal().map((entry) => entry.operation_id)).toEqual(["createUser", "createLinkToken", "createUser", "listLabs"]);
  });

  it("masks every credential and removes the values the contract marks, wherever they are", async () => {
    const mock = createMockWith(contract, { stateful: true });
    const user = await send(mock, "POST", "/v2/user", json(KEY_A), { client_user_id: "journal-2" });
    const insurance = requestExample("createInsurance", "commercial_plan") as Record<string, any>;
    await send(mock, "POST", `/v2/user/${user.body.user_id}/insurance`, json(KEY_A), insurance);
    const entries: JournalEntry[] = mock.journal({ operationId: "createInsurance" });
    expect(entries).toHaveLength(1);
    const written = JSON.stringify(entries);
    expect(written).not.toContain(KEY_A);
    expect(entries[0]!.headers["x-svc-api-key"]).toMatch(/^\[credential …0001\]$/);
    // The insured person's name and address are health data in the contract: none of it is written.
    for (const value of [insurance.insured?.first_name, insurance.insured?.last_name, insurance.insured?.address?.first_line].filter(
      (v) => typeof v === "string",
    )) {
      expect(written).not.toContain(value);
    }
    expect(written).toContain("[phi removed]");
  });

  it("keeps a query parameter named __proto__ as any other, given twice", async () => {
    const mock = createMockWith(contract, {});
    await send(mock, "GET", "/v3/lab_tests/labs?__proto__=a&constructor=b&__proto__=c", { "x-svc-api-key": KEY_A });
    const [entry] = mock.journal({ credential: KEY_A });
    expect(Object.keys(entry!.query)).toEqual(["__proto__", "constructor"]);
    expect(Object.getOwnPropertyDescriptor(entry!.query, "__proto__")?.value).toEqual(["a", "c"]);
    expect(Object.getPrototypeOf(entry!.query)).toBe(Object.prototype);
    expect(JSON.stringify(entry!.query)).toBe('{"__proto__":["a","c"],"constructor":"b"}');
  });

  it("filters by time, and keeps the most recent within its size", async () => {
    const mock = createMockWith(contract, { journalSize: 3 });
    for (let i = 0; i < 5; i++) await send(mock, "GET", `/v3/lab_tests/labs?i=${i}`, { "x-svc-api-key": KEY_A });
    const kept = mock.journal({ credential: KEY_A });
    expect(kept.map((entry) => entry.query.i)).toEqual(["2", "3", "4"]);
    expect(mock.journal({ limit: 1 }).map((entry) => entry.query.i)).toEqual(["4"]);
    const future = Date.now() + 60_000;
    expect(mock.journal({ since: future })).toEqual([]);
    expect(mock.journal({ until: new Date(future) })).toHaveLength(3);
    mock.clearJournal(KEY_A);
    expect(mock.journal()).toEqual([]);
  });

  it("is read and cleared over HTTP, for the credential's team, and refuses a filter it does not know", async () => {
    const mock = createMockWith(contract, {});
    await send(mock, "GET", "/v3/lab_tests/labs", { "x-svc-api-key": KEY_A });
    await send(mock, "GET", "/v3/lab_tests/labs", { "x-svc-api-key": KEY_B });
    const read = await send(mock, "GET", "/_mock/journal?operation_id=listLabs", { "x-svc-api-key": KEY_A });
    expect(read.status).toBe(200);
    expect(read.body.entries).toHaveLength(1);
    expect(read.body.size).toBe(DEFAULT_JOURNAL_SIZE);
    const bad = await send(mock, "GET", "/_mock/journal?status=teapot&who=me", {});
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(["status", "who"]);
    expect((await send(mock, "DELETE", "/_mock/journal", { "x-svc-api-key": KEY_A })).status).toBe(200);
    expect(mock.journal().map((entry) => entry.headers["x-svc-api-key"])).toEqual(["[credential …0002]"]);
    // The journal's own requests are not in it.
    expect(mock.journal().some((entry) => entry.path.startsWith("/_mock"))).toBe(false);
  });

  it("is off with a size of 0, and says so at its path", async () => {
    const mock = createMockWith(contract, { journalSize: 0 });
    await send(mock, "GET", "/v3/lab_tests/labs", { "x-svc-api-key": KEY_A });
    expect(mock.journal()).toEqual([]);
    expect((await send(mock, "GET", "/_mock/journal", {})).status).toBe(404);
  });

  it("keeps the most recent requests in order once its ring wraps", () => {
    const journal = new Journal(contract, 2);
    const record = (team: string, target: string) =>
      journal.record(team, {
        seq: 0,
        at: Date.now(),
        method: "GET",
        target,
        headers: {},
        text: undefined,
        operationId: undefined,
        status: 200,
        refusal: undefined,
        condition: undefined,
        violations: undefined,
      });
    for (const target of ["/a", "/b", "/c"]) record("t", target);
    expect(journal.records({ team: "t" }).map((r) => r.target)).toEqual(["/b", "/c"]);
  });
});
