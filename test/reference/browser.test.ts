// The reference as a reader opens it: Debian's Chromium (or any found, never downloaded), every outside request blocked,
// over `npm start`'s /docs (a new process) and as a file: it renders every operation and event kind in the navigation,
// search finds them, links land where they point after a reload or in a new tab, a field marked as health data shows its
// note, axe-core finds no critical or serious violation, and at 390 px the menu bar covers no text. Screenshots go to
// test-output/reference/ (ignored by git).
import type { ChildProcess } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../../src/contract/operations.ts";
import { readBundle, referenceHtmlPath, repoRoot } from "../../scripts/build/lib/paths.ts";
import { referenceStale } from "../../scripts/build/build.ts";
import { DATA_NOTES } from "../../scripts/build/reference/data-notes.ts";
import { referenceDocument } from "../../scripts/build/reference/document.ts";
import { BROWSER_INSTALL, findBrowser, launchBrowser, openReaderPage, waitForReference, type ReaderPage } from "../support/browser.ts";
import { freePort } from "../support/net.ts";
import { launchStart } from "../support/start-process.ts";

const executable = findBrowser();
if (executable === undefined) console.warn(`test/reference/browser.test.ts skipped: no Chromium found; install one with: ${BROWSER_INSTALL}`);
const outputDir = path.join(repoRoot, "test-output", "reference");

let browser: Browser;
let start: ChildProcess | undefined;
let docsUrl: string;
const fileUrl = pathToFileURL(referenceHtmlPath).href;
let operationSummaries: string[];
let eventKinds: string[];

beforeAll(async () => {
  if (executable === undefined) return;
  if (await referenceStale()) await (await import("../../scripts/build/build-docs.ts")).buildReference();
  const document = referenceDocument(await readBundle());
  operationSummaries = listOperations(document).map((op) => String(op.operation.summary));
  eventKinds = Object.keys(document.webhooks as object);
  await mkdir(outputDir, { recursive: true });
  const port = await freePort();
  start = (await launchStart(repoRoot, port, 60_000)).child;
  docsUrl = `http://127.0.0.1:${port}/docs`;
  browser = await launchBrowser(executable);
});

afterAll(async () => {
  await browser?.close();
  if (start && start.exitCode === null) start.kill("SIGKILL");
});

async function open(url: string, width = 1440): Promise<ReaderPage> {
  const reader = await openReaderPage(browser, width);
  await reader.page.goto(url);
  await waitForReference(reader.page);
  return reader;
}

/** Opens each group of the navigation in turn (opening one closes the others) and returns every entry's text and link. */
async function navigation(page: Page): Promise<{ text: string; href: string }[]> {
  const entries = new Map<string, string>();
  const collect = async () => {
    // Visible links only: Redoc's attribution link is hidden (scripts/reference/reference.css).
    const links = await page.$$eval(".menu-content a[href]", (all) => all.filter((a) => a.checkVisibility()).map((a) => [a.textContent ?? "", a.getAttribute("href") ?? ""]));
    for (const entry of links) {
      entries.set(`${entry[0]} ${entry[1]}`, JSON.stringify(entry));
    }
  };
  await collect();
  const groups = await page.$$eval('.menu-content a:has([data-component-name^="icons/Chevron"])', (links) => links.map((a) => a.getAttribute("href") ?? ""));
  for (const href of groups) {
    await page.click(`.menu-content a[href="${href}"]`);
    await page.waitForTimeout(100);
    await collect();
  }
  return [...entries.values()].map((json) => {
    const [text, href] = JSON.parse(json) as [string, string];
    return { text, href };
  });
}

/** Searches as a reader does: opens search, types, presses Enter at once. */
async function search(page: Page, query: string): Promise<void> {
  await page.click('[data-testid="search-trigger"]');
  await page.keyboard.type(query);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector('[data-testid="search-dialog"]') === null, undefined, { timeout: 5_000 });
}

/** Whether a heading with exactly this text is on screen. */
async function headingInView(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    return Array.from(document.querySelectorAll("h1, h2, h3")).some((heading) => {
      if (!(heading.textContent ?? "").includes(wanted)) return false;
      const box = heading.getBoundingClientRect();
      return box.height > 0 && box.top >= -2 && box.top < window.innerHeight;
    });
  }, text);
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: path.join(repoRoot, "node_modules", "axe-core", "axe.min.js") });
  const result = await page.evaluate(async () => (window as any).axe.run(document, { resultTypes: ["violations"] }));
  return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join("; ")}`);
}

describe.skipIf(executable === undefined)("the reference in a browser, offline", () => {
  for (const where of ["npm start's /docs", "the file"] as const) {
    describe(where, () => {
      const base = () => (where === "the file" ? fileUrl : docsUrl);

      it("renders every operation and event kind in the navigation, with no console error and no outside request", async () => {
        const reader = await open(base());
        const entries = await navigation(reader.page);
        const texts = entries.map((entry) => entry.text);
        for (const summary of operationSummaries) expect(texts.some((text) => text.includes(summary)), summary).toBe(true);
        for (const kind of eventKinds) expect(texts.some((text) => text.startsWith(kind) && !text.startsWith(`${kind}_`)), kind).toBe(true);
        // Every link of the navigation is a fragment, so it works opened in a new tab, copied, or over file://.
        expect(entries.filter((entry) => !entry.href.startsWith("#")).map((entry) => entry.href)).toEqual([]);
        expect(reader.outside).toEqual([]);
        expect(reader.errors).toEqual([]);
        await reader.page.close();
      });

      it("search finds an operation by name and an event by its kind, with Enter right after typing", async () => {
        const reader = await open(base());
        await search(reader.page, "Get the latest insurance record");
        expect(decodeURIComponent(new URL(reader.page.url()).hash)).toMatch(/getlatestinsurance/);
        await reader.page.goto(base());
        await waitForReference(reader.page);
        await search(reader.page, "daily.data.sleep.created");
        expect(decodeURIComponent(new URL(reader.page.url()).hash)).toContain("daily.data.sleep.created");
        await expect.poll(() => headingInView(reader.page, "daily.data.sleep.created")).toBe(true);
        expect(reader.errors).toEqual([]);
        await reader.page.close();
      });

      it("a deep link, reloaded, and a menu link opened in a new tab land in the same place", async () => {
        const reader = await open(`${base()}#/users/getlatestinsurance`);
        await expect.poll(() => headingInView(reader.page, "Get the latest insurance record")).toBe(true);
        await reader.page.reload();
        await waitForReference(reader.page);
        await expect.poll(() => headingInView(reader.page, "Get the latest insurance record")).toBe(true);
        // The menu as first loaded (at the top, prerendered and hydrated), which is what a reader opens in a new tab.
        const first = await open(base());
        const href = await first.page.getAttribute('.menu-content a:has-text("Orders")', "href");
        await first.page.close();
        const tab = await open(new URL(href!, base()).href);
        expect(new URL(tab.page.url()).hash).toBe("#/orders");
        await expect.poll(() => headingInView(tab.page, "Orders")).toBe(true);
        expect([...reader.outside, ...tab.outside, ...reader.errors, ...tab.errors]).toEqual([]);
        await Promise.all([reader.page.close(), tab.page.close()]);
      });
    });
  }

  it("shows the health-data note where Redoc shows a field's description: beside a $ref (insured), and for anyOf its alternative's (race)", async () => {
    const note = DATA_NOTES.phi.replace(/\*\*|`/g, "");
    for (const [hash, response, field] of [["#/users/createinsurance", undefined, "insured"], ["#/users/getlatestuserinfo", "200", "race"]] as const) {
      const reader = await open(`${fileUrl}${hash}`);
      // The field as a reader reads it, from its name on, once the response that holds it is opened.
      const row = () =>
        reader.page.evaluate(([name, status]) => {
          for (const button of document.querySelectorAll("button")) {
            if (status !== undefined && button.innerText.trim().startsWith(status) && button.getAttribute("aria-expanded") !== "true") button.click();
          }
          const text = document.body.innerText;
          const start = text.indexOf(`\n${name}\n`);
          return start < 0 ? "" : text.slice(start, start + 1500);
        }, [field, response] as const);
      await expect.poll(row, { message: `${hash} ${field}` }).toContain(note);
      await reader.page.close();
    }
  });

  it("axe-core finds no critical or serious violation on the introduction, an operation and an event", async () => {
    const found: string[] = [];
    for (const hash of ["", "#/link/createlinktoken", "#/summary-events/paths/daily.data.sleep.created/post"]) {
      const reader = await open(`${docsUrl}${hash}`);
      await reader.page.waitForTimeout(300);
      found.push(...(await axeViolations(reader.page)).map((line) => `${hash || "introduction"}: ${line}`));
      await reader.page.close();
    }
    expect(found).toEqual([]);
  });

  it("at 390 px the menu bar covers no text and the title wraps between words; screenshots at 390 and 1440 px", async () => {
    for (const hash of ["", "#/users/createinsurance"]) {
      const reader = await open(`${docsUrl}${hash}`, 390);
      const page = reader.page;
      await page.waitForTimeout(300);
      const covered = await page.evaluate(() => {
        const button = document.querySelector('button[aria-label$="navigation menu"]') as HTMLElement | null;
        if (button === null) return ["no menu button"];
        const box = button.getBoundingClientRect();
        const problems: string[] = [];
        // A bar the width of the screen is its edge: text passes under it only while scrolling, as off the screen.
        if (box.left > 1 || box.right < window.innerWidth - 1) problems.push(`the menu button is an island over the page (${box.left}-${box.right})`);
        // Scrolled to the end, nothing is left under the bar.
        window.scrollTo(0, document.documentElement.scrollHeight);
        const end = button.getBoundingClientRect();
        button.style.visibility = "hidden";
        for (let x = end.left + 4; x < end.right; x += 12) {
          for (let y = end.top + 4; y < end.bottom; y += 12) {
            const under = document.elementFromPoint(x, y);
            const walker = under ? document.createTreeWalker(under, NodeFilter.SHOW_TEXT) : undefined;
            for (let node = walker?.nextNode(); node; node = walker!.nextNode()) {
              if (!node.textContent?.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(node);
              if (Array.from(range.getClientRects()).some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)) problems.push(`text under the bar: ${node.textContent.trim().slice(0, 40)}`);
            }
          }
        }
        button.style.visibility = "";
        window.scrollTo(0, 0);
        return [...new Set(problems)];
      });
      expect(covered).toEqual([]);
      if (hash === "") {
        // Each word of the title on one line: a word broken across lines has two boxes.
        const broken = await page.evaluate(() => {
          const title = document.querySelector("h1");
          const text = title?.firstChild;
          if (!title || !text || text.nodeType !== Node.TEXT_NODE) return ["no title text"];
          const words: string[] = [];
          const content = text.textContent ?? "";
          for (const match of content.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(text, match.index!);
            range.setEnd(text, match.index! + match[0].length);
            if (new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size > 1) words.push(match[0]);
          }
          return words;
        });
        expect(broken).toEqual([]);
        await page.screenshot({ path: path.join(outputDir, "introduction-390.png") });
      }
      expect(reader.errors).toEqual([]);
      await page.close();
    }
    const wide = await open(`${docsUrl}#/link/createlinktoken`, 1440);
    await wide.page.screenshot({ path: path.join(outputDir, "operation-1440.png") });
    await wide.page.close();
  });
});
