// verify's reports: the JSON holds every check and the run's settings; the JUnit file has a <testsuite> per suite, a
// <testcase> per check, <failure message> and <skipped/> where due, and survives any text a server puts in a detail.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/checks.ts";
import { checkLine, junitXml, summarize, writeReports, type Report } from "../../src/verify/report.ts";
import { parseXml } from "../support/xml.ts";

const NASTY = `getOrg answered 500 <html>&nbsp;"quoted" 'single' \u0001bell\u0000 ✓ ok`;

const checks: Check[] = [
  { suite: "operation", name: "listLabs: valid call", status: "passed", operationId: "listLabs", ms: 12 },
  { suite: "operation", name: "getOrg: valid call", status: "failed", detail: NASTY, operationId: "getOrg", ms: 30 },
  { suite: "credential", name: "createUser: no credential", status: "skipped", detail: "POST writes: run with --allow-writes against a test environment", operationId: "createUser", ms: 0 },
  { suite: "workflow users", name: "users / create <&>", status: "passed", ms: 1500 },
];

const report: Report = {
  baseUrl: "http://127.0.0.1:4010",
  mock: false,
  allowWrites: true,
  rate: null,
  startedAt: "2026-01-02T03:04:05.000Z",
  durationMs: 2345,
  requests: 3,
  summary: summarize(checks),
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
