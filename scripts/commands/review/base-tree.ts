// Unpacks the contract of a base git revision into a temporary folder, leaving the working tree and the index untouched.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { git } from "../../build/lib/git.ts";
import { untarFrom } from "../../build/lib/tools.ts";

async function commitOf(root: string, revision: string): Promise<string | undefined> {
  try {
    return await git(root, ["rev-parse", "--verify", "--quiet", `${revision}^{commit}`]);
  } catch {
    return undefined;
  }
}

/** The revision to compare with: the one asked for, else the merge base with origin/main, else the previous commit. */
export async function resolveBase(root: string, requested?: string): Promise<{ revision: string; commit: string }> {
  try {
    await git(root, ["rev-parse", "--git-dir"]);
  } catch {
    throw new Error(`${root} is not a git repository: the review reads the base revision from git`);
  }
  if (requested) {
    const commit = await commitOf(root, requested);
    if (!commit) throw new Error(`--base ${requested} is not a commit of this repository`);
    return { revision: requested, commit };
  }
  if (await commitOf(root, "origin/main")) {
    try {
      const commit = await git(root, ["merge-base", "HEAD", "origin/main"]);
      return { revision: "merge base with origin/main", commit };
    } catch {
      // No common history: fall through to the previous commit.
    }
  }
  const previous = await commitOf(root, "HEAD~1");
  if (!previous) throw new Error("no base revision: give --base <revision> (there is no origin/main and no previous commit)");
  return { revision: "HEAD~1", commit: previous };
}

export interface BaseTree {
  dir: string;
  remove(): Promise<void>;
}

/** `git archive` of the revision's openapi/ and CHANGELOG.md, extracted into a temporary folder. */
export async function unpackRevision(root: string, commit: string): Promise<BaseTree> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-review-base-"));
  const remove = () => rm(dir, { recursive: true, force: true });
  const listed = await git(root, ["ls-tree", "--name-only", commit]);
  const wanted = ["openapi", "CHANGELOG.md", "package.json"].filter((name) => listed.split("\n").includes(name));
  if (!wanted.includes("openapi")) {
    await remove();
    throw new Error(`the base revision ${commit.slice(0, 12)} has no openapi/ folder`);
  }
  try {
    await untarFrom(spawn("git", ["archive", "--format=tar", commit, ...wanted], { cwd: root }), dir, `could not unpack ${commit}`);
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}
