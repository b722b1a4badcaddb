// What must hold before anything is published, from the workflow or from a laptop (prepublishOnly): the tree is the
// release tag's, the tag names the version, the version is at least what the changes since the last release require,
// generated/ is fresh, and what the registry shows (homepage, bugs, repository, keywords) is filled in.
import { readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import { git } from "../../build/lib/git.ts";
import type { ReleaseTag } from "./required-version.ts";

/** The fields of package.json a registry page shows, which a maintainer fills in once (package.json is their one place). */
export const REGISTRY_FIELDS = ["homepage", "bugs", "repository", "keywords"] as const;

export interface Manifest {
  name: string;
  version: string;
  homepage?: string;
  bugs?: { url?: string } | string;
  repository?: { type?: string; url?: string } | string;
  keywords?: string[];
}

export async function readManifest(root: string): Promise<Manifest> {
  return JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as Manifest;
}

/** The registry fields still empty: the release refuses to publish while any is. */
export function emptyRegistryFields(manifest: Manifest): string[] {
  const url = (value: { url?: string } | string | undefined) => (typeof value === "string" ? value : value?.url) ?? "";
  const empty: string[] = [];
  if (!manifest.homepage) empty.push("homepage");
  if (!url(manifest.bugs)) empty.push("bugs.url");
  if (!url(manifest.repository)) empty.push("repository.url");
  if (!manifest.keywords?.length) empty.push("keywords");
  return empty;
}

/** Whether git sees no change and no untracked file, whatever the user's status.showUntrackedFiles says. */
export async function isClean(root: string): Promise<boolean> {
  return (await git(root, ["status", "--porcelain", "--untracked-files=all"])) === "";
}

/** Problems of the tree itself: uncommitted changes, or HEAD not at the version's tag (`tag` as the workflow names it). */
export async function treeProblems(root: string, version: string, tags: ReleaseTag[], tag?: string): Promise<string[]> {
  const problems: string[] = [];
  const expected = `v${version}`;
  if (tag !== undefined && tag !== expected) problems.push(`the tag ${tag} does not name the version ${version} (package.json): it should be ${expected}`);
  if (!(await isClean(root))) problems.push("the tree has uncommitted changes: a release publishes its tag's tree");
  const head = await git(root, ["rev-parse", "HEAD"]);
  const tagged = tags.find((release) => release.tag === expected)?.commit;
  if (tagged === undefined) problems.push(`there is no tag ${expected}: \`npm run release -- --write\` makes it`);
  else if (tagged !== head) problems.push(`the tag ${expected} is not HEAD (${tagged.slice(0, 12)}): publish from the tagged commit`);
  return problems;
}

/**
 * The dist-tag a version is published under: its pre-release name (`next`); `latest` for a release above every other
 * release tag; `release-1.x` for a release of an older line (which must not move `latest` back).
 */
export function distTag(version: string, releaseVersions: string[]): string {
  const pre = semver.prerelease(version);
  if (pre !== null) return String(pre[0]);
  const higher = releaseVersions.some((other) => semver.prerelease(other) === null && semver.gt(other, version));
  return higher ? `release-${semver.major(version)}.x` : "latest";
}
