// Reports a verify run: a console line per check and the summary, verify-report.json (the checks and the run's
// settings) and verify-junit.xml (a <testsuite> per suite, a <testcase> per check) for CI.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Check, CheckStatus } from "./checks.ts";
import type { CredentialVariable } from "./repro.ts";
import type { OperationCoverage } from "./coverage-map.ts";
import { reportHtml } from "./report-html.ts";

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

export interface Report {
  baseUrl: string;
  /** The target answered GET /_mock/state as the package's stateful mock does. */
  mock: boolean;
  allowWrites: boolean;
  /** Requests a second; null for no limit. */
  rate: number | null;
  startedAt: string;
  durationMs: number;
  /** Requests verify sent itself (the probe, the operation pass, the cleanup); the workflows' are respect's. */
  requests: number;
  /** The generated pass's seed (--seed replays it) and its cases per operation. */
  seed: number;
  cases: number;
  /** The environment variables the reproductions read credentials from, and their values where they may be printed. */
  credentials: CredentialVariable[];
  summary: Summary;
  /** What the requests covered, per operation the run checked. */
  coverage: OperationCoverage[];
  checks: Check[];
}

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
export function progressLine(checks: Check[], requests: number, ms: number): string {
  const { passed, failed, skipped } = summarize(checks);
  const last = checks.at(-1);
  return oneLine(`verify: ${passed} passed, ${failed} failed, ${skipped} skipped, ${requests} requests, ${(ms / 1000).toFixed(0)} s${last === undefined ? "" : ` — ${last.suite}`}`);
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

export function junitXml(report: Report): string {
  const suites = new Map<string, Check[]>();
  for (const check of report.checks) suites.set(check.suite, [...(suites.get(check.suite) ?? []), check]);
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
      else lines.push(`${open}>`, `      <failure message="${xmlEscape(check.detail ?? "failed")}"/>`, `    </testcase>`);
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
