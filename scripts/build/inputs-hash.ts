// Hashes everything generated/ is made from (the contract, the build, the shipped code, the changelog, the lock
// file), so `npm start` and `npm run build` can tell in milliseconds that there is nothing to rebuild.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "./lib/paths.ts";

/**
 * What generated/ is made from: the contract, the build's own folder, the shipped code it compiles (src/), and the
 * files the bundle or the tools read. Nothing else of the repository (its commands, the tests) can change an artifact.
 */
const INPUTS = ["openapi", path.join("scripts", "build"), "src", "CHANGELOG.md", "package-lock.json", "redocly.yaml"];

/** A folder's README describes its files to a reader; no artifact is made from it. */
const isDocumentation = (relative: string) => path.basename(relative) === "README.md";

async function filesUnder(relative: string): Promise<string[]> {
  const entries = await readdir(path.join(repoRoot, relative), { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return isDocumentation(relative) ? [] : [relative];
  const nested = await Promise.all(entries.map((entry) => filesUnder(path.join(relative, entry.name))));
  return nested.flat();
}

export async function inputsHash(): Promise<string> {
  const files = (await Promise.all(INPUTS.map(filesUnder))).flat().sort();
  const contents = await Promise.all(files.map((file) => readFile(path.join(repoRoot, file))));
  const hash = createHash("sha256");
  files.forEach((file, i) => {
    hash.update(`${file.split(path.sep).join("/")}\0`);
    hash.update(contents[i]!);
    hash.update("\0");
  });
  return `${hash.digest("hex")}\n`;
}
