// Makes every file in generated/ (bundle, types, client, the mock and verify commands, the shipped workflows,
// traceability table, the package's surface, reference) from openapi/, writing only what changed; does nothing, in milliseconds, when the hash
// of its inputs is the one generated/inputs.sha256 recorded.
import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { isMain } from "./lib/cli.ts";
import { generatedDir } from "./lib/paths.ts";
import { INPUTS_HASH, inputsHash, referenceStale, upToDate } from "./up-to-date.js";

export { referenceStale, upToDate };

/**
 * Every committed artifact, by its name under generated/, as the current sources make it: the bundle first, then,
 * through `onBundle`, a chance to start work that needs only the bundle (the reference) while the rest renders.
 */
export async function renderArtifacts(onBundle?: (bundle: Record<string, string>) => Promise<void>): Promise<Record<string, string>> {
  // Loaded here, not at the top: a build with nothing to do must not pay for TypeScript, Redocly and esbuild. The
  // bundle starts first, and the other modules load while it waits on reading the sources.
  const { bundleContract, renderBundle } = await import("./bundle.ts");
  const bundling = bundleContract();
  const [{ renderTypes }, { renderClient }, { renderCommands }, { renderMockEntries }, { renderWorkflows }, { renderTraceability }, { renderSurface }] =
    await Promise.all([
      import("./generate-types.ts"),
      import("./generate-client.ts"),
      import("./build-commands.ts"),
      import("./build-mock-entries.ts"),
      import("./ship-workflows.ts"),
      import("./generate-traceability.ts"),
      import("./surface.ts"),
    ]);
  const document = await bundling;
  const { yaml, json } = renderBundle(document);
  const bundle = { "openapi.yaml": yaml, "openapi.json": json };
  const alongside = onBundle?.(bundle);
  const types = await renderTypes(structuredClone(document));
  const declared = {
    "schema.d.ts": types,
    "schema.d.cts": types,
    ...(await renderClient(document)),
    ...(await renderMockEntries(json)),
  };
  const rest = {
    ...declared,
    // What users' code meets, from the declarations just made: the review compares it with the base revision's.
    ...(await renderSurface(declared)),
    ...(await renderCommands()),
    ...(await renderWorkflows()),
    "traceability.md": await renderTraceability(),
    [INPUTS_HASH]: await inputsHash(),
  };
  await alongside;
  return { ...bundle, ...rest };
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

/**
 * Brings the committed artifacts of generated/ up to date and returns what it rewrote: nothing, without rendering,
 * when the inputs' hash is the recorded one. The reference is built too unless `reference: false` (npm start builds
 * it after the mock listens).
 */
export async function build(options: { log?: (line: string) => void; reference?: boolean } = {}): Promise<string[]> {
  const log = options.log ?? console.log;
  const written: string[] = [];
  const write = async (files: Record<string, string>) => {
    const stale = await staleArtifacts(files);
    for (const name of stale) {
      await mkdir(path.dirname(path.join(generatedDir, name)), { recursive: true });
      await writeFile(path.join(generatedDir, name), files[name]!);
    }
    written.push(...stale);
  };
  const reference = async () => {
    const { buildReference } = await import("./build-docs.ts");
    await buildReference();
    log("build: wrote generated/reference.html");
    written.push("reference.html");
  };
  if (await upToDate()) {
    log("build: generated/ is up to date (its inputs are unchanged)");
    if (options.reference !== false && (await referenceStale())) await reference();
    return written;
  }
  // The bundle is written as soon as it is made, so the reference (Redocly, the slowest step) is built from it while
  // the types and the client render: a full build takes the longer of the two, not their sum.
  const rendered = await renderArtifacts(async (bundle) => {
    await write(bundle);
    if (options.reference !== false && (await referenceStale())) await reference();
  });
  await write(rendered);
  const artifacts = written.filter((name) => name !== "reference.html");
  log(artifacts.length ? `build: wrote ${artifacts.map((n) => `generated/${n}`).join(", ")}` : "build: generated/ is up to date");
  return written;
}

if (isMain(import.meta.url)) {
  // --no-reference: leave the reference to the caller (npm start builds it after listening).
  await build({ reference: !process.argv.slice(2).includes("--no-reference") });
}
