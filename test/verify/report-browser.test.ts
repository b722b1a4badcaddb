// verify-report.html as a team opens it: a run's report (verify against the stateless mock, whose state checks fail
// with their reproductions) loaded from its file in Chromium, where it makes no request at all beyond its own file and
// shows the grid, each failure with its curl line, and the coverage.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REPORT_HTML, type Report } from "../../src/verify/report.ts";
import { runVerify } from "../../src/verify/run.ts";
import { BROWSER_INSTALL, findBrowser, launchBrowser, openReaderPage } from "../support/browser.ts";

const executable = findBrowser();
if (executable === undefined) console.warn(`test/verify/report-browser.test.ts skipped: no Chromium found; install one with: ${BROWSER_INSTALL}`);

let browser: Browser | undefined;
let reportDir: string;
let report: Report;

beforeAll(async () => {
  reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-html-"));
  const quiet = { log: () => undefined, error: () => undefined };
  const args = ["--base-url", inject("mockUrl"), "--only", "deleteTeamApiKey", "--only", "getTeam", "--cases", "2", "--report-dir", reportDir];
  [browser] = await Promise.all([executable === undefined ? undefined : launchBrowser(executable), runVerify(args, quiet)]);
  report = JSON.parse(readFileSync(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
});

afterAll(async () => {
  await browser?.close();
  rmSync(reportDir, { recursive: true, force: true });
});

describe.skipIf(executable === undefined)("verify-report.html in a browser", () => {
  it("loads from its file with no other request, and shows the grid, every failure with its reproduction, and the coverage", async () => {
    const reader = await openReaderPage(browser!, 1280);
    const fileUrl = pathToFileURL(path.join(reportDir, REPORT_HTML)).href;
    const requested: string[] = [];
    reader.page.on("request", (request) => requested.push(request.url()));
    await reader.page.goto(fileUrl);
    expect(requested).toEqual([fileUrl]);
    expect(reader.outside).toEqual([]);
    expect(reader.errors).toEqual([]);
    const failed = report.checks.filter((check) => check.status === "failed");
    // The stateless mock keeps nothing: the state checks fail, each with a request to run again.
    expect(failed.length).toBeGreaterThan(0);
    const shown = await reader.page.evaluate(() => ({
      title: document.title,
      rows: [...document.querySelectorAll("table.grid th[scope=row]")].map((th) => th.textContent),
      failedCells: document.querySelectorAll("table.grid td.failed").length,
      failures: [...document.querySelectorAll("section.failure")].map((section) => ({ heading: section.querySelector("h3")?.textContent, repro: section.querySelector("pre")?.textContent })),
      coverageRows: document.querySelectorAll("table.coverage th[scope=row]").length,
      // The grid fits a laptop's window: nothing of it is cut off to the right.
      gridWidth: document.querySelector("table.grid")!.getBoundingClientRect().right,
    }));
    expect(shown.title).toBe(`verify: ${report.baseUrl}`);
    expect(shown.rows).toEqual(expect.arrayContaining(report.coverage.map((op) => op.operationId)));
    expect(shown.failedCells).toBeGreaterThan(0);
    expect(shown.failures.map((failure) => failure.heading)).toEqual(failed.map((check) => `✗ ${check.suite}: ${check.name}`));
    expect(shown.failures.map((failure) => failure.repro)).toEqual(failed.map((check) => check.repro));
    expect(shown.coverageRows).toBe(report.coverage.length);
    expect(shown.gridWidth).toBeLessThanOrEqual(1280);
    await reader.page.close();
  });
});
