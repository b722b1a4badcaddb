// The version a release needs: the last release tag (`v1.2.3`) reachable from HEAD, what changed since (the contract's
// and the package surface's changes, as the review finds them), and the bump they require: a major for any break,
// accepted or not; a minor for an addition or a deprecation; a patch otherwise.
import semver from "semver";
import { git } from "../../build/lib/git.ts";
import type { LocatedChange } from "../review/report.ts";

/** The first release: the contract is whole and reviewed (rule 14 of openapi/breaking-changes.md). */
export const FIRST_RELEASE = "1.0.0";

export type Level = "major" | "minor" | "patch";

export interface ReleaseTag {
  tag: string;
  version: string;
  commit: string;
}

/**
 * Every release tag (`v` and a semantic version), highest first: merged into HEAD or not, since a release made on another
 * branch is still on the registry, and what HEAD lacks of it is removed for its users.
 */
export async function releaseTags(root: string): Promise<ReleaseTag[]> {
  // One git call: each tag with its object and, for an annotated tag, the commit it points at.
  const lines = (await git(root, ["for-each-ref", "--format=%(refname:short)%09%(objectname)%09%(*objectname)", "refs/tags/v*"])).split("\n");
  const tags = lines
    .map((line) => line.split("\t"))
    .filter(([tag]) => tag !== undefined && semver.valid(tag.slice(1)) === tag.slice(1))
    .map(([tag, object, commit]) => ({ tag: tag!, version: tag!.slice(1), commit: commit || object! }));
  return tags.sort((a, b) => semver.rcompare(a.version, b.version));
}

/**
 * The releases the next one is judged against: every stable release tag (below `below`, for a publish, which judges
 * the tagged version against the releases before it) of the highest major among them. Each, not only the last: a tag
 * is no proof that its version was published, so a break since any release of the line needs a new major.
 */
export function releasesToJudgeAgainst(tags: ReleaseTag[], below?: string): ReleaseTag[] {
  const stable = tags.filter((tag) => semver.prerelease(tag.version) === null && (below === undefined || semver.lt(tag.version, below)));
  const line = stable[0] === undefined ? undefined : semver.major(stable[0].version);
  return stable.filter((tag) => semver.major(tag.version) === line);
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

/** A pre-release name npm takes as a dist-tag: lower-case, and not `latest` (which a pre-release must never become). */
function preName(name: string): string | undefined {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) return `--pre ${name} is not a pre-release name (such as next)`;
  if (name === "latest") return "--pre latest would publish a pre-release as latest: name it next (or another name)";
  return undefined;
}

/**
 * The version to release: the required one, or the one `--as` chooses (never lower: refused naming the change that
 * requires more), as a pre-release for `--pre <name>` (`2.0.0-next.0`, numbered after the tags already made); never a
 * version whose tag exists.
 */
export function chooseVersion(options: {
  required: string;
  because?: LocatedChange;
  as?: string;
  pre?: string;
  tags: ReleaseTag[];
}): { version: string } | { refused: string } {
  let release = options.required;
  let pre = options.pre;
  let numbered: number | undefined;
  if (pre !== undefined) {
    const problem = preName(pre);
    if (problem) return { refused: problem };
  }
  if (options.as !== undefined) {
    const chosen = semver.parse(options.as);
    if (!chosen || chosen.version !== options.as) return { refused: `--as ${options.as} is not a semantic version (such as 2.1.0)` };
    release = `${chosen.major}.${chosen.minor}.${chosen.patch}`;
    if (semver.lt(release, options.required)) {
      const why = options.because ? `: ${changeLine(options.because)}` : "";
      return { refused: `--as ${options.as} is lower than the ${options.required} the changes require${why}` };
    }
    if (chosen.prerelease.length > 0 && pre === undefined) {
      // A pre-release given whole: its name is checked as --pre's, its number taken as given.
      const [name, number, ...rest] = chosen.prerelease;
      const problem = typeof name === "string" ? preName(name) : `--as ${options.as}: a pre-release starts with its name (2.0.0-next.0)`;
      if (problem) return { refused: problem };
      if (typeof number !== "number" || rest.length > 0) return { refused: `--as ${options.as}: a pre-release is <name>.<number> (2.0.0-next.0)` };
      pre = name as string;
      numbered = number;
    }
  }
  let version = release;
  if (pre !== undefined) {
    const prefix = `${release}-${pre}.`;
    const numbers = options.tags
      .filter((tag) => tag.version.startsWith(prefix) && /^\d+$/.test(tag.version.slice(prefix.length)))
      .map((tag) => Number(tag.version.slice(prefix.length)));
    version = `${prefix}${numbered ?? (numbers.length ? Math.max(...numbers) + 1 : 0)}`;
  }
  if (options.tags.some((tag) => tag.version === version))
    return { refused: `v${version} is already tagged: a release is made once (choose another with --as)` };
  return { version };
}

/** Whether `version` satisfies `required`: a pre-release counts by the release it precedes. */
export function satisfies(version: string, required: string): boolean {
  const parsed = semver.parse(version);
  if (!parsed) return false;
  return semver.gte(`${parsed.major}.${parsed.minor}.${parsed.patch}`, required);
}
