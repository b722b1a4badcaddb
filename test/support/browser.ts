// Finds a Chromium to drive with playwright-core (never a download) and opens pages in it as a reader offline would:
// every request that is not loopback, a file or inline data is blocked and recorded, and console errors are kept.
import type { Browser, Page } from "playwright-core";
import { onPath } from "./processes.ts";

/** How to get a browser where none is found (what .ci/run does on Debian). */
export const BROWSER_INSTALL = "apt-get install -y chromium (or set SVC_CHROMIUM to a Chromium or Chrome binary)";

/** The browser binary: SVC_CHROMIUM, then chromium, then google-chrome on the PATH; undefined when there is none. */
export function findBrowser(): string | undefined {
  return process.env.SVC_CHROMIUM || onPath("chromium") || onPath("chromium-browser") || onPath("google-chrome");
}

export async function launchBrowser(executablePath: string): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  // --process-per-site: the pages of one place share a renderer, and with it V8's compiled copy of the reference's 2 MB
  // script, which each page compiled again in a process of its own (a third of a load's CPU).
  return chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--process-per-site"] });
}

export interface ReaderPage {
  page: Page;
  /** Requests that would have left the machine (blocked). */
  outside: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
}

function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "file:" || protocol === "data:" || protocol === "blob:" || hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}

export async function openReaderPage(browser: Browser, width: number, height = 900): Promise<ReaderPage> {
  const page = await browser.newPage({ viewport: { width, height } });
  const reader: ReaderPage = { page, outside: [], errors: [] };
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    reader.outside.push(url);
    return route.abort();
  });
  page.on("console", (message) => {
    if (message.type() === "error") reader.errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => reader.errors.push(`page: ${error.message}`));
  return reader;
}

/** Waits until nothing on the page moves (no running CSS animation or transition), instead of a fixed pause. */
export async function waitForStill(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"), undefined, { timeout: 15_000 });
}

/** Waits until Redoc has hydrated the page (React marks its root) and the navigation is there. */
export async function waitForReference(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.getElementById("redoc");
      return root !== null && Object.keys(root).some((key) => key.startsWith("__reactContainer")) && document.querySelector(".menu-content a") !== null;
    },
    undefined,
    // Seconds on a quiet machine; a hang guard here, so a page that is merely slow on a busy one still passes.
    { timeout: 45_000 },
  );
}
