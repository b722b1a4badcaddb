// Makes every file in generated/ (bundle, types, client, reference) from openapi/, writing only what changed.
import { readFile, stat, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { bundleContract, renderBundle } from "./bundle.ts";
import { renderClient } from "./generate-client.ts";
import { renderTypes } from "./generate-types.ts";
import { isMain } from "./lib/cli.ts";
import { bundleJsonPath, generatedDir, referenceHtmlPath } from "./lib/paths.ts";
import { buildReference } from "./build-docs.ts";

/** Every committed artifact, by its name under generated/, as the current sources make it. */
export async function renderArtifacts(): Promise<Record<string, string>> {
  const document = await bundleContract();
  const { yaml, json } = renderBundle(document);
  const types = await renderTypes(structuredClone(document));
  return {
    "openapi.yaml": yaml,
    "openapi.json": json,
    "schema.d.ts": types,
    "schema.d.cts": types,
    ...(await renderClient(document)),
  };
}

/** The names of committed artifacts whose file differs from what the sources make now. */
export async function staleArtifacts(rendered: Record<string, string>): Promise<string[]> {
  const stale: string[] = [];
  for (const [name, text] of Object.entries(rendered)) {
    const current = await readFile(path.join(generatedDir, name), "utf8").catch(() => undefined);
    if (current !== text) stale.push(name);
  }
  return stale;
}

async function isOlder(file: string, than: string): Promise<boolean> {
  const [a, b] = await Promise.all([stat(file).catch(() => undefined), stat(than)]);
  return a === undefined || a.mtimeMs < b.mtimeMs;
}

/** Brings generated/ up to date; returns what it rewrote. */
export async function build(options: { log?: (line: string) => void } = {}): Promise<string[]> {
  const log = options.log ?? console.log;
  const rendered = await renderArtifacts();
  const stale = await staleArtifacts(rendered);
  await mkdir(generatedDir, { recursive: true });
  for (const name of stale) {
    await mkdir(path.dirname(path.join(generatedDir, name)), { recursive: true });
    await writeFile(path.join(generatedDir, name), rendered[name]!);
  }
  log(stale.length ? `build: wrote ${stale.map((n) => `generated/${n}`).join(", ")}` : "build: generated/ is up to date");
  if (stale.length || (await isOlder(referenceHtmlPath, bundleJsonPath))) {
    await buildReference();
    log("build: wrote generated/reference.html");
    stale.push("reference.html");
  }
  return stale;
}

if (isMain(import.meta.url)) await build();
