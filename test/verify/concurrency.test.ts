// verify --concurrency 8 finds what --concurrency 1 finds, in the same order: behind a proxy that plants faults (decided
// by each request alone, so both runs meet the same ones) and holds each answer back a different while (so answers
// come back in another order than asked), the two runs give the same checks (suite, name and detail with their values
// taken out, status, failure id and group), in order, the same groups, and the same cleanup.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { withoutValues } from "../../src/verify/report/groups.ts";
import { startAlteringProxy, type Alter } from "../support/altering-proxy.ts";
import { runVerifyInProcess, type VerifyRun } from "../support/run-verify.ts";

let mock: RunningMock | undefined;

beforeAll(async () => {
  mock = await startMock({ port: 0, stateful: {} });
});

afterAll(async () => {
  await mock?.stop();
});

/** A number from a request's own text: the same request is held back as long, and faulted alike, in both runs. */
function hash(text: string): number {
  let h = 2166136261;
  for (const char of text) h = Math.imul(h ^ char.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/**
 * Held back 0–24 ms by what it asks (its method, path without ids, and query), so a later request often answers first;
 * three faults: a team read without its name (a read-back fails), a page of a lab test's markers ignoring its size (the
 * collection pass), and a server error for some of the generated users' bodies.
 */
const alter: Alter = async (x) => {
  const shape = `${x.method} ${x.target.replace(/[0-9a-f-]{36}/g, "{id}")} ${x.body.replace(/verify-[0-9a-f]+/g, "")}`;
  await new Promise((resolve) => setTimeout(resolve, hash(shape) % 25));
  if (x.method === "GET" && /^\/v2\/management\/teams\/[^/]+$/.test(x.pathname) && x.status === 200) {
    const { name: _dropped, ...rest } = JSON.parse(x.answer) as Record<string, unknown>;
    return { status: 200, body: JSON.stringify(rest) };
  }
  if (x.method === "GET" && x.pathname.endsWith("/markers") && x.target.includes("size=1") && x.status === 200) {
    const body = JSON.parse(x.answer) as { markers: unknown[] };
    return { status: 200, body: JSON.stringify({ ...body, markers: [...body.markers, ...body.markers] }) };
  }
  if (x.method === "POST" && x.pathname === "/v2/user" && hash(shape) % 3 === 0) {
    return { status: 500, body: JSON.stringify({ code: "internal_error", message: "planted" }) };
  }
  return undefined;
};

const ONLY = ["createTeam", "getTeam", "updateTeam", "listLabTestMarkers", "createUser", "getLatestUserInfo", "deleteTeam"];

async function run(concurrency: number): Promise<VerifyRun> {
  const proxy = await startAlteringProxy(mock!.url, alter);
  try {
    const only = ONLY.flatMap((id) => ["--only", id]);
    return await runVerifyInProcess(["--base-url", proxy.url, "--cases", "2", "--seed", "7", "--concurrency", String(concurrency), ...only]);
  } finally {
    await proxy.close();
  }
}

/** A check as the two runs must agree on it: its values (ids, numbers, quoted text) taken out of its name and detail. */
function comparable(result: VerifyRun) {
  return result.report!.checks.map((check) => ({
    suite: check.suite,
    name: withoutValues(check.name, check.operationId),
    detail: check.detail === undefined ? undefined : withoutValues(check.detail, check.operationId),
    status: check.status,
    id: check.id,
    group: check.group,
  }));
}

describe("npm run verify --concurrency", () => {
  it("finds at 8 what it finds at 1, in the same order, with the same ids and groups", async () => {
    const one = await run(1);
    const eight = await run(8);
    expect(one.stdout).toContain("1 at a time");
    expect(eight.stdout).toContain("8 at a time");
    expect([one.report!.concurrency, eight.report!.concurrency]).toEqual([1, 8]);
    // The planted faults are met: a read-back, a page, a server error; else the comparison would prove little.
    const failed = one.report!.checks.filter((check) => check.status === "failed");
    expect(failed.some((check) => check.suite === "state")).toBe(true);
    expect(failed.some((check) => check.suite === "collection")).toBe(true);
    expect(failed.some((check) => check.detail?.includes("answered 500"))).toBe(true);
    expect(comparable(eight)).toEqual(comparable(one));
    const groups = (result: VerifyRun) => result.report!.groups.map(({ id, count, examples, operations }) => ({ id, count, examples, operations }));
    expect(groups(eight)).toEqual(groups(one));
    expect(eight.report!.summary).toEqual(one.report!.summary);
    expect(eight.code).toBe(1);
  });
});
