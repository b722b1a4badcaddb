// verify's reports: the JSON holds every check and the run's settings; the JUnit file has a <testsuite> per suite, a
// <testcase> per check, <failure message> and <skipped/> where due, and survives any text a server puts in a detail.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/checks.ts";
import { checkLine, junitXml, progressLine, summarize, summaryLine, writeReports, type Report } from "../../src/verify/report.ts";
import { reportHtml } from "../../src/verify/report-html.ts";
import { parseXml } from "../support/xml.ts";

const NASTY = `getOrg answered 500 <html>&nbsp;"quoted" 'single' \u0001bell\u0000 ✓ ok`;

const checks: Check[] = [
  { suite: "operation", name: "listLabs: valid call", status: "passed", operationId: "listLabs", ms: 12 },
  { suite: "operation", name: "getOrg: valid call", status: "failed", detail: NASTY, operationId: "getOrg", ms: 30, repro: `curl -sS -i -X GET 'http://127.0.0.1:4010/v2/management/org' -H "x-svc-management-key: $SVC_MANAGEMENT_KEY"` },
  { suite: "credential", name: "createUser: no credential", status: "skipped", detail: "POST writes: run with --allow-writes against a test environment", operationId: "createUser", ms: 0 },
  { suite: "workflow users", name: "users / create <&>", status: "passed", ms: 1500 },
];

const report: Report = {
  baseUrl: "http://127.0.0.1:4010",
  credentials: [],
  mock: false,
  allowWrites: true,
  rate: null,
  startedAt: "2026-01-02T03:04:05.000Z",
  durationMs: 2345,
  requests: 3,
  seed: 42,
  cases: 40,
  summary: summarize(checks),
  coverage: [
    { operationId: "listLabs", method: "GET", path: "/v3/lab_tests/labs", declaredStatuses: ["200", "401", "500"], seenStatuses: [200], inputs: [], requests: 1 },
    { operationId: "getOrg", method: "GET", path: "/v2/management/org", declaredStatuses: ["200", "401"], seenStatuses: [500], inputs: [{ name: "query page", exercised: false }], requests: 1 },
    { operationId: "createUser", method: "POST", path: "/v2/user", declaredStatuses: ["200", "400"], seenStatuses: [], inputs: [{ name: "body client_user_id", exercised: true }], requests: 0 },
  ],
  checks,
};

describe("verify's JUnit report", () => {
  const root = parseXml(junitXml(report));

  it("counts every check, failure and skip, and the time in seconds", () => {
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ tests: "4", failures: "1", skipped: "1", errors: "0", time: "2.345", timestamp: "2026-01-02T03:04:05.000Z" });
  });

  it("has one testsuite per suite, in the order the checks came, each with its counts", () => {
    expect(root.children.map((suite) => [suite.name, suite.attributes.name, suite.attributes.tests, suite.attributes.failures, suite.attributes.skipped])).toEqual([
      ["testsuite", "operation", "2", "1", "0"],
      ["testsuite", "credential", "1", "0", "1"],
      ["testsuite", "workflow users", "1", "0", "0"],
    ]);
  });

  it("has one testcase per check: empty when passed, a failure with the detail as its message, a skipped with the reason", () => {
    const [operation, credential, workflow] = root.children;
    expect(operation!.children.map((testcase) => testcase.attributes)).toEqual([
      { classname: "operation", name: "listLabs: valid call", time: "0.012" },
      { classname: "operation", name: "getOrg: valid call", time: "0.030" },
    ]);
    expect(operation!.children[0]!.children).toEqual([]);
    expect(operation!.children[1]!.children).toEqual([{ name: "failure", attributes: { message: NASTY.replace(/[\u0000\u0001]/g, "") }, children: [] }]);
    expect(credential!.children[0]!.children).toEqual([{ name: "skipped", attributes: { message: checks[2]!.detail }, children: [] }]);
    expect(workflow!.children[0]!.attributes.name).toBe("users / create <&>");
  });
});

describe("verify's JSON report and console lines", () => {
  it("writes both files into a new folder; the JSON holds the settings, the counts and every check", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "verify-report-test-"));
    try {
      const written = await writeReports(path.join(scratch, "nested"), report);
      expect(JSON.parse(readFileSync(written.json, "utf8"))).toEqual(report);
      expect(report.summary).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
      expect(parseXml(readFileSync(written.junit, "utf8")).attributes.tests).toBe("4");
      expect(readFileSync(written.html, "utf8")).toBe(reportHtml(report));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("prints a mark, the suite, the name, and the detail when there is one", () => {
    expect(checks.map(checkLine)).toEqual([
      "✓ operation  listLabs: valid call",
      // The control characters a server sent are not printed (they could be terminal escapes).
      "✗ operation  getOrg: valid call  — getOrg answered 500 <html>&nbsp;\"quoted\" 'single' bell ✓ ok",
      "- credential createUser: no credential  — POST writes: run with --allow-writes against a test environment",
      // A workflow's suite is said once: its checks are named after the workflow.
      "✓ workflow   users / create <&>",
    ]);
  });
});

describe("verify's HTML report", () => {
  const html = reportHtml(report);

  it("stands alone: no outside script, style, font, image or link", () => {
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|\ssrc=|\shref=/i);
  });

  it("draws operations against check classes, each cell counting its checks and coloured by the worst", () => {
    const row = (operationId: string) => new RegExp(`<tr><th scope="row">${operationId}</th>(.*?)</tr>`).exec(html)?.[1] ?? "";
    // Columns: operation, credential, invalid, coverage, generated, state, collection, protocol, workflow, cleanup.
    const cells = (operationId: string) => [...row(operationId).matchAll(/<td class="(\w+)"[^>]*>([^<]*)<\/td>/g)].map((m) => `${m[1]} ${m[2]}`.trim());
    expect(cells("getOrg").slice(0, 2)).toEqual(["failed ✗1", "none"]);
    expect(cells("createUser").slice(0, 2)).toEqual(["none", "skipped –1"]);
    // A check of no operation (a workflow's) sits in the row of the run.
    expect(cells("\\(the run and its paths\\)")[8]).toBe("passed ✓1");
  });

  it("shows each failure with its detail escaped and its reproduction, and what was covered", () => {
    expect(html).toContain("getOrg answered 500 &lt;html&gt;&amp;nbsp;&quot;quoted&quot;");
    expect(html).not.toContain("<html>&nbsp;");
    expect(html).toContain(`<pre>curl -sS -i -X GET &#39;http://127.0.0.1:4010/v2/management/org&#39; -H &quot;x-svc-management-key: $SVC_MANAGEMENT_KEY&quot;</pre>`);
    // Statuses: listLabs saw 1 of its 3, getOrg none of its 2 (and one it does not declare), createUser none of 2.
    expect(html).toContain("Declared statuses seen: ");
    expect(html).toMatch(/aria-label="14%"><span style="width:14%"><\/span><\/span> 1 of 7/);
    expect(html).toContain(`<span class="chip undeclared">undeclared: 500</span>`);
    expect(html).toContain("not sent: query page");
  });

  it("says how far a run is in one line, for a terminal to rewrite", () => {
    expect(progressLine(checks, 1234, 5600)).toBe("verify: 2 passed, 1 failed, 1 skipped, 1234 requests, 6 s — workflow users");
    expect(progressLine([], 1, 0)).toBe("verify: 0 passed, 0 failed, 0 skipped, 1 requests, 0 s");
  });

  it("ends the console's summary with the requests and the time", () => {
    expect(summaryLine(report)).toBe("verify: 2 passed, 1 failed, 1 skipped against http://127.0.0.1:4010: 3 requests in 2.3 s");
  });
});
