// verify's reproductions, used as a team uses them: a run against the stateful mock behind a proxy that plants faults,
// then each failure's curl line run by bash as printed (its credentials exported as the run's top says), and each
// failure sent again with --replay, which creates again what the run had made. Every failure gets the failure again:
// a fault that needs nothing the run made through its line as printed, and every one through --replay.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import type { Check } from "../../src/verify/check.ts";
import { REPORT_JSON, type Report } from "../../src/verify/report/report.ts";
import { runVerify } from "../../src/verify/run.ts";
import { startAlteringProxy, type AlteringProxy } from "../support/altering-proxy.ts";

const run = promisify(execFile);

const error = (status: number, message: string) => ({ status, body: JSON.stringify({ code: "internal_error", message }), contentType: "application/json" });

/** The planted faults, by the request they meet; `stateful` ones only where the run's fixtures exist. */
const FAULTS = {
  latestInsurance: (pathname: string) => /\/insurance\/latest$/.test(pathname),
  webhookText: (pathname: string, body: string) => /\/webhooks$/.test(pathname) && /"description":"[^"]*[^\x20-\x7e]/.test(body),
  teamRead: (pathname: string) => /^\/v2\/management\/teams\/[^/]+$/.test(pathname),
};

let mock: RunningMock;
let proxy: AlteringProxy;
let reportDir: string;
let report: Report;
let lines: string[];

beforeAll(async () => {
  mock = await startMock({ port: 0, stateful: {} });
  proxy = await startAlteringProxy(mock.url, (x) => {
    if (x.method === "GET" && FAULTS.latestInsurance(x.pathname)) return error(500, "latest insurance lost");
    if (x.method === "POST" && FAULTS.webhookText(x.pathname, x.body)) return error(500, "could not store the endpoint");
    // Only a team that exists breaks: after the run, the mock has forgotten it, and only --replay makes one again.
    if (x.method === "GET" && FAULTS.teamRead(x.pathname) && x.status === 200) return error(500, "team cache corrupt");
    return undefined;
  });
  reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-repro-"));
  lines = [];
  const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
  const args = [
    "--base-url",
    proxy.url,
    "--cases",
    "30",
    "--seed",
    "7",
    "--only",
    "getLatestInsurance",
    "--only",
    "createWebhookEndpoint",
    "--only",
    "getTeam",
    "--skip-workflows",
    "--report-dir",
    reportDir,
  ];
  expect(await runVerify(args, out)).toBe(1);
  report = JSON.parse(await readFile(path.join(reportDir, REPORT_JSON), "utf8")) as Report;
});

afterAll(async () => {
  await proxy?.close();
  await mock?.stop();
  rmSync(reportDir, { recursive: true, force: true });
});

/** The credentials as the run's top prints them: the lines a reader pastes into a shell. */
function exports(): string {
  return lines.filter((line) => /^ {2}export SVC_[A-Z_]+=/.test(line)).join("\n");
}

/** Runs failures' curl lines in one bash, each as printed, after the exports; the status each got. */
async function curlStatuses(checks: Check[]): Promise<number[]> {
  // Each line's answer begins with its status line; a marker line keeps them apart.
  const script = [exports(), ...checks.flatMap((check) => [check.repro!, "echo; echo '--next--'"])].join("\n");
  const { stdout } = await run("bash", ["-c", script], { cwd: process.cwd(), env: { PATH: process.env.PATH! } });
  return stdout
    .split("--next--")
    .slice(0, checks.length)
    .map((answer) => Number(/^HTTP\/[\d.]+ (\d{3})/m.exec(answer)?.[1]));
}

async function replay(check: Check): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const out = { log: (line: string) => said.push(line), error: (line: string) => said.push(line) };
  return { code: await runVerify(["--replay", check.id!, "--report-dir", reportDir], out), said };
}

const failed = () => report.checks.filter((check) => check.status === "failed");
/** The failures the report keeps whole: each cause's first few (the rest are named and counted). */
const whole = () => failed().filter((check) => report.groups.find((group) => group.id === check.group)!.examples.includes(check.id!));

describe("a failure's reproduction", () => {
  it("names each failure by its id, with its exact request and what the run made that it needs", () => {
    expect(failed().length).toBeGreaterThanOrEqual(6);
    expect(failed().map((check) => check.id)).toEqual(failed().map((_, index) => `F${index + 1}`));
    for (const check of whole()) {
      expect(check.request, check.name).toBeDefined();
      expect(lines).toContain(`    reproduce: ${check.repro}`);
    }
    // Every failure is in the console with its id; past its cause's first few, the report keeps only its name.
    for (const check of failed()) expect(lines).toContain(lines.find((line) => line.endsWith(`  [${check.id}]`)));
    expect(failed().filter((check) => check.request === undefined)).toEqual(failed().filter((check) => !whole().includes(check)));
    const insurance = failed().find((check) => check.operationId === "getLatestInsurance")!;
    expect(insurance.request!.needs).toEqual([{ param: "user_id", value: expect.stringMatching(/^[0-9a-f-]{36}$/), create: "createUser" }]);
    // The body with a character beyond printable ASCII is read from a file; the JSON keeps it too.
    const webhook = failed().find((check) => check.operationId === "createWebhookEndpoint")!;
    expect(webhook.repro).toMatch(/--data-binary '@.*\/bodies\/F\d+\.body'$/);
    expect(webhook.request!.body).toMatch(/"description":"[^"]*[^\x20-\x7e]/);
    // The keys verify invented for the mock are printed, so the lines run as they stand.
    expect(report.credentials.find((each) => each.variable === "SVC_API_KEY")).toMatchObject({
      origin: "invented",
      value: expect.stringMatching(/^sk_test_verify_/),
    });
  });

  it("run as printed, gets the same answer for every fault that needs nothing the run made", async () => {
    const standalone = whole().filter((check) => check.operationId !== "getTeam");
    expect(standalone.length).toBeGreaterThanOrEqual(4);
    // The team the getTeam failures read is gone with the run: as printed, that line no longer meets the fault.
    const team = failed().find((check) => check.operationId === "getTeam")!;
    const statuses = await curlStatuses([...standalone, team]);
    expect(statuses.slice(0, -1)).toEqual(standalone.map((check) => check.request!.answered));
    expect(statuses.at(-1)).toBe(404);
  });

  it("sent again with --replay, fails again, every one, creating what it needs first", async () => {
    for (const check of whole()) {
      const { code, said } = await replay(check);
      expect(code, `${check.id} ${check.name}\n${said.join("\n")}`).toBe(1);
      expect(said.at(-1)).toBe(`verify: ${check.id} fails again`);
      // What it needs is made again first, as a create of its own or as a step of its check (the create a read-back reads).
      if (check.request!.needs.length > 0) expect(said.some((line) => /^ {2}(made|step) again: /.test(line))).toBe(true);
    }
  });

  it("refuses an id the report does not have, naming those it has", async () => {
    const { code, said } = await replay({ ...failed()[0]!, id: "F999" });
    expect(code).toBe(2);
    expect(said.join("\n")).toMatch(/has no failure F999 \(it has F1, F2/);
  });
});
