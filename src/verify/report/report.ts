// Reports a verify run: a console line per check, the failures by cause and the summary, verify-report.json (the
// checks, their groups and the run's settings) and verify-junit.xml (a <testsuite> per suite, a <testcase> per check,
// a failure naming its group and cause, its text the reproduction and the server's answer) for CI.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Check, CheckStatus } from "../check.ts";
import { byCount, KEPT_PER_GROUP, operationList } from "./findings.ts";
import type { FailureGroup, Report, Summary } from "./report-shape.ts";
import { reportHtml } from "./report-html.ts";
import { answerText } from "./answer.ts";

export type { FailureGroup, Report, Summary };

export const REPORT_JSON = "verify-report.json";
export const REPORT_JUNIT = "verify-junit.xml";
export const REPORT_HTML = "verify-report.html";

const MARKS: Record<CheckStatus, string> = { passed: "✓", failed: "✗", skipped: "-" };

export function summarize(checks: Check[]): Summary {
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  return { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), total: checks.length };
}

/** One line of text: a detail quotes what a server sent, whose line breaks and control characters (terminal escapes) are not printed. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

export function checkLine(check: Check): string {
  // A workflow's checks are named after it already (`users-lifecycle / create`): the line says "workflow" once.
  const suite = check.suite.startsWith("workflow ") ? "workflow" : check.suite;
  return oneLine(`${MARKS[check.status]} ${suite.padEnd(10)} ${check.name}${check.detail === undefined ? "" : `  — ${check.detail}`}`);
}

/** The last line of a run: the counts, the server, and how many requests took how long. */
export function summaryLine(report: Report): string {
  const { passed, failed, skipped } = report.summary;
  return `verify: ${passed} passed, ${failed} failed, ${skipped} skipped against ${report.baseUrl}: ${report.requests} request${report.requests === 1 ? "" : "s"} in ${(report.durationMs / 1000).toFixed(1)} s`;
}

/** How far a run is, for the line a terminal rewrites in place. */
export function progressLine({ passed, failed, skipped }: Summary, last: Check | undefined, requests: number, ms: number): string {
  return oneLine(
    `verify: ${passed} passed, ${failed} failed, ${skipped} skipped, ${requests} requests, ${(ms / 1000).toFixed(0)} s${last === undefined ? "" : ` — ${last.suite}`}`,
  );
}

/** The console's failures by cause, printed before the summary: a block per group, most first, with its first reproduction. */
export function causeLines(groups: FailureGroup[]): string[] {
  if (groups.length === 0) return [];
  const lines = [`verify: failures by cause (${groups.length} group${groups.length === 1 ? "" : "s"}, most first):`];
  for (const group of byCount(groups)) {
    const { first } = group;
    // The title is the first failure's sentence: the line under it says it again only where the title had to cut it.
    const whole = first.detail === undefined || group.title.startsWith(first.detail);
    lines.push(
      oneLine(`  ${group.id} ×${group.count} ${group.class}: ${group.title}`),
      oneLine(`      operations: ${operationList(group.operations)}`),
      oneLine(`      first: [${first.id}] ${first.name}${whole ? "" : `  — ${first.detail}`}`),
      ...(first.repro === undefined ? [] : [oneLine(`      reproduce: ${first.repro}`)]),
    );
  }
  return lines;
}

/** XML 1.0 text or attribute: the five specials escaped, and the control characters XML cannot hold dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** What a failure kept without its detail says: its group's cause, and where one of its kind is kept whole. */
function failureMessage(group: FailureGroup | undefined): string {
  if (group === undefined) return "failed";
  return `${group.message} (cause ${group.id}: its first ${KEPT_PER_GROUP} failures are kept whole in verify-report.json, ${group.first.id} first)`;
}

/** A failure's text in JUnit, which a CI page shows: the request that reproduces it, and what the server answered. */
function failureText(check: Check): string {
  const parts = [
    ...(check.repro === undefined ? [] : [`reproduce: ${check.repro}`]),
    ...(check.answer === undefined ? [] : [`answered:\n${answerText(check.answer)}`]),
  ];
  return parts.join("\n\n");
}

export function junitXml(report: Report): string {
  const groups = new Map(report.groups.map((group) => [group.id, group]));
  const suites = new Map<string, Check[]>();
  for (const check of report.checks) {
    const suite = suites.get(check.suite);
    if (suite === undefined) suites.set(check.suite, [check]);
    else suite.push(check);
  }
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="verify ${xmlEscape(report.baseUrl)}" tests="${report.summary.total}" failures="${report.summary.failed}" skipped="${report.summary.skipped}" errors="0" time="${seconds(report.durationMs)}" timestamp="${report.startedAt}">`,
  ];
  for (const [suite, checks] of suites) {
    const { failed, skipped, total } = summarize(checks);
    const ms = checks.reduce((sum, check) => sum + check.ms, 0);
    lines.push(`  <testsuite name="${xmlEscape(suite)}" tests="${total}" failures="${failed}" skipped="${skipped}" errors="0" time="${seconds(ms)}">`);
    for (const check of checks) {
      const open = `    <testcase classname="${xmlEscape(suite)}" name="${xmlEscape(check.name)}" time="${seconds(check.ms)}"`;
      if (check.status === "passed") lines.push(`${open}/>`);
      else if (check.status === "skipped") lines.push(`${open}>`, `      <skipped message="${xmlEscape(check.detail ?? "")}"/>`, `    </testcase>`);
      else {
        // CI keeps a case's history by its name; the group and its cause (the template) are properties of this run's failure.
        const group = check.group === undefined ? undefined : groups.get(check.group);
        const property =
          group === undefined
            ? []
            : [
                `      <properties><property name="group" value="${xmlEscape(group.id)}"/><property name="cause" value="${xmlEscape(group.message)}"/></properties>`,
              ];
        const text = failureText(check);
        const failure = `      <failure message="${xmlEscape(check.detail ?? failureMessage(group))}"`;
        lines.push(`${open}>`, ...property, text === "" ? `${failure}/>` : `${failure}>${xmlEscape(text)}</failure>`, `    </testcase>`);
      }
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`, "");
  return lines.join("\n");
}

/** Writes the three reports into the folder (made if missing) and returns their paths. */
export async function writeReports(dir: string, report: Report): Promise<{ json: string; junit: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const json = path.join(dir, REPORT_JSON);
  const junit = path.join(dir, REPORT_JUNIT);
  const html = path.join(dir, REPORT_HTML);
  await Promise.all([writeFile(json, `${JSON.stringify(report, null, 2)}\n`), writeFile(junit, junitXml(report)), writeFile(html, reportHtml(report))]);
  return { json, junit, html };
}
