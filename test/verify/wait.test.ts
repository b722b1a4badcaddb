// `--wait <s>`: verify started before its server waits for it (the README's "start the mock, then verify" as a CI job
// runs it), and past the time fails the target check naming the address and what it last got, reports written.
import { afterAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { freePort } from "../support/net.ts";
import { json, startStub, type StubServer } from "../support/stub-server.ts";
import { runVerifyInProcess } from "../support/run-verify.ts";

const started: { mock?: RunningMock; stub?: StubServer } = {};

afterAll(async () => {
  await started.mock?.stop();
  await started.stub?.close();
});

describe("verify --wait", () => {
  it("waits for a mock started a second after it, saying so, and then runs its checks", async () => {
    const port = await freePort();
    const run = runVerifyInProcess(["--base-url", `http://127.0.0.1:${port}`, "--wait", "10", "--cases", "0", "--skip-workflows", "--only", "listLabs"]);
    // Nothing listens until then: without --wait, the probe meets ECONNREFUSED and the run fails.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    started.mock = await startMock({ port, stateful: {}, log: () => undefined });
    const { code, stdout, report } = await run;
    expect(stdout).toMatch(
      new RegExp(`verify: waiting up to 10 s \\(--wait\\) for http://127\\.0\\.0\\.1:${port}, which is not answering yet \\(.*ECONNREFUSED`),
    );
    expect(stdout).toMatch(/answers, after \d+\.\d s/);
    expect(stdout).toContain("the package's stateful mock");
    expect(report?.summary.failed).toBe(0);
    expect(report?.summary.passed).toBeGreaterThan(3);
    expect(code).toBe(0);
  }, 30_000);

  it("past the time, fails the target check naming the address and what it last got (a 503, a refused connection), and writes the reports", async () => {
    // A gateway in front of a server that never comes up.
    started.stub = await startStub((_arrival, res) => json(res, 503, { code: "unavailable", message: "starting" }));
    const gateway = await runVerifyInProcess(["--base-url", started.stub.url, "--wait", "0.6", "--cases", "0", "--skip-workflows"]);
    expect(gateway.code).toBe(1);
    // Tried at least once: how often within 0.6 s depends on the machine (gateway-headers.test.ts sees a wait try again).
    expect(started.stub.arrivals.length).toBeGreaterThan(0);
    const failed = gateway.report?.checks.filter((check) => check.status === "failed");
    expect(failed).toEqual([
      expect.objectContaining({
        suite: "target",
        name: `${started.stub.url} answers`,
        detail: `${started.stub.url} did not answer within 0.6 s (--wait 0.6); the last try: answered 503 Service Unavailable`,
      }),
    ]);
    expect(gateway.junit).toContain("did not answer within 0.6 s");

    const closed = `http://127.0.0.1:${await freePort()}`;
    const refused = await runVerifyInProcess(["--base-url", closed, "--wait", "0.3", "--skip-workflows"]);
    expect(refused.code).toBe(1);
    expect(refused.report?.checks).toEqual([
      expect.objectContaining({
        name: `${closed} answers`,
        detail: expect.stringMatching(/did not answer within 0\.3 s \(--wait 0\.3\); the last try: .*ECONNREFUSED/),
      }),
    ]);
  }, 30_000);

  it("does not wait for a server that answers, even with an error of its own", async () => {
    const stub = await startStub((arrival, res) =>
      arrival.url.pathname === "/_mock/state" ? json(res, 500, { code: "internal_error", message: "boom" }) : json(res, 404, {}),
    );
    try {
      const { stdout } = await runVerifyInProcess(["--base-url", stub.url, "--wait", "5", "--cases", "0", "--skip-workflows", "--only", "listLabs"]);
      expect(stdout).not.toContain("waiting up to");
      expect(stub.arrivals.filter((arrival) => arrival.url.pathname === "/_mock/state").length).toBe(2);
    } finally {
      await stub.close();
    }
  });
});
