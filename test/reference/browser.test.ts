// The reference as a reader opens it: Debian's Chromium (or any found, never downloaded), every outside request blocked,
// over the mock's /docs (the server `npm start` runs; start.test.ts launches `npm start` itself) and as a file (the same
// bytes): it renders every operation and event kind in the navigation, search finds them, links land where they point
// after a reload or in a new tab, a field marked as health data shows its note, axe-core finds no critical or serious
// violation, and at 390 px the menu bar covers no text. Screenshots go to test-output/reference/ (ignored by git).
// Loading the reference is what costs (3 MB, hydrated by Redoc): one browser serves every check, and a page loaded once
// is moved by its fragment, as a reader's clicks move it, and narrowed to 390 px as a reader narrows the window, wherever
// a check is not about loading. The four pages (each place and its new tab) load and are checked at once, the checks of
// one page in order.
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, inject, it, type ExpectStatic } from "vitest";
import { listOperations } from "../../src/contract/operations.ts";
import { readBundle, referenceHtmlPath, repoRoot } from "../../scripts/build/lib/paths.ts";
import { referenceStale } from "../../scripts/build/build.ts";
import { DATA_NOTES } from "../../scripts/build/reference/data-notes.ts";
import { referenceDocument } from "../../scripts/build/reference/document.ts";
import { OPERATIONS_AT_LEAST, WEBHOOKS_AT_LEAST } from "../support/contract.ts";
import { BROWSER_INSTALL, findBrowser, launchBrowser, openReaderPage, waitForReference, waitForStill, type ReaderPage } from "../support/browser.ts";

const executable = findBrowser();
if (executable === undefined) console.warn(`test/reference/browser.test.ts skipped: no Chromium found; install one with: ${BROWSER_INSTALL}`);
const outputDir = path.join(repoRoot, "test-output", "reference");

let browser: Browser;
const docsUrl = `${inject("mockUrl")}/docs`;
const fileUrl = pathToFileURL(referenceHtmlPath).href;
let operationSummaries: string[];
let eventKinds: string[];
let errorCodes: string[];
const opened: ReaderPage[] = [];

beforeAll(async () => {
  if (executable === undefined) return;
  const launching = launchBrowser(executable);
  if (await referenceStale()) await (await import("../../scripts/build/build-docs.ts")).buildReference();
  const document = referenceDocument(await readBundle());
  operationSummaries = listOperations(document).map((op) => String(op.operation.summary));
  eventKinds = Object.keys(document.webhooks as object);
  const codes = (document.components as { schemas: Record<string, { anyOf?: { enum?: string[] }[] }> }).schemas.ErrorCode?.anyOf;
  errorCodes = (codes?.find((branch) => branch.enum !== undefined)?.enum ?? []).filter((code) => code.includes("_"));
  await mkdir(outputDir, { recursive: true });
  browser = await launching;
});

afterAll(async () => {
  await browser?.close();
});

/**
 * Runs a load (to a hydrated reference) when fewer than two are running: a load is a core's work for a second or two,
 * and five at once on two cores made each take so long that waitForReference's 20 s could run out on a busy machine.
 */
const loads: Promise<unknown>[] = [];
async function loading<T>(load: () => Promise<T>): Promise<T> {
  while (loads.length >= 2) await Promise.race(loads);
  const running = load();
  // Settles either way, so a failed load (reported by its test) leaves its place and is never an unhandled rejection.
  const settled: Promise<void> = running
    .then(
      () => {},
      () => {},
    )
    .then(() => {
      loads.splice(loads.indexOf(settled), 1);
    });
  loads.push(settled);
  return running;
}

async function open(url: string): Promise<ReaderPage> {
  return loading(async () => {
    const reader = await openReaderPage(browser, 1440);
    opened.push(reader);
    await reader.page.goto(url);
    await waitForReference(reader.page);
    return reader;
  });
}

/** Moves a loaded page to a fragment as a click on a link does: no new load. */
async function moveTo(page: Page, hash: string): Promise<void> {
  await page.evaluate((fragment) => {
    window.location.hash = fragment;
  }, hash);
}

/** Opens each group of the navigation in turn (opening one closes the others) and returns every entry's text and link. */
async function navigation(page: Page): Promise<{ text: string; href: string }[]> {
  const entries = new Map<string, string>();
  const collect = async () => {
    // Visible links only: Redoc's attribution link is hidden (scripts/reference/reference.css).
    const links = await page.$$eval(".menu-content a[href]", (all) =>
      all.filter((a) => a.checkVisibility()).map((a) => [a.textContent ?? "", a.getAttribute("href") ?? ""]),
    );
    for (const entry of links) {
      entries.set(`${entry[0]} ${entry[1]}`, JSON.stringify(entry));
    }
  };
  await collect();
  const groups = await page.$$eval('.menu-content a:has([data-component-name^="icons/Chevron"])', (links) => links.map((a) => a.getAttribute("href") ?? ""));
  for (const href of groups) {
    // The link's own click, as a keyboard user's Enter gives it: Playwright's mouse click first waits for the link to stop
    // moving, and the group opened before is still closing (half a second a group, most of the check's time).
    await page.$eval(`.menu-content a[href="${href}"]`, (link) => (link as HTMLElement).click());
    // An open group renders its entries in the element after its link.
    await page.waitForFunction(
      (group) => document.querySelector(`.menu-content a[href="${group}"]`)?.nextElementSibling?.querySelector("a[href]")?.checkVisibility() === true,
      href,
      { timeout: 15_000 },
    );
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
  // The page waits for the search's results however long they take; this bound only tells a hang from a busy machine.
  await page.waitForFunction(() => document.querySelector('[data-testid="search-dialog"]') === null, undefined, { timeout: 45_000 });
}

/** Waits (a loaded machine needs more than expect.poll's second) until a heading with this text is on screen. */
async function expectInView(expect: ExpectStatic, page: Page, text: string): Promise<void> {
  await expect.poll(() => headingInView(page, text), { message: `heading ${text} on screen`, timeout: 10_000 }).toBe(true);
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
  const result = await page.evaluate(async () => (window as any).axe.run(document, { resultTypes: ["violations"] }));
  return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join("; ")}`,
    );
}

/**
 * The code a reader cannot read whole where it stands: a block whose content is wider than its box (scrolled out of
 * view, or under the Copy button), and an address broken across lines (`https://api.svc.e` / `xample`).
 */
async function unreadableCode(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>("#redoc code, #redoc pre"))) {
      if (!element.checkVisibility()) continue;
      const text = (element.textContent ?? "").trim();
      if (element.scrollWidth > element.clientWidth + 1)
        found.push(`wider than its box (${element.scrollWidth} > ${element.clientWidth}): ${text.slice(0, 60)}`);
      if (/^https?:\/\/\S+$/.test(text) && element.getClientRects().length > 1) found.push(`an address broken across lines: ${text}`);
    }
    return found;
  });
}

/** The introduction's sentences (prose and table cells) that say a thing twice: the same sentence, or one error code in two. */
async function introductionRepeats(page: Page, errorCodes: string[]): Promise<string[]> {
  const text = await page.evaluate(() => document.querySelector('#api-content [data-section-id="/"]')?.parentElement?.innerText ?? "");
  const sentences = text
    .split(/\n|\t|(?<=[.!?])\s+(?=[A-Z`])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length >= 20);
  // Prose: a table repeats its cells (an operation in two tables, one row's value in the next) by design.
  const prose = sentences.filter((sentence) => sentence.length >= 40 && /[.!?]$/.test(sentence));
  const repeats = [...new Set(prose.filter((sentence, i) => prose.indexOf(sentence) !== i))];
  for (const code of errorCodes) {
    const saying = sentences.filter((sentence) => new RegExp(`(^|[^\\w])${code}([^\\w]|$)`).test(sentence));
    if (saying.length > 1) repeats.push(`${code} in ${saying.length} sentences: ${saying.map((sentence) => sentence.slice(0, 60)).join(" | ")}`);
  }
  return repeats;
}

// A check is 20 s of Chromium's work alone (a load, then axe over the whole page three times); beside the suite's other
// CPU-bound files on two cores it took over 60 s in CI. The bound only tells a hang from a busy machine.
describe.skipIf(executable === undefined)("the reference in a browser, offline", { timeout: 180_000 }, () => {
  /** Per place, the page loaded once at the top (1440 px), and the menu's Orders link as first loaded. */
  const loaded = new Map<string, Promise<{ reader: ReaderPage; ordersHref: string }>>();
  /** Per place, the menu's Orders link opened in a new tab, loading as soon as the place's page has given its link. */
  const tabs = new Map<string, Promise<ReaderPage>>();
  const first = (url: string) => {
    let entry = loaded.get(url);
    if (entry === undefined) {
      entry = (async () => {
        const reader = await open(url);
        // The menu as first loaded (at the top, prerendered and hydrated) is what a reader opens in a new tab.
        const ordersHref = (await reader.page.getAttribute('.menu-content a:has-text("Orders")', "href")) ?? "";
        return { reader, ordersHref };
      })();
      loaded.set(url, entry);
    }
    return entry;
  };
  const newTab = (url: string) => {
    let tab = tabs.get(url);
    if (tab === undefined) {
      tab = first(url).then(({ ordersHref }) => open(new URL(ordersHref, url).href));
      tabs.set(url, tab);
    }
    return tab;
  };

  afterAll(async () => {
    await Promise.all(opened.map((reader) => reader.page.close()));
  });

  // The places are checked at once (concurrent), each one's checks in order (sequential).
  for (const where of ["the mock's /docs", "the file"] as const) {
    describe.concurrent(where, () => {
      const base = () => (where === "the file" ? fileUrl : docsUrl);

      if (where === "the mock's /docs") {
        it.sequential("axe-core finds no critical or serious violation on the introduction, an operation and an event, no code is cut or broken (an address, a sample under its Copy button), the introduction says each thing once; a screenshot of the operation at 1440 px", async ({
          expect,
        }) => {
          const found: string[] = [];
          const unreadable: string[] = [];
          // First on the place's page: the introduction as first loaded, before the other checks open menus and search.
          const { reader } = await first(docsUrl);
          // The new tab loads meanwhile, in a renderer of its own.
          void newTab(docsUrl).catch(() => {});
          await reader.page.addScriptTag({ path: path.join(repoRoot, "node_modules", "axe-core", "axe.min.js") });
          for (const [hash, heading] of [
            ["", undefined],
            ["#/link/createlinktoken", "Create a link token"],
            ["#/summary-events/paths/daily.data.sleep.created/post", "daily.data.sleep.created"],
          ] as const) {
            if (hash !== "") await moveTo(reader.page, hash);
            if (heading !== undefined) await expectInView(expect, reader.page, heading);
            await waitForStill(reader.page);
            let violations = await axeViolations(reader.page);
            if (violations.length > 0) {
              // Redoc renders a long page in windows: under load axe has met a panel painted before its background
              // (a colour-contrast violation that is gone a moment later). What is still there once more is real.
              await reader.page.waitForTimeout(1_000);
              await waitForStill(reader.page);
              violations = await axeViolations(reader.page);
            }
            found.push(...violations.map((line) => `${hash || "introduction"}: ${line}`));
            unreadable.push(...(await unreadableCode(reader.page)).map((line) => `${hash || "introduction"}: ${line}`));
            if (hash === "") {
              expect(errorCodes.length).toBeGreaterThan(10);
              expect(await introductionRepeats(reader.page, errorCodes)).toEqual([]);
            }
            if (hash === "#/link/createlinktoken") await reader.page.screenshot({ path: path.join(outputDir, "operation-1440.png") });
          }
          expect(found).toEqual([]);
          expect(unreadable).toEqual([]);
        });
      }

      if (where === "the mock's /docs") {
        it.sequential("renders every operation and event kind in the navigation, with no console error and no outside request", async ({ expect }) => {
          const { reader } = await first(base());
          void newTab(base()).catch(() => {});
          const entries = await navigation(reader.page);
          const texts = entries.map((entry) => entry.text);
          expect(operationSummaries.length).toBeGreaterThanOrEqual(OPERATIONS_AT_LEAST);
          expect(eventKinds.length).toBeGreaterThanOrEqual(WEBHOOKS_AT_LEAST);
          for (const summary of operationSummaries)
            expect(
              texts.some((text) => text.includes(summary)),
              summary,
            ).toBe(true);
          for (const kind of eventKinds)
            expect(
              texts.some((text) => text.startsWith(kind) && !text.startsWith(`${kind}_`)),
              kind,
            ).toBe(true);
          // Every link of the navigation is a fragment, so it works opened in a new tab, copied, or over file://.
          expect(entries.filter((entry) => !entry.href.startsWith("#")).map((entry) => entry.href)).toEqual([]);
          expect(reader.outside).toEqual([]);
          expect(reader.errors).toEqual([]);
        });
      }

      if (where === "the file") {
        // First on the place's page, as first loaded, narrowed as a reader narrows a window: the same CSS a 390 px load
        // gets, without a load of its own (a load is most of a check's Chromium time). Widened again after.
        it.sequential("at 390 px the menu bar covers no text, the title wraps between words and no code is cut or broken; a screenshot at 390 px", async ({
          expect,
        }) => {
          const { reader } = await first(fileUrl);
          void newTab(fileUrl).catch(() => {});
          const page = reader.page;
          await page.setViewportSize({ width: 390, height: 900 });
          for (const [hash, heading] of [
            ["", undefined],
            ["#/users/createinsurance", "Create an insurance record"],
          ] as const) {
            if (hash !== "") await moveTo(page, hash);
            if (heading !== undefined) await expectInView(expect, page, heading);
            await waitForStill(page);
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
                    if (Array.from(range.getClientRects()).some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom))
                      problems.push(`text under the bar: ${node.textContent.trim().slice(0, 40)}`);
                  }
                }
              }
              button.style.visibility = "";
              window.scrollTo(0, 0);
              return [...new Set(problems)];
            });
            expect(covered).toEqual([]);
            expect(await unreadableCode(page)).toEqual([]);
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
          }
          await page.setViewportSize({ width: 1440, height: 900 });
          // Back to the introduction, by the link the menu's title holds.
          await moveTo(page, "#/");
          await expectInView(expect, page, "Health Data, Lab Testing and Connection API");
        });
      }

      if (where === "the file") {
        // Opening every group of the menu is a second of Chromium's work a group: done once, on /docs, which serves these bytes.
        it.sequential("is the page /docs serves, byte for byte (its navigation is checked there), and loads with fragment links, no console error and no outside request", async ({
          expect,
        }) => {
          const { reader } = await first(fileUrl);
          void newTab(fileUrl).catch(() => {});
          const served = Buffer.from(await (await fetch(docsUrl)).arrayBuffer());
          expect(served.equals(await readFile(referenceHtmlPath))).toBe(true);
          // Visible links only, as the walk on /docs reads them: Redoc's attribution link is hidden (scripts/build/reference/reference.css).
          const hrefs = await reader.page.$$eval(".menu-content a[href]", (all) =>
            all.filter((a) => a.checkVisibility()).map((a) => a.getAttribute("href") ?? ""),
          );
          expect(hrefs.length).toBeGreaterThan(operationSummaries.length / 4);
          expect(hrefs.filter((href) => !href.startsWith("#"))).toEqual([]);
          expect(reader.outside).toEqual([]);
          expect(reader.errors).toEqual([]);
        });
      }

      it.sequential("a deep link, reloaded, and a menu link opened in a new tab land in the same place", async ({ expect }) => {
        const { reader } = await first(base());
        await moveTo(reader.page, "#/users/getlatestinsurance");
        await expectInView(expect, reader.page, "Get the latest insurance record");
        // The reload is a fresh load of the deep link.
        await loading(async () => {
          await reader.page.reload();
          expect(new URL(reader.page.url()).hash).toBe("#/users/getlatestinsurance");
          await waitForReference(reader.page);
        });
        await expectInView(expect, reader.page, "Get the latest insurance record");
        const tab = await newTab(base());
        expect(new URL(tab.page.url()).hash).toBe("#/orders");
        await expectInView(expect, tab.page, "Orders");
        expect([...reader.outside, ...tab.outside, ...reader.errors, ...tab.errors]).toEqual([]);
      });
      // Each search on a page that has not searched yet (the one just reloaded, the new tab): a search while the previous
      // query's results still show may open one of those (reader.js opens the first result after two seconds, and a busy
      // machine can take that long to search).
      it.sequential("search finds an operation by name and an event by its kind, with Enter right after typing", async ({ expect }) => {
        const hash = (page: Page) => () => decodeURIComponent(new URL(page.url()).hash);
        const { reader } = await first(base());
        await search(reader.page, "Get the latest insurance record");
        await expect.poll(hash(reader.page), { timeout: 10_000 }).toMatch(/getlatestinsurance/);
        const tab = await newTab(base());
        await search(tab.page, "daily.data.sleep.created");
        await expect.poll(hash(tab.page), { timeout: 10_000 }).toContain("daily.data.sleep.created");
        await expectInView(expect, tab.page, "daily.data.sleep.created");
        expect([...reader.errors, ...tab.errors]).toEqual([]);
      });

      if (where === "the file") {
        it.sequential("shows the health-data note where Redoc shows a field's description: beside a $ref (insured), and for anyOf its alternative's (race)", async ({
          expect,
        }) => {
          const note = DATA_NOTES.phi.replace(/\*\*|`/g, "");
          const { reader } = await first(fileUrl);
          for (const [hash, response, field] of [
            ["#/users/createinsurance", undefined, "insured"],
            ["#/users/getlatestuserinfo", "200", "race"],
          ] as const) {
            await moveTo(reader.page, hash);
            // The field as a reader reads it, from its name on, once the response that holds it is opened.
            const row = () =>
              reader.page.evaluate(
                ([name, status]) => {
                  for (const button of document.querySelectorAll("button")) {
                    if (status !== undefined && button.innerText.trim().startsWith(status) && button.getAttribute("aria-expanded") !== "true") button.click();
                  }
                  const text = document.body.innerText;
                  const start = text.indexOf(`\n${name}\n`);
                  return start < 0 ? "" : text.slice(start, start + 1500);
                },
                [field, response] as const,
              );
            await expect.poll(row, { message: `${hash} ${field}`, timeout: 10_000 }).toContain(note);
          }
        });
      }
    });
  }
});
