// Makes generated/workflows/ from openapi/workflows/: the Arazzo files and the mock's control description that the
// package ships for `svc-health-verify`, each source description that names the repository's bundle
// (../../generated/openapi.yaml) pointed at the bundle beside the shipped copy (../openapi.yaml).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "./lib/paths.ts";

const SOURCE_DIR = path.join(repoRoot, "openapi", "workflows");
/** What a workflow's `url:` says in the repository, and what it says in the package. */
const REPOSITORY_BUNDLE = "../../generated/openapi.yaml";
const SHIPPED_BUNDLE = "../openapi.yaml";

const shipped = (file: string) => file.endsWith(".arazzo.yaml") || file === "mock-control.openapi.yaml";

/** A `url:` line, with its value (quotes aside). */
const URL_LINE = /^([ \t]*(?:-[ \t]+)?url:[ \t]*)(['"]?)([^'"\s]+)\2[ \t]*$/gm;

/** One file as shipped: a header, and every `url:` naming the repository's bundle pointed at the shipped one. */
export function shipWorkflow(file: string, text: string): string {
  const rewritten = text.replace(URL_LINE, (line, key: string, _quote: string, url: string) => {
    if (url === REPOSITORY_BUNDLE) return `${key}${SHIPPED_BUNDLE}`;
    // Any other way out of the folder would name a file the installed package does not have.
    if (url.startsWith("../"))
      throw new Error(`openapi/workflows/${file}: url ${url} leaves the folder, and only ${REPOSITORY_BUNDLE} has a shipped counterpart`);
    return line;
  });
  return `# Copied by scripts/build/ship-workflows.ts from openapi/workflows/${file}. Do not edit: change that file and run \`npm run build\`.\n${rewritten}`;
}

/** The shipped workflow files, by their paths under generated/. */
export async function renderWorkflows(): Promise<Record<string, string>> {
  const files = (await readdir(SOURCE_DIR)).filter(shipped).sort();
  const texts = await Promise.all(files.map((file) => readFile(path.join(SOURCE_DIR, file), "utf8")));
  return Object.fromEntries(files.map((file, i) => [`workflows/${file}`, shipWorkflow(file, texts[i]!)]));
}
