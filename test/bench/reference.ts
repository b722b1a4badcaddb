// The reference's bytes on the wire (brotli, as /docs serves it) and its time to a rendered navigation in headless
// Chromium, beside a one-operation reference rendered and finished the same way in the same run.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";
import { referenceStale } from "../../scripts/build/build.ts";
import { buildReference, renderReference } from "../../scripts/build/build-docs.ts";
import { readBundle, referenceHtmlPath } from "../../scripts/build/lib/paths.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { findBrowser, launchBrowser, openReaderPage, waitForReference } from "../support/browser.ts";
import type { Figure } from "./client.ts";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The contract cut down to one operation (GET /v3/lab_tests/labs), no events. */
function oneOperation(contract: JsonObject): JsonObject {
  const document = structuredClone(contract);
  const paths = document.paths as JsonObject;
  document.paths = { "/v3/lab_tests/labs": paths["/v3/lab_tests/labs"] };
  delete document.webhooks;
  document.tags = (document.tags as JsonObject[]).filter((tag) => tag.name === "Lab tests");
  return document;
}

export async function referenceFigures(log: (line: string) => void): Promise<Figure[]> {
  const executable = findBrowser();
  if (await referenceStale()) await buildReference();
  const scratch = await mkdtemp(path.join(os.tmpdir(), "svc-bench-reference-"));
  try {
    const minimal = path.join(scratch, "one-operation.html");
    await renderReference(oneOperation(await readBundle()), minimal);
    const wire = async (file: string) => brotliCompressSync(await readFile(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
    const figures: Figure[] = [];
    const [full, small] = [await wire(referenceHtmlPath), await wire(minimal)];
    figures.push({
      name: "reference on the wire (brotli)",
      value: full,
      unit: "bytes",
      baseline: { name: "one-operation reference", value: small },
      ratio: full / small,
    });
    if (executable === undefined) {
      log("reference: no Chromium found; time to navigation not measured");
      return figures;
    }
    const browser = await launchBrowser(executable);
    const time = async (file: string) => {
      const reader = await openReaderPage(browser, 1440);
      const started = performance.now();
      await reader.page.goto(pathToFileURL(file).href);
      await waitForReference(reader.page);
      const ms = performance.now() - started;
      await reader.page.close();
      return ms;
    };
    const fullTimes: number[] = [];
    const smallTimes: number[] = [];
    for (let round = 0; round < 3; round++) {
      fullTimes.push(await time(referenceHtmlPath));
      smallTimes.push(await time(minimal));
      log(`reference round ${round + 1}: ${fullTimes.at(-1)!.toFixed(0)} ms, one operation ${smallTimes.at(-1)!.toFixed(0)} ms`);
    }
    await browser.close();
    const value = median(fullTimes);
    const baseline = median(smallTimes);
    figures.push({
      name: "reference, load to rendered navigation (median of 3)",
      value,
      unit: "ms",
      baseline: { name: "one-operation reference", value: baseline },
      ratio: value / baseline,
    });
    return figures;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
