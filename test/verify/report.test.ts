// verify's reports: the JSON holds every check, the failures' groups and the run's settings; the JUnit file has a
// <testsuite> per suite, a <testcase> per check, <failure message> (with its group and cause as properties, its text
// the reproduction and the server's answer) and <skipped/> where due, and survives any text a server puts in a detail;
// the console and the HTML lead with the failures by cause, each titled by its first failure's own sentence.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/check.ts";
import { Findings } from "../../src/verify/report/findings.ts";
import { causeLines, checkLine, junitXml, progressLine, summarize, summaryLine, writeReports, type Report } from "../../src/verify/report/report.ts";
import { reportHtml } from "../../src/verify/report/report-html.ts";
import { parseXml } from "../support/xml.ts";
import { answerLine, answerText, captureAnswer, MAX_ANSWER_BODY } from "../../src/verify/report/answer.ts";
import { Redactor, REMOVED } from "../../src/contract/redact.ts";
import { readJson, type JsonObject } from "../../src/contract/json.ts";
import { contract, responseExample } from "../support/contract.ts";

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
    answer: {
      status: 500,
      statusText: "Internal Server Error",
      headers: { "content-type": "application/json", "x-trace": "<t&1>" },
      bodyForm: "json",
      body: `{"code":"internal_error","message":"No user \\"ann@example.com\\" in team 42 <b>&"}`,
    },
  },
  {
    suite: "operation",
    name: "listLabs: page 2",
    status: "failed",
    id: "F3",
    detail: "listLabs answered 500 internal_error: Lab lab_8f3a2b1c9d is down",
    operationId: "listLabs",
    ms: 8,
    answer: {
      status: 502,
      statusText: "Bad Gateway",
      headers: {},
      bodyForm: "described",
      body: 'text/html, 502 Bad Gateway, 120 bytes, titled "Gateway"; not shown: an answer verify cannot read may hold health data',
    },
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
  concurrency: 8,
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
    // The group stays a property; the cause beside it is the group's template, one value for every failure of it.
    const group = (name: string, cause: string) => ({
      name: "properties",
      attributes: {},
      children: [
        { name: "property", attributes: { name: "group", value: name }, children: [] },
        { name: "property", attributes: { name: "cause", value: cause }, children: [] },
      ],
    });
    const g2 = group("G2", "<op> answered 500 internal_error: <message>");
    const failure = (testcase: number) => operation!.children[testcase]!.children[1]!;
    expect(operation!.children[1]!.children).toEqual([
      group("G1", report.groups[0]!.message.replace(/[\u0000\u0001]/g, "")),
      // Its text: the reproduction (it had no answer).
      { name: "failure", attributes: { message: NASTY.replace(/[\u0000\u0001]/g, "") }, children: [], text: `reproduce: ${made[1]!.repro}` },
    ]);
    expect(operation!.children.slice(2).map((testcase) => testcase.children[0])).toEqual([g2, g2, g2]);
    // The reproduction and the server's answer (status line, headers, body), which a CI page shows under the failure.
    expect(failure(2).text).toBe(
      [
        `reproduce: ${made[3]!.repro}`,
        "",
        "answered:",
        "HTTP 500 Internal Server Error",
        "content-type: application/json",
        "x-trace: <t&1>",
        "",
        made[3]!.answer!.body,
      ].join("\n"),
    );
    expect(failure(3).text).toBe(`answered:\nHTTP 502 Bad Gateway\n\n${made[4]!.answer!.body}`);
    // Nothing to add: an empty failure, as before.
    expect(failure(4)).toEqual({ name: "failure", attributes: { message: made[5]!.detail }, children: [] });
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
        title: NASTY,
        count: 1,
        operations: ["getOrg"],
        examples: ["F1"],
        first: { id: "F1", suite: "operation", name: "getOrg: valid call", detail: NASTY, repro: made[1]!.repro, operationId: "getOrg" },
      },
      {
        id: "G2",
        class: "operation",
        message: "<op> answered 500 internal_error: <message>",
        title: `${made[3]!.detail} (and 2 more like it)`,
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
      // Titled by the first failure's own sentence (values in), and how many more share its cause.
      `  G2 ×3 operation: createUser answered 500 internal_error: No user "ann@example.com" in team 42 (and 2 more like it)`,
      "      operations: createUser, listLabs, getOrg",
      "      first: [F2] createUser: valid call",
      `      reproduce: ${made[3]!.repro}`,
      "  G1 ×1 operation: getOrg answered 500 <html>&nbsp;\"quoted\" 'single' bell ✓ ok",
      "      operations: getOrg",
      "      first: [F1] getOrg: valid call",
      `      reproduce: ${made[1]!.repro}`,
    ]);
    // A sentence past 160 characters is cut in the title, and said whole on the line below.
    const long = `createUser answered 500 internal_error: ${"x".repeat(300)}`;
    const findings = new Findings();
    findings.add({ suite: "operation", name: "createUser: valid call", status: "failed", detail: long, operationId: "createUser", ms: 1 });
    const [title, , first] = causeLines(findings.groups).slice(1);
    expect(title).toBe(`  G1 ×1 operation: ${long.slice(0, 159)}…`);
    expect(first).toBe(`      first: [F1] createUser: valid call  — ${long}`);
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
    expect(section).toContain(
      "<h3>G2 · ✗3 · operation: createUser answered 500 internal_error: No user &quot;ann@example.com&quot; in team 42 (and 2 more like it)</h3>",
    );
    expect(section).toContain("cause: &lt;op&gt; answered 500 internal_error: &lt;message&gt;");
    // What the server answered each failure kept whole: the first open, the next collapsed, each escaped.
    const answers = [...section.matchAll(/<details class="answer"( open)?><summary>(.*?)<\/summary><pre>([\s\S]*?)<\/pre><\/details>/g)];
    expect(answers.map((m) => [m[1] ?? "", m[2]])).toEqual([
      [" open", "F2 answered HTTP 500 Internal Server Error"],
      ["", "F3 answered HTTP 502 Bad Gateway"],
    ]);
    expect(answers[0]![3]).toContain("x-trace: &lt;t&amp;1&gt;\n\n{&quot;code&quot;:&quot;internal_error&quot;");
    expect(answers[1]![3]).toContain("titled &quot;Gateway&quot;; not shown");
    expect(html.indexOf("<details")).toBeGreaterThan(html.indexOf(`id="G2"`));
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

describe("what a failure keeps of the server's answer (src/verify/report/answer.ts)", () => {
  const KEY = "sk_test_answer_known_0123456789abcd";
  // One redactor for the three: making one walks the whole contract.
  const redactor = new Redactor(contract);
  const answerOf = (status: number, statusText: string, headers: HeadersInit, text: string) =>
    ({ kind: "answer", status, statusText, headers: new Headers(headers), text, json: readJson(text), ms: 1 }) as const;

  it("keeps the status line and the headers but Set-Cookie and any carrying a credential, and the body with marked values removed where they stand", () => {
    redactor.rememberCredential(KEY);
    const request = { method: "POST", url: "http://127.0.0.1:4010/v2/user/u1/insurance", headers: { "x-svc-api-key": KEY } };
    const body: JsonObject = { ...(responseExample("createInsurance", 200, "commercial_plan") as JsonObject), member_id: "CANARY-MEMBER-5531" };
    const answer = answerOf(
      200,
      "OK",
      [
        ["content-type", "application/json"],
        ["set-cookie", "session=abc123def456; HttpOnly"],
        ["x-svc-api-key", "sk_live_server_sent_this_0000"],
        ["x-echo", `Bearer ${KEY}`],
        ["x-member", "CANARY-MEMBER-5531"],
        ["x-request-id", "req-1"],
      ],
      JSON.stringify(body),
    );
    redactor.observe(request, answer);
    const kept = captureAnswer(redactor, request, answer);
    expect(kept).toMatchObject({ status: 200, statusText: "OK", bodyForm: "json" });
    expect(kept.headers).toEqual({ "content-type": "application/json", "x-member": REMOVED.phi, "x-request-id": "req-1" });
    expect(JSON.parse(kept.body)).toMatchObject({ member_id: REMOVED.phi, is_primary: body.is_primary });
    const written = JSON.stringify(kept);
    for (const value of ["CANARY-MEMBER-5531", "abc123def456", KEY, KEY.slice(-4), "sk_live_server_sent_this_0000"]) expect(written).not.toContain(value);
    expect(answerLine(kept)).toBe(`HTTP 200 OK  ${kept.body.slice(0, 160)}…`);
  });

  it("cuts a long JSON body at 4,000 characters saying so, names a body it cannot read, and says an empty one is empty", () => {
    const labs = Array.from({ length: 400 }, (_, id) => ({ id, slug: `lab-${id}`, name: `Lab ${id}` }));
    const long = captureAnswer(redactor, { method: "GET", url: "/v3/lab_tests/labs" }, answerOf(200, "OK", {}, JSON.stringify(labs)));
    expect(long.cut).toBe(JSON.stringify(labs).length - MAX_ANSWER_BODY);
    expect(long.body).toBe(`${JSON.stringify(labs).slice(0, MAX_ANSWER_BODY)}… (cut at 4000 characters: ${long.cut} more)`);
    const page = `<html><title>Upstream down</title><p>patient Ann Example</p></html>`;
    const described = captureAnswer(
      redactor,
      { method: "GET", url: "/v3/lab_tests/labs" },
      answerOf(502, "Bad Gateway", { "content-type": "text/html" }, page),
    );
    expect(described).toMatchObject({ bodyForm: "described", status: 502 });
    expect(described.body).toMatch(/^text\/html, 502 Bad Gateway, \d+ bytes, titled "Upstream down"; not shown/);
    expect(described.body).not.toContain("Ann Example");
    const empty = captureAnswer(redactor, { method: "DELETE", url: "/v2/team" }, answerOf(204, "No Content", { "x-a": "1" }, ""));
    expect(empty).toEqual({ status: 204, statusText: "No Content", headers: { "x-a": "1" }, bodyForm: "empty", body: "" });
    expect(answerLine(empty)).toBe("HTTP 204 No Content  (no body)");
    expect(answerText(empty)).toBe("HTTP 204 No Content\nx-a: 1\n\n(no body)");
  });

  it("keeps at most 40 headers, each value at most 400 characters", () => {
    const headers = Array.from({ length: 100 }, (_, n): [string, string] => [`x-h${String(n).padStart(3, "0")}`, "v".repeat(1_000)]);
    const kept = captureAnswer(redactor, { method: "GET", url: "/v3/lab_tests/labs" }, answerOf(500, "", headers, ""));
    expect(Object.keys(kept.headers)).toHaveLength(40);
    expect(Object.values(kept.headers).every((value) => value === `${"v".repeat(400)}…`)).toBe(true);
    expect(answerLine(kept)).toBe("HTTP 500  (no body)");
  });
});
