// `npm run release` on small git repositories made from test/fixtures/review/repo with a release tag: the version the
// changes since the tag require (a major for a break, a minor for an addition, a patch otherwise), --as and --pre, and
// the CHANGELOG section (test/release/ publishes a whole release to a registry).
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { main, requirement as requirementFrom } from "../../scripts/commands/release.ts";
import { releaseSection, writeRelease, WORDS_PLACEHOLDER } from "../../scripts/commands/release/changelog-section.ts";
import { chooseVersion, releaseTags, satisfies } from "../../scripts/commands/release/required-version.ts";
import { distTag, emptyRegistryFields } from "../../scripts/commands/release/publish-check.ts";

const run = promisify(execFile);
const FIXTURE = path.join(repoRoot, "test/fixtures/review/repo");
const THING = "openapi/things/schemas/Thing.yaml";
const made: string[] = [];

/** What the repository's release tags and tree require, as the command reads them. */
const requirement = async (dir: string, below?: string) => requirementFrom(dir, await releaseTags(dir), below);

async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-c", "user.email=release@svc.example", "-c", "user.name=Release", ...args], { cwd: dir });
  return stdout.trim();
}

/** The fixture committed and tagged v1.0.0, then `change` committed after it. */
async function released(change: (edit: (file: string, from: string, to: string) => Promise<void>) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-release-repo-"));
  made.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ name: "fixture", version: "1.0.0" }, null, 2)}\n`);
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "1.0.0");
  await git(dir, "tag", "-a", "v1.0.0", "-m", "1.0.0");
  await change(async (file, from, to) => {
    const text = await readFile(path.join(dir, file), "utf8");
    if (!text.includes(from)) throw new Error(`the fixture edit found nothing to change in ${file}`);
    await writeFile(path.join(dir, file), text.replace(from, to));
  });
  await git(dir, "commit", "-qam", "a change", "--allow-empty");
  return dir;
}

const removeLabel = async (edit: (file: string, from: string, to: string) => Promise<void>) => {
  await edit(THING, "  - label\n", "");
  await edit(THING, "  label:\n    type: string\n", "");
};
const addField = (edit: (file: string, from: string, to: string) => Promise<void>) =>
  edit(THING, "  label:\n    type: string\n", "  label:\n    type: string\n  note:\n    type: string\n");

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the version the changes since the last release require", () => {
  it("is a major for a removed response field, naming the change", async () => {
    const dir = await released(removeLabel);
    const required = await requirement(dir);
    expect([required.since?.tag, required.level, required.required]).toEqual(["v1.0.0", "major", "2.0.0"]);
    expect(required.because?.rule).toBe("response-field-removed");
  });

  it("is a minor for an added response field, and a patch for no change to the contract", async () => {
    expect((await requirement(await released(addField))).required).toBe("1.1.0");
    expect((await requirement(await released(async () => {}))).required).toBe("1.0.1");
  });

  it("counts a break since any release of the line: a later tag (never proof of a publish) does not hide it", async () => {
    const dir = await released(removeLabel);
    await git(dir, "tag", "-a", "v1.0.1", "-m", "1.0.1, tagged over the break");
    await git(dir, "commit", "-q", "--allow-empty", "-m", "after 1.0.1");
    // As the publish check of 1.0.2 judges it, and as the release command does.
    for (const required of [await requirement(dir, "1.0.2"), await requirement(dir)]) {
      expect([required.since?.tag, required.required, required.because?.rule]).toEqual(["v1.0.0", "2.0.0", "response-field-removed"]);
    }
  });

  it("is 1.0.0 with no release tag yet", async () => {
    const dir = await released(async () => {});
    await git(dir, "tag", "-d", "v1.0.0");
    expect((await requirement(dir)).required).toBe("1.0.0");
  });

  it("refuses --as lower than required, naming the change; takes a higher one; numbers --pre after the tags made", () => {
    const tags = [{ tag: "v2.0.0-next.0", version: "2.0.0-next.0", commit: "x" }];
    expect(chooseVersion({ required: "2.0.0", as: "1.1.0", tags: [] })).toEqual({ refused: "--as 1.1.0 is lower than the 2.0.0 the changes require" });
    expect(chooseVersion({ required: "1.1.0", as: "2.0.0", tags: [] })).toEqual({ version: "2.0.0" });
    expect(chooseVersion({ required: "2.0.0", pre: "next", tags })).toEqual({ version: "2.0.0-next.1" });
    expect(chooseVersion({ required: "2.0.0", as: "two", tags })).toEqual({ refused: "--as two is not a semantic version (such as 2.1.0)" });
    expect(chooseVersion({ required: "2.0.0", pre: "latest", tags })).toEqual({
      refused: "--pre latest would publish a pre-release as latest: name it next (or another name)",
    });
    expect(chooseVersion({ required: "2.0.0", as: "2.0.0-next.0", tags })).toEqual({
      refused: "v2.0.0-next.0 is already tagged: a release is made once (choose another with --as)",
    });
    expect(chooseVersion({ required: "2.0.0", as: "2.0.0-0", tags })).toEqual({ refused: "--as 2.0.0-0: a pre-release starts with its name (2.0.0-next.0)" });
    expect(chooseVersion({ required: "2.0.0", pre: "next", tags: [...tags, { tag: "v2.0.0-next.1.fix", version: "2.0.0-next.1.fix", commit: "y" }] })).toEqual({
      version: "2.0.0-next.1",
    });
    expect(satisfies("2.0.0-next.1", "2.0.0")).toBe(true);
    expect(satisfies("1.1.0", "2.0.0")).toBe(false);
  });

  it("as a command: a dry run prints the version and the section, and --as below it exits 1 naming the rule", async () => {
    const dir = await released(removeLabel);
    const lines: string[] = [];
    expect(await main(["--root", dir], (line) => lines.push(line))).toBe(0);
    const printed = lines.join("\n");
    expect(printed).toContain("Since v1.0.0: 2 breaking, 0 additive, 0 deprecated; they require a major: 2.0.0 (response-field-removed: listThings");
    expect(printed).toContain("The release would be 2.0.0 (dist-tag latest)");
    expect(printed).toContain("#### Breaking\n- `listThings (GET /v2/things)`: response 200: [].label: field removed (`response-field-removed`)\n- `getThing");
    const errors: string[] = [];
    const error = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      expect(await main(["--root", dir, "--as", "1.1.0"], () => {})).toBe(1);
    } finally {
      console.error = error;
    }
    expect(errors.join("\n")).toMatch(/release: --as 1\.1\.0 is lower than the 2\.0\.0 the changes require: response-field-removed: /);
    expect(await git(dir, "status", "--porcelain")).toBe("");
  });
});

describe("the CHANGELOG section", () => {
  it("lists breaks first with their rules, then additions, and keeps ## Unreleased's words below it", async () => {
    const dir = await released(async (edit) => {
      await removeLabel(edit);
      await edit("openapi/openapi.yaml", "paths:\n", "paths:\n");
    });
    const required = await requirement(dir);
    const section = releaseSection({ version: "2.0.0", date: "2026-11-27", since: "v1.0.0", changes: required.changes, headBundle: required.headBundle! });
    expect(section.split("\n").slice(0, 5)).toEqual(["## 2.0.0 (2026-11-27)", "", "### What the review found since v1.0.0", "", "#### Breaking"]);
    expect(section).toMatch(/response 200: .*label: field removed \(`response-field-removed`\)/);
    const changelog = "# Changelog\n\n## Unreleased\n\n### Breaking changes\n- `getThing` loses `label`.\n\n## 1.0.0\n- The things.\n";
    const written = writeRelease(changelog, section);
    expect(written.indexOf("## Unreleased\n\n## 2.0.0")).toBeGreaterThan(0);
    expect(written.indexOf("- `getThing` loses `label`.")).toBeGreaterThan(written.indexOf("#### Breaking"));
    expect(written.indexOf("- `getThing` loses `label`.")).toBeLessThan(written.indexOf("## 1.0.0"));
    expect(writeRelease("# Changelog\n\n## Unreleased\n\n## 1.0.0\n", "## 1.0.1 (d)\n")).toContain(WORDS_PLACEHOLDER);
  });

  it("publishes a pre-release under its name and a release of an older line beside latest, never moving latest back", () => {
    expect(distTag("2.0.0-next.1", ["1.0.0"])).toBe("next");
    expect(distTag("2.1.0", ["1.0.0", "2.0.0", "2.1.0"])).toBe("latest");
    expect(distTag("1.4.1", ["1.4.0", "2.0.0"])).toBe("release-1.x");
  });

  it("refuses to publish while what the registry shows is empty", () => {
    expect(emptyRegistryFields({ name: "x", version: "1.0.0", homepage: "", bugs: { url: "" }, repository: { type: "git", url: "" }, keywords: [] })).toEqual([
      "homepage",
      "bugs.url",
      "repository.url",
      "keywords",
    ]);
    expect(emptyRegistryFields({ name: "x", version: "1.0.0", homepage: "h", bugs: "b", repository: "r", keywords: ["k"] })).toEqual([]);
  });
});
