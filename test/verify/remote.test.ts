// `npm run verify`'s rules for a server that is not on this machine: an API key is required before anything is sent,
// writes run only with --allow-writes, a check needing a credential not given is skipped naming it; and --rate holds.
// Every run is in this process (a tsx start would be the most of their cost, and what they send, or refuse to, is the
// point); verify as a process is test/verify/mock.test.ts's first run, and the packed command's test.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isWrite } from "../../src/verify/calls.ts";
import { RateLimiter } from "../../src/verify/sender.ts";
import { operations } from "../support/contract.ts";
import { startAlteringProxy, type AlteringProxy } from "../support/altering-proxy.ts";
import { failures, runVerifyInProcess } from "../support/run-verify.ts";

let proxy: AlteringProxy | undefined;

beforeAll(async () => {
  // Passes everything through to the suite's mock, and records what arrived and when.
  proxy = await startAlteringProxy(inject("mockUrl"), () => undefined);
});

afterAll(async () => {
  await proxy?.close();
});

const writes = new Set(operations.filter(isWrite).map((op) => op.operationId));
const management = new Set(operations.filter((op) => op.securitySchemes.includes("ManagementKey")).map((op) => op.operationId));

describe("npm run verify against a server that is not on this machine", () => {
  it("refuses to start without --api-key, in one line naming it, before sending anything", async () => {
    // 192.0.2.1 is TEST-NET-1: nothing answers there, so a request would hang until its timeout.
    const run = await runVerifyInProcess(["--base-url", "http://192.0.2.1:9"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("--api-key");
    expect(run.stdout).toBe("");
    expect(run.report).toBeUndefined();
    expect(run.ms).toBeLessThan(10_000);
  });

  it("with --api-key alone, skips every write (naming --allow-writes) and every management check (naming --management-key), and sends only reads", async () => {
    const before = proxy!.arrivals.length;
    const run = await runVerifyInProcess(
      ["--base-url", proxy!.url, "--api-key", "sk_test_remote_not_a_real_key", "--rate", "1000", "--cases", "2", "--skip-workflows"],
      { SVC_VERIFY_TREAT_AS_REMOTE: "1" },
    );
    expect(failures(run)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    const report = run.report!;
    expect(report.allowWrites).toBe(false);
    for (const check of report.checks.filter((c) => c.operationId !== undefined && writes.has(c.operationId))) {
      expect(check.status, check.name).toBe("skipped");
      expect(check.detail, check.name).toMatch(/writes: run with --allow-writes/);
    }
    // What needs the management key not given: a management operation's own calls, and the management key offered to the regular API.
    const needsManagementKey = report.checks.filter(
      (c) =>
        !writes.has(c.operationId!) && (management.has(c.operationId!) ? c.suite !== "credential" : c.name.endsWith("a management key instead of its own")),
    );
    expect(needsManagementKey.length).toBeGreaterThan(0);
    for (const check of needsManagementKey) {
      expect(check.status, check.name).toBe("skipped");
      expect(check.detail, check.name).toBe("needs --management-key");
    }
    expect(report.checks.filter((c) => c.status === "passed").length).toBeGreaterThan(50);
    expect(run.stdout).toMatch(/^- operation {2}createUser: valid call {2}— POST writes: run with --allow-writes against a test environment$/m);
    const methods = new Set(proxy!.arrivals.slice(before).map((arrival) => arrival.method));
    expect([...methods]).toEqual(["GET"]);
  });
});

describe("npm run verify --rate", () => {
  it("lets each caller go a full interval after the one before actually left, even after the process was busy", async () => {
    // A clock of the test's: what the limiter decides, free of this machine's load. A sleep wakes at its time, or later
    // when something held the process past it, as a timer does.
    let now = 0;
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        const wake = now + ms;
        await new Promise((resolve) => setImmediate(resolve));
        now = Math.max(now, wake);
      },
    };
    const limiter = new RateLimiter(100, clock);
    const left: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, caller) => {
        await limiter.take();
        left.push(now);
        // The second caller holds the process past the next three slots, as a busy test process or CI runner does:
        // slots planned ahead on the clock would then let those three go at once.
        if (caller === 1) now += 35;
      }),
    );
    const gaps = left.slice(1).map((at, i) => at - left[i]!);
    expect(gaps.filter((gap) => gap < 10)).toEqual([]);
    expect(left.at(-1)).toBeGreaterThanOrEqual(10 + 35 + 3 * 10);
  });

  it("spaces its requests 1/rate seconds apart", async () => {
    const before = proxy!.arrivals.length;
    // When verify let each request go: the limiter's work. Arrivals at the proxy add each request's own way there, which
    // on a busy machine brings two of them within milliseconds of each other however far apart they left.
    const departures: number[] = [];
    const fetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      // verify's requests only, not the proxy's own to the mock behind it.
      if (String(input instanceof Request ? input.url : input).startsWith(proxy!.url)) departures.push(performance.now());
      return fetch(input, init);
    };
    let run: Awaited<ReturnType<typeof runVerifyInProcess>>;
    try {
      run = await runVerifyInProcess(["--base-url", proxy!.url, "--rate", "10", "--cases", "0", "--only", "listLabTestMarkers", "--skip-workflows"]);
    } finally {
      globalThis.fetch = fetch;
    }
    expect(run.code, run.stdout).toBe(0);
    // --only holds for every pass: each request but the probe of what the server is goes to the operation's path (its
    // paging and undocumented methods too).
    const elsewhere = proxy!.arrivals
      .slice(before)
      .filter((arrival) => arrival.target !== "/_mock/state" && !/^\/v3\/lab_tests\/[^/]+\/markers(\?|$)/.test(arrival.target));
    expect(elsewhere).toEqual([]);
    expect(proxy!.arrivals.length - before).toBe(run.report!.requests);
    expect(departures.length).toBe(run.report!.requests);
    expect(departures.length).toBeGreaterThanOrEqual(5);
    // The limiter lets each request go a full interval (100 ms) after the one before; what is timed here is the call of
    // fetch, which may come later than that by however long the process was off the CPU or in a GC pause in between
    // (on a loaded machine, tens of milliseconds: one gap read 86 ms). Such a delay shortens one gap and lengthens the
    // next, so the span and the middle gap hold where a single gap may not, and a burst fails both by far.
    const gaps = departures.slice(1).map((at, i) => at - departures[i]!);
    const span = departures.at(-1)! - departures[0]!;
    expect(span, `requests sent over ${span} ms`).toBeGreaterThanOrEqual(gaps.length * 100 - 50);
    const middle = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]!;
    expect(middle, `gaps: ${gaps.map((gap) => gap.toFixed(0)).join(", ")} ms`).toBeGreaterThanOrEqual(95);
  });
});
