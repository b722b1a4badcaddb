// `npm run release`: the version the changes since the last release tag require (the contract's and the package
// surface's, as the review finds them) and the CHANGELOG section for it; `--write` makes the release (version, build,
// CHANGELOG, commit, tag), and `--check` is what the publish workflow and prepublishOnly run before anything is published.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import semver from "semver";
import { isMain } from "../build/lib/cli.ts";
import { git } from "../build/lib/git.ts";
import { parseArgsProblem } from "../../src/shared/nearest-name.ts";
import { compareWith, workingTree } from "./review.ts";
import { releaseSection, writeRelease } from "./release/changelog-section.ts";
import { readmeForRelease } from "./release/unreleased-note.ts";
import { distTag, emptyRegistryFields, isClean, readManifest, treeProblems, type Manifest } from "./release/publish-check.ts";
import {
  bumped,
  changeLine,
  chooseVersion,
  FIRST_RELEASE,
  releasesToJudgeAgainst,
  releaseTags,
  requiredLevel,
  satisfies,
  type Level,
  type ReleaseTag,
} from "./release/required-version.ts";
import type { LocatedChange } from "./review/report.ts";
import type { JsonObject } from "../../src/contract/json.ts";

const USAGE = `usage: npm run release -- [--as <version>] [--pre <name>] [--write] | --check [--tag <tag>]

  (no flag)        dry run: the version the changes since the last release tag require, and its CHANGELOG section
  --as <version>   release as this version: higher than required is allowed, lower is refused
  --pre <name>     a pre-release for the dist-tag <name> (next): 2.0.0-next.0, then -next.1, ...
  --write          make the release: a clean tree required; sets package.json's version, rebuilds generated/,
                   writes the CHANGELOG section (and, from 1.0.0, drops the README's note until the first
                   release), commits and tags v<version>
  --check          before publishing (the workflow, prepublishOnly): the tree is the tag's, the tag names the
                   version, the version is at least what the changes require, generated/ is fresh, and
                   homepage, bugs, repository and keywords are filled in; exits 1 naming what does not hold
  --tag <tag>      with --check: the tag being published (default: GITHUB_REF_NAME when the workflow runs on a tag)
  --dist-tag       print the dist-tag package.json's version is published under: latest, or its pre-release name
  --root <dir>     the repository (default: the current directory)`;

const FLAGS = {
  as: { type: "string" },
  pre: { type: "string" },
  write: { type: "boolean", default: false },
  check: { type: "boolean", default: false },
  tag: { type: "string" },
  "dist-tag": { type: "boolean", default: false },
  root: { type: "string" },
  help: { type: "boolean", default: false },
} as const;

export interface Requirement {
  /** The release compared with, or undefined for the first release. */
  since?: { tag: string; version: string };
  level: Level | "first";
  required: string;
  because?: LocatedChange;
  changes: LocatedChange[];
  headBundle?: JsonObject;
}

/**
 * What the changes since the releases of the current line (below `below`, for a publish) require: the highest of what
 * each requires, with the comparison that decides it (the latest release's when they agree).
 */
export async function requirement(root: string, tags: ReleaseTag[], below?: string): Promise<Requirement> {
  const releases = releasesToJudgeAgainst(tags, below);
  if (releases.length === 0) return { level: "first", required: FIRST_RELEASE, changes: [] };
  let decided: Requirement | undefined;
  // The working tree bundled once; the releases one at a time, each a bundle of its own.
  const head = workingTree(root);
  for (const release of releases) {
    const comparison = await compareWith(head, release.commit);
    const { level, because } = requiredLevel(comparison.changes);
    const required = bumped(release.version, level);
    if (decided === undefined || semver.gt(required, decided.required)) {
      decided = { since: release, level, required, because, changes: comparison.changes, headBundle: comparison.headBundle };
    }
  }
  return decided!;
}

/** The tree's generated/ is made from its sources: what the comparison reads (surface.json) is what would ship. */
async function generatedFresh(root: string): Promise<boolean> {
  const script = path.join(root, "scripts/build/up-to-date.js");
  // A repository without the build (the review's small fixtures) has nothing generated to be stale.
  if (!existsSync(script)) return true;
  const { upToDate } = (await import(pathToFileURL(script).href)) as { upToDate(): Promise<boolean> };
  return upToDate();
}

const versionsOf = (tags: ReleaseTag[]) => tags.map((tag) => tag.version);

/** Runs a command in the repository, its output passed through; rejects naming it when it fails. */
function step(root: string, command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (exit ${code})`))));
  });
}

async function headBundleOf(root: string, requirement: Requirement): Promise<JsonObject> {
  if (requirement.headBundle) return requirement.headBundle;
  const { bundleContract } = await import("../build/bundle.ts");
  return bundleContract({ root, serviceHistory: false });
}

function describeRequirement(requirement: Requirement): string {
  if (!requirement.since) return `No release tag yet: the first release is ${requirement.required}.`;
  const counts = (["breaking", "additive", "deprecated"] as const)
    .map((kind) => `${requirement.changes.filter((c) => c.kind === kind).length} ${kind}`)
    .join(", ");
  const because = requirement.because ? ` (${changeLine(requirement.because)})` : "";
  return `Since ${requirement.since.tag}: ${counts}; they require a ${requirement.level}: ${requirement.required}${because}.`;
}

/** The publish check of `manifest`'s version: every problem, or none. */
export async function publishProblems(root: string, manifest: Manifest, tags: ReleaseTag[], tag?: string): Promise<string[]> {
  const problems = await treeProblems(root, manifest.version, tags, tag);
  const empty = emptyRegistryFields(manifest);
  if (empty.length) problems.push(`package.json's ${empty.join(", ")} ${empty.length === 1 ? "is" : "are"} empty: fill in what the registry shows`);
  if (!(await generatedFresh(root))) problems.push("generated/ is stale: run `npm run build` and commit it");
  const required = await requirement(root, tags, manifest.version);
  if (!satisfies(manifest.version, required.required)) {
    const why = required.because ? `: ${changeLine(required.because)}` : "";
    problems.push(
      required.since
        ? `${manifest.version} is lower than the ${required.required} the changes since ${required.since.tag} require${why}`
        : `${manifest.version} is lower than ${required.required}, the first release`,
    );
  }
  return problems;
}

export async function main(args: string[] = process.argv.slice(2), log: (line: string) => void = console.log): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: FLAGS, strict: true }));
  } catch (error) {
    console.error(`release: ${parseArgsProblem(error, Object.keys(FLAGS))} (see --help)`);
    return 2;
  }
  if (values.help) {
    log(USAGE);
    return 0;
  }
  const root = path.resolve(values.root ?? process.cwd());
  try {
    const tags = await releaseTags(root);
    if (values["dist-tag"]) {
      log(distTag((await readManifest(root)).version, versionsOf(tags)));
      return 0;
    }
    if (values.check) {
      const tag = values.tag ?? (process.env.GITHUB_REF_TYPE === "tag" ? process.env.GITHUB_REF_NAME : undefined);
      const manifest = await readManifest(root);
      const problems = await publishProblems(root, manifest, tags, tag);
      const { version } = manifest;
      if (problems.length) {
        console.error(`release: ${version} must not be published:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
        return 1;
      }
      log(`release: ${version} may be published (dist-tag ${distTag(version, versionsOf(tags))})`);
      return 0;
    }
    if (values.write && !(await isClean(root))) {
      console.error("release: --write needs a clean tree (commit or stash first): the release commit holds only the release");
      return 1;
    }
    if (!(await generatedFresh(root))) {
      console.error("release: generated/ is stale: run `npm run build` and commit it first (the package's surface is read from it)");
      return 1;
    }
    const required = await requirement(root, tags);
    log(describeRequirement(required));
    const chosen = chooseVersion({ required: required.required, because: required.because, as: values.as, pre: values.pre, tags });
    if ("refused" in chosen) {
      console.error(`release: ${chosen.refused}`);
      return 1;
    }
    const section = releaseSection({
      version: chosen.version,
      date: new Date().toISOString().slice(0, 10),
      since: required.since?.tag,
      changes: required.changes,
      headBundle: await headBundleOf(root, required),
    });
    if (!values.write) {
      log(
        `\nThe release would be ${chosen.version} (dist-tag ${distTag(chosen.version, versionsOf(tags))}); its CHANGELOG section (then what ## Unreleased holds):\n`,
      );
      log(section);
      log("Run again with --write to make it.");
      return 0;
    }
    await step(root, "npm", ["version", chosen.version, "--no-git-tag-version", "--allow-same-version"]);
    const changelog = path.join(root, "CHANGELOG.md");
    await writeFile(changelog, writeRelease(await readFile(changelog, "utf8"), section));
    const readme = path.join(root, "README.md");
    if (existsSync(readme)) await writeFile(readme, readmeForRelease(await readFile(readme, "utf8"), chosen.version));
    // One build after both: the version and the CHANGELOG (whose service history the bundle carries) are its inputs.
    await step(root, "node", ["scripts/build/main.js", "--no-reference"]);
    await git(root, ["add", "-A", "package.json", "package-lock.json", "CHANGELOG.md", ...(existsSync(readme) ? ["README.md"] : []), "generated"]);
    await git(root, ["commit", "-q", "-m", `Release ${chosen.version}`]);
    await git(root, ["tag", "-a", `v${chosen.version}`, "-m", `Release ${chosen.version}`]);
    log(`release: committed and tagged v${chosen.version}; push the tag (git push origin v${chosen.version}) and the workflow publishes it`);
    return 0;
  } catch (error) {
    console.error(`release: ${(error as Error).message.split("\n")[0]}`);
    return 2;
  }
}

if (isMain(import.meta.url)) {
  process.exitCode = await main();
}
