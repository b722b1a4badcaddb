// verify-report.html as a team opens it: a run's report (verify against the stateless mock, whose state checks fail
// with their reproductions) loaded from its file in Chromium, where it makes no request at all beyond its own file and
// shows the failures by cause first, each titled by its first failure's sentence with what the server answered (the
// first answer open, the others collapsed; the first cause and its curl line in the first screen, on a laptop and on
// a phone), the grid whose links all reach a cause, and the coverage.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { byCount } from "../../src/verify/report/findings.ts";
import { REPORT_HTML, type Report } from "../../src/verify/report/report.ts";
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
  it("loads from its file with no other request, and shows every cause with its first reproduction, the grid and the coverage", async () => {
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
      groups: [...document.querySelectorAll("section.group")].map((section) => ({
        id: section.id,
        heading: section.querySelector("h3")?.textContent,
        repro: section.querySelector(":scope > pre")?.textContent,
        // What the server answered its failures kept whole: the first open (and shown), the others collapsed.
        answers: [...section.querySelectorAll("details.answer")].map((details) => ({
          open: (details as HTMLDetailsElement).open,
          shown: (details.querySelector("pre") as HTMLElement).offsetHeight > 0,
          summary: details.querySelector("summary")?.textContent,
        })),
      })),
      coverageRows: document.querySelectorAll("table.coverage th[scope=row]").length,
      // The grid fits a laptop's window: nothing of it is cut off to the right.
      gridWidth: document.querySelector("table.grid")!.getBoundingClientRect().right,
    }));
    expect(shown.title).toBe(`verify: ${report.baseUrl}`);
    expect(shown.rows).toEqual(expect.arrayContaining(report.coverage.map((op) => op.operationId)));
    expect(shown.failedCells).toBeGreaterThan(0);
    const groups = byCount(report.groups);
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(failed.length);
    expect(shown.groups.map((group) => group.id)).toEqual(groups.map((group) => group.id));
    expect(shown.groups.map((group) => group.heading)).toEqual(groups.map((group) => `${group.id} · ✗${group.count} · ${group.class}: ${group.title}`));
    expect(shown.groups.map((group) => group.repro)).toEqual(groups.map((group) => group.first.repro));
    const byId = new Map(report.checks.map((check) => [check.id, check]));
    expect(shown.groups.map((group) => group.answers)).toEqual(
      groups.map((group) =>
        group.examples.map((id, index) => ({
          open: index === 0,
          shown: index === 0,
          summary: `${id} answered HTTP ${byId.get(id)!.answer!.status} ${byId.get(id)!.answer!.statusText}`,
        })),
      ),
    );
    expect(shown.coverageRows).toBe(report.coverage.length);
    expect(shown.gridWidth).toBeLessThanOrEqual(1280);
    await reader.page.close();
  });

  it("shows the first cause and its reproduction in the first screen at 1440×900 and at 390 px wide, and every grid link reaches its cause", async () => {
    const reader = await openReaderPage(browser!, 1440, 900);
    await reader.page.goto(pathToFileURL(path.join(reportDir, REPORT_HTML)).href);
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await reader.page.setViewportSize(viewport);
      const seen = await reader.page.evaluate(() => {
        const first = document.querySelector("section.group")!;
        const inside = (element: Element | null) => {
          const box = element!.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
        };
        const links = [...document.querySelectorAll("table.grid a")].map((link) => link.getAttribute("href")!);
        return {
          heading: inside(first.querySelector("h3")),
          repro: inside(first.querySelector(":scope > pre")),
          links: links.length,
          unreached: links.filter((href) => !href.startsWith("#") || document.getElementById(href.slice(1))?.matches("section.group") !== true),
          // Read without scrolling sideways (the grid may need to).
          fits: first.getBoundingClientRect().right <= window.innerWidth,
        };
      });
      expect(seen, `${viewport.width}×${viewport.height}`).toEqual({ heading: true, repro: true, links: expect.any(Number), unreached: [], fits: true });
      expect(seen.links).toBeGreaterThan(0);
    }
    expect(reader.errors).toEqual([]);
    await reader.page.close();
  });
});
