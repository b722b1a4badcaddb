// Makes generated/reference.html, the HTML reference, from generated/openapi.json: the reader's document
// (scripts/reference/document.ts) rendered by Redocly, then made to work offline and as fragment links (reference/html.ts).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isMain } from "./lib/cli.ts";
import { readBundle, referenceHtmlPath } from "./lib/paths.ts";
import { runTool } from "./lib/tools.ts";
import { referenceDocument } from "./reference/document.ts";
import { finishReferenceHtml } from "./reference/html.ts";
import type { JsonObject } from "../../src/contract/json.ts";

/** Renders a reader's document (already made) to a finished HTML page at `output`. */
export async function renderReference(document: JsonObject, output: string): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "svc-reference-"));
  try {
    const source = path.join(scratch, "reference.json");
    const page = path.join(scratch, "reference.html");
    await writeFile(source, JSON.stringify(document));
    // --inlineBundle: the page carries Redoc itself instead of loading it from a CDN, so it renders offline.
    await runTool("redocly", ["build-docs", source, "--output", page, "--inlineBundle", "--lint-config", "off"]);
    await writeFile(output, finishReferenceHtml(await readFile(page, "utf8")));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function buildReference(): Promise<void> {
  await renderReference(referenceDocument(await readBundle()), referenceHtmlPath);
}

if (isMain(import.meta.url)) {
  await buildReference();
  console.log(`docs: wrote ${path.relative(process.cwd(), referenceHtmlPath)}`);
}
