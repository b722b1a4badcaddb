// `npm run review` against small git repositories the test makes: a base commit of test/fixtures/review/repo, then one
// change in the working tree, reviewed the way a reviewer runs it.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { main, review } from "../../scripts/commands/review.ts";
import { isNewMajor } from "../../scripts/commands/review/accepted-breaks.ts";
import { renderMarkdown } from "../../scripts/commands/review/report.ts";
import type { Surface } from "../../scripts/build/surface.ts";

const run = promisify(execFile);
const FIXTURE = path.join(repoRoot, "test/fixtures/review/repo");
const THING = "openapi/things/schemas/Thing.yaml";
const GET_THING = "openapi/things/paths/v2_things_{thing_id}.yaml";
const made: string[] = [];

async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", ["-c", "user.email=review@svc.example", "-c", "user.name=Review", ...args], { cwd: dir });
  return stdout;
}

/** A repository whose one commit is the fixture; `change` then edits its working tree. */
async function repository(change: (edit: (file: string, from: string | RegExp, to: string) => Promise<void>) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-review-repo-"));
  made.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "base");
  await change(async (file, from, to) => {
    const text = await readFile(path.join(dir, file), "utf8");
    const changed = text.replace(from, to);
    if (changed === text) throw new Error(`the fixture edit found nothing to change in ${file}`);
    await writeFile(path.join(dir, file), changed);
  });
  return dir;
}

/** Removes the `label` field of Thing, which both operations return. */
async function removeLabel(edit: (file: string, from: string, to: string) => Promise<void>): Promise<void> {
  await edit(THING, "  - label\n", "");
  await edit(THING, "  label:\n    type: string\n", "");
}

const bumpVersion = (edit: (file: string, from: string, to: string) => Promise<void>) => edit("openapi/openapi.yaml", "version: 1.0.0", "version: 2.0.0");
const announce = (edit: (file: string, from: string, to: string) => Promise<void>, text: string) =>
  edit("CHANGELOG.md", "## Unreleased\n", `## Unreleased\n\n### Breaking changes\n- ${text}\n`);

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the version an accepted break needs (rule 14)", () => {
  it("is a new major, with no exception for 0.x: the first release is 1.0.0", () => {
    expect(isNewMajor("1.2.3", "2.0.0")).toBe(true);
    expect(isNewMajor("1.2.3", "1.9.0")).toBe(false);
    expect(isNewMajor("0.1.0", "0.2.0")).toBe(false);
    expect(isNewMajor("0.1.0", "1.0.0")).toBe(true);
    expect(isNewMajor("2.0.0", "1.9.9")).toBe(false);
  });
});

describe("npm run review", () => {
  it("fails a change that breaks clients, naming the operation, the field, and the source line", async () => {
    const dir = await repository(removeLabel);
    const before = await git(dir, "status", "--porcelain");
    const result = await review({ root: dir, base: "HEAD" });
    expect(result.passed).toBe(false);
    const breaking = result.changes.filter((change) => change.kind === "breaking");
    expect(breaking.map((change) => [change.subject.label, change.where, change.message, change.location.file])).toEqual([
      ["listThings (GET /v2/things)", "response 200: [].label", "field removed", THING],
      ["getThing (GET /v2/things/{thing_id})", "response 200: label", "field removed", THING],
    ]);
    // The base revision was read from git, never checked out: the working tree and the worktree list are as they were.
    expect(await git(dir, "status", "--porcelain")).toBe(before);
    expect((await git(dir, "worktree", "list")).trim().split("\n")).toHaveLength(1);
  });

  it("passes a change that only adds", async () => {
    const dir = await repository((edit) => edit(THING, "  label:\n", "  colour:\n    type: string\n  label:\n"));
    const result = await review({ root: dir, base: "HEAD" });
    expect(result.changes.map((change) => [change.kind, change.where])).toEqual([
      ["additive", "response 200: [].colour"],
      ["additive", "response 200: colour"],
    ]);
    expect(result.lint).toEqual([]);
    expect(result.passed).toBe(true);
  });

  it("fails a lint error in a split file, located on its line", async () => {
    const dir = await repository((edit) => edit(GET_THING, "summary: Get a thing", "summary: Get a thing."));
    const result = await review({ root: dir, base: "HEAD" });
    expect(result.passed).toBe(false);
    expect(result.lint.map((finding) => [finding.tool, finding.rule, finding.file, finding.line, finding.exact])).toEqual([
      ["spectral", "svc-summary-style", GET_THING, 10, true],
    ]);
  });

  it("annotates a removed operation on its former line in openapi/openapi.yaml, writes the job summary, and exits 1", async () => {
    const dir = await repository(async (edit) => {
      await edit("openapi/openapi.yaml", "  /v2/things/{thing_id}:\n    $ref: things/paths/v2_things_{thing_id}.yaml\n", "");
    });
    const summary = path.join(dir, "..", `${path.basename(dir)}-summary.md`);
    made.push(summary);
    const env = { ...process.env, GITHUB_STEP_SUMMARY: summary };
    const cli = await run(
      process.execPath,
      ["--import", "tsx", path.join(repoRoot, "scripts/commands/review.ts"), "--root", dir, "--base", "HEAD", "--format", "github-actions"],
      { cwd: repoRoot, env },
    ).then(
      () => ({ code: 0, stdout: "" }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(
      "::error file=openapi/openapi.yaml,line=19,title=Breaking change::operation: operation removed (affects getThing (GET /v2/things/{thing_id})) (line 19 in the base revision)",
    );
    // The full report goes to the job summary, since GitHub shows only about ten annotations per step.
    const report = await readFile(summary, "utf8");
    expect(report).toContain("**Failed:** 1 breaking");
    expect(report).toContain(
      "| `getThing (GET /v2/things/{thing_id})` | operation | operation removed | `operation-removed` | `openapi/openapi.yaml:19` (in the base revision) |",
    );
  });

  it("fails in one line, naming the revision, when the base revision does not bundle", async () => {
    const dir = await repository(async (edit) => {
      await edit("openapi/openapi.yaml", "info:\n", "info: [unclosed\n");
    });
    await git(dir, "commit", "-qam", "broken");
    await writeFile(path.join(dir, "openapi/openapi.yaml"), await readFile(path.join(FIXTURE, "openapi/openapi.yaml"), "utf8"));
    // The command's own function, in this process (the test above runs it as a process): what it writes to stderr.
    const errors: string[] = [];
    const stderr = vi.spyOn(console, "error").mockImplementation((...line: unknown[]) => void errors.push(line.join(" ")));
    const code = await main(["--root", dir, "--base", "HEAD"]).finally(() => stderr.mockRestore());
    const cli = { code, stderr: errors.map((line) => `${line}\n`).join("") };
    const commit = (await git(dir, "rev-parse", "HEAD")).trim().slice(0, 12);
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim().split("\n")).toHaveLength(1);
    expect(cli.stderr).toContain(`review: the base revision ${commit} does not bundle: `);
    expect(cli.stderr).toContain(`${commit}:openapi/openapi.yaml`);
  });

  it("accepts an intended break that the CHANGELOG's unreleased section announces, in a new major version", async () => {
    const dir = await repository(async (edit) => {
      await removeLabel(edit);
      await announce(edit, "`getThing` and `listThings` no longer return `label`.");
      await bumpVersion(edit);
    });
    const result = await review({ root: dir, base: "HEAD" });
    expect(result.problems).toEqual([]);
    expect(result.changes.filter((change) => change.kind === "breaking").map((change) => change.accepted)).toEqual([
      "CHANGELOG: `getThing` and `listThings` no longer return `label`.",
      "CHANGELOG: `getThing` and `listThings` no longer return `label`.",
    ]);
    expect(result.passed).toBe(true);
  });

  it("still fails an announced break whose version is not new, and a break the announcement does not name", async () => {
    const dir = await repository(async (edit) => {
      await removeLabel(edit);
      await announce(edit, "`getThing` no longer returns `label`.");
    });
    const result = await review({ root: dir, base: "HEAD" });
    expect(result.passed).toBe(false);
    expect(result.problems).toEqual([
      "Breaking changes are accepted, but an intended break ships in a new major version: info.version is 1.0.0, the base's 1.0.0.",
    ]);
    expect(result.changes.filter((change) => change.kind === "breaking" && !change.accepted).map((change) => change.subject.label)).toEqual([
      "listThings (GET /v2/things)",
    ]);
  });

  it("accepts every break under the pull request's breaking-change label, in a new major version", async () => {
    const dir = await repository(async (edit) => {
      await removeLabel(edit);
      await bumpVersion(edit);
    });
    const result = await review({ root: dir, base: "HEAD", acceptBreaking: true });
    expect(result.changes.filter((change) => change.kind === "breaking").every((change) => change.accepted === "pull-request label breaking-change")).toBe(
      true,
    );
    expect(result.passed).toBe(true);
  });

  it("fails a removed export of the package's surface and a raised engines, located in generated/surface.json, and takes a CHANGELOG bullet naming them", async () => {
    const dir = await repository(async () => {});
    const surface = JSON.parse(await readFile(path.join(repoRoot, "generated/surface.json"), "utf8")) as Surface;
    await mkdir(path.join(dir, "generated"));
    await writeFile(path.join(dir, "generated/surface.json"), `${JSON.stringify(surface, null, 2)}\n`);
    await git(dir, "add", "-A");
    await git(dir, "commit", "-qm", "the surface snapshot");
    delete surface.entries["./mock"]!.declared.createMock;
    surface.engines.node = ">=22.0.0";
    await writeFile(path.join(dir, "generated/surface.json"), `${JSON.stringify(surface, null, 2)}\n`);
    const result = await review({ root: dir, base: "HEAD" });
    expect(result.passed).toBe(false);
    const breaking = result.changes.filter((change) => change.kind === "breaking" && !change.accepted);
    expect(breaking.map((change) => [change.subject.label, change.where, change.location.file])).toEqual([
      ["entry ./mock", "export createMock", "generated/surface.json"],
      ["engines.node", "engines", "generated/surface.json"],
    ]);
    expect(renderMarkdown(result)).toContain(
      "| `entry ./mock` | export createMock | createMock is no longer exported: an import of it fails | `export-removed` |",
    );

    await bumpVersion(async (file, from, to) => writeFile(path.join(dir, file), (await readFile(path.join(dir, file), "utf8")).replace(from, to)));
    const changelog = path.join(dir, "CHANGELOG.md");
    await writeFile(
      changelog,
      (await readFile(changelog, "utf8")).replace(
        "## Unreleased\n",
        "## Unreleased\n\n### Breaking changes\n- `createMock` is gone; Node `engines` 22 and later.\n",
      ),
    );
    const accepted = await review({ root: dir, base: "HEAD" });
    expect(accepted.changes.filter((change) => change.kind === "breaking").map((change) => Boolean(change.accepted))).toEqual([true, true]);
    expect(accepted.passed).toBe(true);
  });
});
