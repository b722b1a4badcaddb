// Copies the working tree as a fresh clone has it (tracked and unignored files, no reference built), with node_modules
// linked, so a test may run npm start or a build there without touching this tree's generated/; or copies some folders.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { untarFrom } from "../../scripts/build/lib/tools.ts";

/**
 * Real copies, not hard links: the tests edit files and the build rewrites generated/ in place, which through a link
 * would change this tree. One tar process reads the list and one writes the copy (dated now, as a clone is): a `cp`
 * per file took over a second.
 */
export async function freshCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-start-"));
  // Files deleted in the working tree but not yet in the index are listed; a clone would not have them either.
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(repoRoot, file)));
  const pack = spawn("tar", ["-c", "--null", "-T", "-", "-f", "-"], { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
  const copied = untarFrom(pack, dir, "copying the tree failed", ["-m"]);
  pack.stdin.end(files.join("\0"));
  await copied;
  await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

/**
 * A temporary folder holding copies of some of the tree's folders (the sources alone, say), for a script run on them,
 * removed when the test that asked for it ends (its callers had each to remember, and some did not: hundreds of copies
 * of openapi/ piled up in the temporary folder).
 */
export async function copyOf(folders: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-copy-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  for (const folder of folders) await cp(path.join(repoRoot, folder), path.join(dir, folder), { recursive: true });
  return dir;
}
