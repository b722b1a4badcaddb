// Hashes everything generated/ is made from (the contract, the client's source, the scripts, the changelog, the lock
// file), so `npm start` and `npm run build` can tell in milliseconds that there is nothing to rebuild.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "./paths.ts";

/**
 * The folders and files whose contents decide generated/ (src/mock/ too: it is built into the packaged command; the
 * workflows' traces are in the traceability table); test/, the review and verify do not.
 */
const INPUTS = ["openapi", "src", "scripts", "CHANGELOG.md", "package-lock.json", "redocly.yaml"];
const SKIPPED = [
  path.join("scripts", "review"),
  path.join("scripts", "review.ts"),
  path.join("scripts", "verify"),
  path.join("scripts", "verify.ts"),
  path.join("scripts", "lint-workflows.ts"),
];

async function filesUnder(relative: string): Promise<string[]> {
  if (SKIPPED.includes(relative)) return [];
  const entries = await readdir(path.join(repoRoot, relative), { withFileTypes: true }).catch(() => undefined);
  if (entries === undefined) return [relative];
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
