// Copies the working tree as a fresh clone has it (tracked and unignored files, no reference built), with node_modules
// linked, so a test may run npm start or a build there without touching this tree's generated/; or copies some folders.
import { execFileSync } from "node:child_process";
import { cp, mkdir, mkdtemp, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

export async function freshCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-start-"));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await cp(path.join(repoRoot, file), path.join(dir, file)).catch(() => undefined);
  }
  await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}


/** A temporary folder holding copies of some of the tree's folders (the sources alone, say), for a script run on them. */
export async function copyOf(folders: string[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-copy-"));
  for (const folder of folders) await cp(path.join(repoRoot, folder), path.join(dir, folder), { recursive: true });
  return dir;
}
