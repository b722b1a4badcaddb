// verify's reports: the JSON holds every check, the failures' groups and the run's settings; the JUnit file has a
// <testsuite> per suite, a <testcase> per check, <failure message> (with its group as a property) and <skipped/> where
// due, and survives any text a server puts in a detail; the console and the HTML lead with the failures by cause.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/check.ts";
import { Findings } from "../../src/verify/report/findings.ts";
import { causeLines, checkLine, junitXml, progressLine, summarize, summaryLine, writeReports, type Report } from "../../src/verify/report/report.ts";
import { reportHtml } from "../../src/verify/report/report-html.ts";
import { parseXml } from "../support/xml.ts";

const NASTY = `getOrg answered 500 <html>&nbsp;"quoted" 'single' \u0001bell\u0000 ✓ ok`;

const made: Check[] = [
  { suite: "operation", name: "listLabs: valid call", status: "passed", operationId: "listLabs", ms: 12 },
  {
    suite: "operation",
    name: "getOrg: valid call",
    status: "failed",
    id: "F1",
    detail: NASTY,
    operationId: "getOrg",
    ms: 30,
    repro: `curl -sS -i -X GET 'http://127.0.0.1:4010/v2/management/org' -H "x-svc-management-key: $SVC_MANAGEMENT_KEY"`,
  },
  {
    suite: "credential",
    name: "createUser: no credential",
    status: "skipped",
    detail: "POST writes: run with --allow-writes against a test environment",
    operationId: "createUser",
    ms: 0,
  },
  // One cause in three operations, each message holding values of its own.
  {
    suite: "operation",
    name: "createUser: valid call",
    status: "failed",
    id: "F2",
    detail: `createUser answered 500 internal_error: No user "ann@example.com" in team 42`,
    operationId: "createUser",
    ms: 9,
    repro: `curl -sS -i -X POST 'http://127.0.0.1:4010/v2/user' --data-raw '{"client_user_id":"<b>&"}'`,
  },
  {
    suite: "operation",
    name: "listLabs: page 2",
    status: "failed",
    id: "F3",
    detail: "listLabs answered 500 internal_error: Lab lab_8f3a2b1c9d is down",
    operationId: "listLabs",
    ms: 8,
  },
  {
    suite: "operation",
    name: "getOrg: page 2",
    status: "failed",
    id: "F4",
    detail: "getOrg answered 500 internal_error: Org 7f3a9b2c-1d4e-4f60-8a51-6c0f2b8d7e11 is gone",
    operationId: "getOrg",
    ms: 7,
  },
  { suite: "workflow users", name: "users / create <&>", status: "passed", ms: 1500 },
];
const findings = new Findings();
const checks = made.map((check) => findings.add(check));

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
  summary: findings.summary,
  coverage: [
    {
      operationId: "listLabs",
      method: "GET",
      path: "/v3/lab_tests/labs",
      declaredStatuses: ["200", "401", "500"],
      seenStatuses: [200],
      inputs: [],
      requests: 1,
    },
    {
      operationId: "getOrg",
      method: "GET",
      path: "/v2/management/org",
      declaredStatuses: ["200", "401"],
      seenStatuses: [500],
      inputs: [{ name: "query page", exercised: false }],
      requests: 1,
    },
    {
      operationId: "createUser",
      method: "POST",
      path: "/v2/user",
      declaredStatuses: ["200", "400"],
      seenStatuses: [],
      inputs: [{ name: "body client_user_id", exercised: true }],
      requests: 0,
    },
  ],
  groups: findings.groups,
  checks,
};

describe("verify's JUnit report", () => {
  const root = parseXml(junitXml(report));

  it("counts every check, failure and skip, and the time in seconds", () => {
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ tests: "7", failures: "4", skipped: "1", errors: "0", time: "2.345", timestamp: "2026-01-02T03:04:05.000Z" });
  });

  it("has one testsuite per suite, in the order the checks came, each with its counts", () => {
    expect(
      root.children.map((suite) => [suite.name, suite.attributes.name, suite.attributes.tests, suite.attributes.failures, suite.attributes.skipped]),
    ).toEqual([
      ["testsuite", "operation", "5", "4", "0"],
      ["testsuite", "credential", "1", "0", "1"],
      ["testsuite", "workflow users", "1", "0", "0"],
    ]);
  });

  it("has one testcase per check, named as the check: empty when passed, a failure with its group and the detail as its message, a skipped with the reason", () => {
    const [operation, credential, workflow] = root.children;
    expect(operation!.children.map((testcase) => testcase.attributes)).toEqual([
      { classname: "operation", name: "listLabs: valid call", time: "0.012" },
      { classname: "operation", name: "getOrg: valid call", time: "0.030" },
      { classname: "operation", name: "createUser: valid call", time: "0.009" },
      { classname: "operation", name: "listLabs: page 2", time: "0.008" },
      { classname: "operation", name: "getOrg: page 2", time: "0.007" },
    ]);
    expect(operation!.children[0]!.children).toEqual([]);
    const group = (name: string) => ({
      name: "properties",
      attributes: {},
      children: [{ name: "property", attributes: { name: "group", value: name }, children: [] }],
    });
    expect(operation!.children[1]!.children).toEqual([
      group("G1"),
      { name: "failure", attributes: { message: NASTY.replace(/[\u0000\u0001]/g, "") }, children: [] },
    ]);
    expect(operation!.children.slice(2).map((testcase) => testcase.children[0])).toEqual([group("G2"), group("G2"), group("G2")]);
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
      expect(report.summary).toEqual({ passed: 2, failed: 4, skipped: 1, total: 7 });
      expect(parseXml(readFileSync(written.junit, "utf8")).attributes.tests).toBe("7");
      expect(readFileSync(written.html, "utf8")).toBe(reportHtml(report));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("groups the failures by cause across operations, whatever values each message holds, and names each failure's group", () => {
    expect(report.groups).toEqual([
      {
        id: "G1",
        class: "operation",
        message: "<op> answered 500 <html>&nbsp;<text> <text> \u0001bell\u0000 ✓ ok",
        count: 1,
        operations: ["getOrg"],
        examples: ["F1"],
        first: { id: "F1", suite: "operation", name: "getOrg: valid call", detail: NASTY, repro: made[1]!.repro, operationId: "getOrg" },
      },
      {
        id: "G2",
        class: "operation",
        message: "<op> answered 500 internal_error: <message>",
        count: 3,
        operations: ["createUser", "listLabs", "getOrg"],
        examples: ["F2", "F3", "F4"],
        first: { id: "F2", suite: "operation", name: "createUser: valid call", detail: made[3]!.detail, repro: made[3]!.repro, operationId: "createUser" },
      },
    ]);
    expect(checks.map((check) => check.group)).toEqual([undefined, "G1", undefined, "G2", "G2", "G2", undefined]);
  });

  it("prints a mark, the suite, the name, and the detail when there is one", () => {
    expect(checks.slice(0, 3).concat(checks.slice(-1)).map(checkLine)).toEqual([
      "✓ operation  listLabs: valid call",
      // The control characters a server sent are not printed (they could be terminal escapes).
      "✗ operation  getOrg: valid call  — getOrg answered 500 <html>&nbsp;\"quoted\" 'single' bell ✓ ok",
      "- credential createUser: no credential  — POST writes: run with --allow-writes against a test environment",
      // A workflow's suite is said once: its checks are named after the workflow.
      "✓ workflow   users / create <&>",
    ]);
  });

  it("ends with the failures by cause, most first: each group's count, operations and first reproduction", () => {
    expect(causeLines(report.groups)).toEqual([
      "verify: failures by cause (2 groups, most first):",
      "  G2 ×3 operation: <op> answered 500 internal_error: <message>",
      "      operations: createUser, listLabs, getOrg",
      `      first: [F2] createUser: valid call  — createUser answered 500 internal_error: No user "ann@example.com" in team 42`,
      `      reproduce: ${made[3]!.repro}`,
      "  G1 ×1 operation: <op> answered 500 <html>&nbsp;<text> <text> bell ✓ ok",
      "      operations: getOrg",
      "      first: [F1] getOrg: valid call  — getOrg answered 500 <html>&nbsp;\"quoted\" 'single' bell ✓ ok",
      `      reproduce: ${made[1]!.repro}`,
    ]);
    // No line of it reads as a check's line.
    expect(causeLines(report.groups).filter((line) => /^[✓✗-] /.test(line))).toEqual([]);
    expect(causeLines([])).toEqual([]);
  });
});

describe("verify's HTML report", () => {
  const html = reportHtml(report);

  it("stands alone: no outside script, style, font, image or link; its only links are to its own failure groups", () => {
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|\ssrc=/i);
    const links = [...html.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(html).toContain(` id="${link.slice(1)}"`);
  });

  it("opens with the summary and the failure groups, most first, before the grid and the coverage", () => {
    const at = (text: string) => html.indexOf(text);
    expect(at(`class="summary"`)).toBeLessThan(at(`id="G2"`));
    expect(at(`id="G2"`)).toBeLessThan(at(`id="G1"`));
    expect(at(`id="G1"`)).toBeLessThan(at(`class="grid"`));
    expect(at(`class="grid"`)).toBeLessThan(at(`class="coverage"`));
    const section = /<section class="group" id="G2">([\s\S]*?)<\/section>/.exec(html)![1]!;
    expect(section).toContain("<h3>G2 · ✗3 · operation: &lt;op&gt; answered 500 internal_error: &lt;message&gt;</h3>");
    expect(section).toContain(
      `<pre>curl -sS -i -X POST &#39;http://127.0.0.1:4010/v2/user&#39; --data-raw &#39;{&quot;client_user_id&quot;:&quot;&lt;b&gt;&amp;&quot;}&#39;</pre>`,
    );
    expect(section).toContain("operations: createUser, listLabs, getOrg");
    expect(section).toContain("also F3 <small>(listLabs: page 2)</small>, F4 <small>(getOrg: page 2)</small>");
  });

  it("draws operations against check classes, each cell counting its checks, coloured by the worst and linking to its failures' first cause", () => {
    const row = (operationId: string) => new RegExp(`<tr><th scope="row">${operationId}</th>(.*?)</tr>`).exec(html)?.[1] ?? "";
    // Columns: operation, credential, invalid, coverage, generated, state, collection, protocol, workflow, cleanup.
    const cells = (operationId: string) =>
      [...row(operationId).matchAll(/<td class="(\w+)"[^>]*>(.*?)<\/td>/g)].map((m) => `${m[1]} ${m[2]!.replace(/<[^>]*>/g, "")}`.trim());
    expect(cells("getOrg").slice(0, 2)).toEqual(["failed ✗2", "none"]);
    expect(cells("createUser").slice(0, 2)).toEqual(["failed ✗1", "skipped –1"]);
    expect(cells("listLabs")[0]).toBe("failed ✗1 ✓1");
    // A cell with two causes links to the first and names both.
    expect(row("getOrg")).toContain(`<td class="failed" title="0 passed, 2 failed (causes G1, G2), 0 skipped"><a href="#G1">✗2</a></td>`);
    expect(row("listLabs")).toContain(`<a href="#G2">✗1</a> ✓1`);
    // A check of no operation (a workflow's) sits in the row of the run.
    expect(cells("\\(the run and its paths\\)")[8]).toBe("passed ✓1");
  });

  it("shows each failure with its detail escaped and its reproduction, and what was covered", () => {
    expect(html).toContain("getOrg answered 500 &lt;html&gt;&amp;nbsp;&quot;quoted&quot;");
    expect(html).not.toContain("<html>&nbsp;");
    expect(html).toContain(
      `<pre>curl -sS -i -X GET &#39;http://127.0.0.1:4010/v2/management/org&#39; -H &quot;x-svc-management-key: $SVC_MANAGEMENT_KEY&quot;</pre>`,
    );
    // Statuses: listLabs saw 1 of its 3, getOrg none of its 2 (and one it does not declare), createUser none of 2.
    expect(html).toContain("Declared statuses seen: ");
    expect(html).toMatch(/aria-label="14%"><span style="width:14%"><\/span><\/span> 1 of 7/);
    expect(html).toContain(`<span class="chip undeclared">undeclared: 500</span>`);
    expect(html).toContain("not sent: query page");
  });

  it("says how far a run is in one line, for a terminal to rewrite", () => {
    expect(progressLine(report.summary, checks.at(-1), 1234, 5600)).toBe("verify: 2 passed, 4 failed, 1 skipped, 1234 requests, 6 s — workflow users");
    expect(progressLine(summarize([]), undefined, 1, 0)).toBe("verify: 0 passed, 0 failed, 0 skipped, 1 requests, 0 s");
  });

  it("ends the console's summary with the requests and the time", () => {
    expect(summaryLine(report)).toBe("verify: 2 passed, 4 failed, 1 skipped against http://127.0.0.1:4010: 3 requests in 2.3 s");
  });
});
