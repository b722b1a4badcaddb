// Makes every file in generated/ (bundle, types, client, reference) from openapi/, writing only what changed; does
// nothing, in milliseconds, when the hash of its inputs is the one generated/inputs.sha256 recorded.
import { readFile, stat, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { isMain } from "./lib/cli.ts";
import { bundleJsonPath, generatedDir, referenceHtmlPath } from "./lib/paths.ts";
import { inputsHash } from "./lib/inputs-hash.ts";

const INPUTS_HASH = "inputs.sha256";

/** Every committed artifact, by its name under generated/, as the current sources make it. */
export async function renderArtifacts(): Promise<Record<string, string>> {
  // Loaded here, not at the top: a build with nothing to do must not pay for TypeScript, Redocly and esbuild.
  const [{ bundleContract, renderBundle }, { renderTypes }, { renderClient }] = await Promise.all([
    import("./bundle.ts"),
    import("./generate-types.ts"),
    import("./generate-client.ts"),
  ]);
  const document = await bundleContract();
  const { yaml, json } = renderBundle(document);
  const types = await renderTypes(structuredClone(document));
  return {
    "openapi.yaml": yaml,
    "openapi.json": json,
    "schema.d.ts": types,
    "schema.d.cts": types,
    ...(await renderClient(document)),
    [INPUTS_HASH]: await inputsHash(),
  };
}

/** Whether generated/ was made from exactly the current inputs (the reference aside, which is not committed). */
export async function upToDate(): Promise<boolean> {
  const [recorded, current] = await Promise.all([readFile(path.join(generatedDir, INPUTS_HASH), "utf8").catch(() => ""), inputsHash()]);
  return recorded === current;
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

/** Whether the reference is missing or older than the bundle it shows. */
export function referenceStale(): Promise<boolean> {
  return isOlder(referenceHtmlPath, bundleJsonPath);
}

/**
 * Brings the committed artifacts of generated/ up to date and returns what it rewrote: nothing, without rendering,
 * when the inputs' hash is the recorded one. The reference is built too unless `reference: false` (npm start builds
 * it after the mock listens).
 */
export async function build(options: { log?: (line: string) => void; reference?: boolean } = {}): Promise<string[]> {
  const log = options.log ?? console.log;
  const stale: string[] = [];
  if (await upToDate()) {
    log("build: generated/ is up to date (its inputs are unchanged)");
  } else {
    const rendered = await renderArtifacts();
    stale.push(...(await staleArtifacts(rendered)));
    await mkdir(generatedDir, { recursive: true });
    for (const name of stale) {
      await mkdir(path.dirname(path.join(generatedDir, name)), { recursive: true });
      await writeFile(path.join(generatedDir, name), rendered[name]!);
    }
    log(stale.length ? `build: wrote ${stale.map((n) => `generated/${n}`).join(", ")}` : "build: generated/ is up to date");
  }
  if (options.reference !== false && (await referenceStale())) {
    const { buildReference } = await import("./build-docs.ts");
    await buildReference();
    log("build: wrote generated/reference.html");
    stale.push("reference.html");
  }
  return stale;
}

if (isMain(import.meta.url)) {
  // --no-reference: leave the reference to the caller; --lint: then lint, and fail in one line if the contract does
  // not (what npm start runs, in a process of its own, when the inputs changed).
  const args = new Set(process.argv.slice(2));
  await build({ reference: !args.has("--no-reference") });
  if (args.has("--lint")) {
    const { lintProblems } = await import("./lint.ts");
    const problems = await lintProblems();
    if (problems.length > 0) {
      console.error(`the contract does not lint (${problems.length} problem${problems.length === 1 ? "" : "s"}; first: ${problems[0]}). Run npm run lint for all.`);
      process.exit(1);
    }
  }
}
