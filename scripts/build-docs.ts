// Makes generated/reference.html, the HTML reference, from generated/openapi.yaml with Redocly.
import path from "node:path";
import { isMain } from "./lib/cli.ts";
import { bundleYamlPath, referenceHtmlPath } from "./lib/paths.ts";
import { runTool } from "./lib/tools.ts";

export async function buildReference(): Promise<void> {
  // --inlineBundle: the page carries Redoc itself instead of loading it from a CDN, so it renders offline.
  await runTool("redocly", ["build-docs", bundleYamlPath, "--output", referenceHtmlPath, "--inlineBundle"]);
}

if (isMain(import.meta.url)) {
  await buildReference();
  console.log(`docs: wrote ${path.relative(process.cwd(), referenceHtmlPath)}`);
}
