// The release as CI would make it, in a clean clone of the working tree: the steps before `npm publish`.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { freshCopy } from "../support/fresh-copy.ts";
import { npmEnv } from "./registry.ts";

const execFileAsync = promisify(execFile);

/** Where the test's package says it lives: an address on this machine, so no page of the package points at a real one. */
export const TEST_HOMEPAGE = "http://127.0.0.1/svc-health-api-contract";

/**
 * The environment of the clone's commands: PATH alone from this process (no npm_config_* of the `npm run` above, no
 * git configuration of the machine's: hooks or signing would change what a clean clone does), HOME inside the clone's
 * `.git/`, where nothing a tool writes there becomes part of a commit.
 */
export function cloneEnv(dir: string): NodeJS.ProcessEnv {
  const home = path.join(dir, ".git", "release-home");
  return { ...npmEnv(home, path.join(home, "npmrc")), GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
}

const git = (dir: string, ...args: string[]) =>
  execFileAsync("git", ["-c", "user.name=release-test", "-c", "user.email=release-test@127.0.0.1", "-c", "commit.gpgsign=false", ...args], {
    cwd: dir,
    env: cloneEnv(dir),
  });

/** A temporary copy of the working tree as a clean clone has it (tracked and unignored files, node_modules linked),
 * committed as one commit: the release command reads and writes git. */
export async function cloneOfTree(): Promise<string> {
  const dir = await freshCopy();
  await git(dir, "init", "--quiet", "--initial-branch=main");
  // The release command commits and tags with the repository's own identity, as a maintainer's clone has one.
  await git(dir, "config", "user.name", "release-test");
  await git(dir, "config", "user.email", "release-test@127.0.0.1");
  await mkdir(cloneEnv(dir).HOME!);
  await commitAll(dir, "the working tree, as a clean clone");
  return dir;
}

/** Makes the release in the clone `dir` as a maintainer does (the registry's addresses filled in, committed, then
 * `npm run release -- --write`: version, generated/, CHANGELOG, commit and tag) and returns the version to publish. */
export async function releaseTree(dir: string): Promise<{ version: string; printed: string }> {
  const env = cloneEnv(dir);
  const manifestPath = path.join(dir, "package.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
  Object.assign(manifest, {
    homepage: TEST_HOMEPAGE,
    bugs: { url: `${TEST_HOMEPAGE}/issues` },
    repository: { type: "git", url: `git+${TEST_HOMEPAGE}.git` },
  });
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  // No build: the registry's fields make no artifact, so generated/ stays fresh (the release refuses a stale one).
  await git(dir, "commit", "--quiet", "--no-verify", "-am", "the registry's addresses, as a maintainer fills them in");
  const { stdout } = await execFileAsync("npm", ["run", "--silent", "release", "--", "--write"], { cwd: dir, env });
  // A release leaves nothing uncommitted: what is published is what the tag holds.
  const status = await git(dir, "status", "--porcelain");
  if (status.stdout !== "") throw new Error(`the release left changes uncommitted:\n${status.stdout}`);
  return { version: (JSON.parse(await readFile(manifestPath, "utf8")) as { version: string }).version, printed: stdout };
}

/** Runs a command in the clone with its environment; resolves with its exit status and output, whatever the status. */
export async function inClone(dir: string, command: string, args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { cwd: dir, env: cloneEnv(dir) });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/** Edits a file of the clone: `from` replaced by `to`, failing when the file has no `from` (the edit would change nothing). */
export async function changeFile(dir: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(path.join(dir, file), "utf8");
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)} to change`);
  await writeFile(path.join(dir, file), text.replace(from, to));
}

/** Edits a file of the clone and commits it: a change a pull request would bring. */
export async function commitChange(dir: string, file: string, from: string, to: string, message: string): Promise<void> {
  await changeFile(dir, file, from, to);
  await git(dir, "commit", "--quiet", "--no-verify", "-am", message);
}

/** Commits everything the clone's tree holds now, new files included. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await git(dir, "add", "--all");
  await git(dir, "commit", "--quiet", "--no-verify", "-m", message);
}

/** Tags HEAD as `tag`, the way a maintainer who skips the release command would. */
export const tagHead = (dir: string, tag: string) => git(dir, "tag", "-a", tag, "-m", tag);
