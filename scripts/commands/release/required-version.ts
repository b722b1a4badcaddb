// The version a release needs: the last release tag (`v1.2.3`) reachable from HEAD, what changed since (the contract's
// and the package surface's changes, as the review finds them), and the bump they require: a major for any break,
// accepted or not; a minor for an addition or a deprecation; a patch otherwise.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import semver from "semver";
import type { LocatedChange } from "../review/report.ts";

const run = promisify(execFile);

/** The first release: the contract is whole and reviewed (rule 14 of openapi/breaking-changes.md). */
export const FIRST_RELEASE = "1.0.0";

export type Level = "major" | "minor" | "patch";

export interface ReleaseTag {
  tag: string;
  version: string;
  commit: string;
}

async function git(root: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", args, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/** The release tags merged into HEAD (`v` and a semantic version), highest first. */
export async function releaseTags(root: string): Promise<ReleaseTag[]> {
  const names = (await git(root, ["tag", "--list", "v*", "--merged", "HEAD"])).split("\n").filter(Boolean);
  const tags = await Promise.all(
    names
      .filter((name) => semver.valid(name.slice(1)) === name.slice(1))
      .map(async (tag) => ({ tag, version: tag.slice(1), commit: await git(root, ["rev-list", "-n", "1", tag]) })),
  );
  return tags.sort((a, b) => semver.rcompare(a.version, b.version));
}

/**
 * The release the next one is judged against: the highest stable release tag merged into HEAD, below `below` when given
 * (a publish judges the tagged version against the release before it, not against its own tag).
 */
export async function lastRelease(root: string, below?: string): Promise<ReleaseTag | undefined> {
  return (await releaseTags(root)).find((tag) => semver.prerelease(tag.version) === null && (below === undefined || semver.lt(tag.version, below)));
}

/** The bump the changes require, with the change that decides it (the first break, else the first addition). */
export function requiredLevel(changes: LocatedChange[]): { level: Level; because?: LocatedChange } {
  const breaking = changes.find((change) => change.kind === "breaking");
  if (breaking) return { level: "major", because: breaking };
  const adding = changes.find((change) => change.kind === "additive" || change.kind === "deprecated");
  if (adding) return { level: "minor", because: adding };
  return { level: "patch" };
}

/** The version a bump of `from` gives. */
export function bumped(from: string, level: Level): string {
  return semver.inc(from, level)!;
}

/** A change in one line, for a refusal: `export-removed: entry ./mock, export createMock`. */
export function changeLine(change: LocatedChange): string {
  return `${change.rule}: ${change.subject.label}, ${change.where} (${change.location.file}:${change.location.line})`;
}

/**
 * The version to release: the required one, or the one `--as` chooses (never lower: refused naming the change that
 * requires more), as a pre-release for `--pre <id>` (`2.0.0-next.0`, numbered after the tags already made).
 */
export function chooseVersion(options: {
  required: string;
  because?: LocatedChange;
  as?: string;
  pre?: string;
  tags: ReleaseTag[];
}): { version: string } | { refused: string } {
  let version = options.required;
  if (options.as !== undefined) {
    const chosen = semver.valid(options.as);
    if (!chosen) return { refused: `--as ${options.as} is not a semantic version (such as 2.1.0)` };
    const release = `${semver.major(chosen)}.${semver.minor(chosen)}.${semver.patch(chosen)}`;
    if (semver.lt(release, options.required)) {
      const why = options.because ? `: ${changeLine(options.because)}` : "";
      return { refused: `--as ${options.as} is lower than the ${options.required} the changes require${why}` };
    }
    if (semver.prerelease(chosen) !== null && options.pre === undefined) return { version: chosen };
    version = release;
  }
  if (options.pre !== undefined) {
    if (!/^[a-z][a-z0-9-]*$/.test(options.pre)) return { refused: `--pre ${options.pre} is not a pre-release name (such as next)` };
    const prefix = `${version}-${options.pre}.`;
    const numbers = options.tags.filter((tag) => tag.version.startsWith(prefix)).map((tag) => Number(tag.version.slice(prefix.length)));
    version = `${prefix}${numbers.length ? Math.max(...numbers) + 1 : 0}`;
  }
  return { version };
}

/** Whether `version` satisfies `required`: a pre-release counts by the release it precedes. */
export function satisfies(version: string, required: string): boolean {
  const parsed = semver.parse(version);
  if (!parsed) return false;
  return semver.gte(`${parsed.major}.${parsed.minor}.${parsed.patch}`, required);
}
