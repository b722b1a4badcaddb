// Runs git in a repository and returns what it printed, trimmed: the review's and the release's one way to ask git.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** `git <args>` in `root`; rejects with git's message when it exits non-zero. */
export async function git(root: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}
