// Where verify finds what it reads, from the repository's source (src/verify/) or from the package's built command
// (generated/verify/cli.js): the bundled contract and redocly's command for respect (the workflows are found by src/shared/workflow-files.ts).
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The first of these folders, relative to this file, that holds the file: built (generated/verify/) or source (src/verify/). */
function firstExisting(candidates: string[]): string {
  const found = candidates.map((candidate) => path.resolve(here, candidate)).find((candidate) => existsSync(candidate));
  return found ?? path.resolve(here, candidates.at(-1)!);
}

/** The bundled contract: generated/openapi.json beside the built command's folder, or the repository's. */
export const BUNDLE_PATH = firstExisting(["../openapi.json", "../../generated/openapi.json"]);

export async function readBundle(): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(BUNDLE_PATH, "utf8")) as Record<string, unknown>;
}

/** The package that runs the workflows (`redocly respect`): an optional peer dependency of the package. */
export const RESPECT_PACKAGE = "@redocly/cli";

/**
 * The @redocly/cli release verify is tested with: its peer dependency, pinned in the package's own package.json (two
 * folders up from src/verify/ and from generated/verify/ alike), so the install line verify prints cannot drift from it.
 */
export function respectRelease(): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.resolve(here, "../../package.json"), "utf8")) as { peerDependencies?: Record<string, string> };
    return manifest.peerDependencies?.[RESPECT_PACKAGE];
  } catch {
    return undefined;
  }
}

/** redocly's command as a script for node, or undefined when @redocly/cli is not installed beside the package. */
export function redoclyCommand(): string | undefined {
  // Looked up once: every workflow asks whether it can run, and every respect run for the command.
  if (found === false) found = findRedocly();
  return found;
}

let found: string | undefined | false = false;

function findRedocly(): string | undefined {
  try {
    const require = createRequire(path.join(here, "noop.js"));
    const manifest = require.resolve(`${RESPECT_PACKAGE}/package.json`);
    const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin?: string | Record<string, string> };
    const script = typeof bin === "string" ? bin : (bin?.redocly ?? bin?.openapi);
    return script === undefined ? undefined : path.resolve(path.dirname(manifest), script);
  } catch {
    return undefined;
  }
}
