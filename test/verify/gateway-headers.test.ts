// `--header 'Name: value'` reaches the server on every kind of request verify sends (the --wait's tries, the probe, the
// passes, the workflows' proxy, --replay), and a reproduction reads its value from $SVC_HEADER_<NAME>: a stub on
// 127.0.0.1 records what arrived.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVerify } from "../../src/verify/run.ts";
import { Sender } from "../../src/verify/sender.ts";
import { startWorkflowProxy } from "../../src/verify/workflows/workflow-proxy.ts";
import type { Report } from "../../src/verify/report/report.ts";
import { json, startStub, type StubServer } from "../support/stub-server.ts";

const NAME = "X-Gateway-Token";
const VALUE = "gw_test_gateway_token_0123456789qrst";
const VARIABLE = "SVC_HEADER_X_GATEWAY_TOKEN";

let stub: StubServer;
let reportDir: string;
const lines: string[] = [];
let code: number;

/** Arrivals from the n-th on: what a step of the test sent. */
const since = (from: number) => stub.arrivals.slice(from);
const gatewayValues = (from: number) => since(from).map((arrival) => arrival.headers[NAME.toLowerCase()]);

beforeAll(async () => {
  // A server behind a gateway that is starting (two 503s), then a lab list that is not a list: failures to reproduce.
  stub = await startStub((arrival, res, index) => {
    if (index < 2) return json(res, 503, { code: "unavailable", message: "starting" });
    if (arrival.url.pathname === "/_mock/state") return json(res, 404, { code: "not_found", message: "no such path" });
    json(res, 200, { labs: "oops" });
  });
  reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-gateway-"));
  const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
  code = await runVerify(
    ["--base-url", stub.url, "--wait", "5", "--header", `${NAME}: ${VALUE}`, "--only", "listLabs", "--cases", "0", "--report-dir", reportDir],
    out,
  );
}, 30_000);

afterAll(async () => {
  await stub?.close();
  rmSync(reportDir, { recursive: true, force: true });
});

describe("verify --header", () => {
  it("sends it on the --wait's tries, the probe and every request of the passes", () => {
    expect(code).toBe(1);
    expect(lines.join("\n")).toContain("waiting up to 5 s");
    expect(stub.arrivals.length).toBeGreaterThan(6);
    expect(new Set(gatewayValues(0))).toEqual(new Set([VALUE]));
    // Beside the contract's own headers, not instead of them.
    expect(stub.arrivals.some((arrival) => arrival.headers["x-svc-api-key"] !== undefined)).toBe(true);
  });

  it("names its variable at the run's top, and a reproduction reads it from $SVC_HEADER_<NAME>: the curl line, run by bash, sends it", async () => {
    expect(lines).toContain(`  # ${VARIABLE}  # ${NAME}: the value given with --header (not printed: export it yourself)`);
    const curl = lines.find((line) => line.startsWith("    reproduce: curl "))!.slice("    reproduce: ".length);
    expect(curl).toContain(`-H "${NAME}: $${VARIABLE}"`);
    const report = JSON.parse(readFileSync(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
    const failure = report.checks.find((check) => check.request !== undefined)!;
    expect(failure.request).toMatchObject({ headers: { [NAME]: `$${VARIABLE}` }, variables: expect.arrayContaining([NAME]) });
    const from = stub.arrivals.length;
    await promisify(execFile)("bash", ["-c", curl], { env: { ...process.env, [VARIABLE]: VALUE } });
    expect(gatewayValues(from)).toEqual([VALUE]);
  });

  it("is sent by --replay, given there with --header or read from $SVC_HEADER_<NAME>", async () => {
    const out = { log: () => undefined, error: (line: string) => lines.push(line) };
    let from = stub.arrivals.length;
    expect(await runVerify(["--replay", "F1", "--report-dir", reportDir, "--header", `${NAME}: ${VALUE}`], out)).toBe(1);
    expect(since(from).length).toBeGreaterThan(0);
    expect(new Set(gatewayValues(from))).toEqual(new Set([VALUE]));

    from = stub.arrivals.length;
    process.env[VARIABLE] = `${VALUE}-from-env`;
    try {
      expect(await runVerify(["--replay", "F1", "--report-dir", reportDir], out)).toBe(1);
    } finally {
      delete process.env[VARIABLE];
    }
    const replayed = since(from).find((arrival) => arrival.url.pathname === "/v3/lab_tests/labs");
    expect(replayed?.headers[NAME.toLowerCase()]).toBe(`${VALUE}-from-env`);
  });

  it("is sent on the workflows' requests by verify's proxy, over a header of the same name respect sent", async () => {
    const proxy = await startWorkflowProxy(stub.url, new Sender({ rate: undefined, headers: [{ name: NAME, value: VALUE }] }));
    try {
      const from = stub.arrivals.length;
      const answer = await fetch(`${proxy.url}/v3/lab_tests/labs`, { headers: { [NAME]: "what respect sent", "x-svc-api-key": "k" } });
      expect(answer.status).toBe(200);
      expect(gatewayValues(from)).toEqual([VALUE]);
    } finally {
      await proxy.close();
    }
  });
});
