// The pull-request workflow cannot run here; what it calls can. It must call the review with options the script takes,
// re-run when a label is added or removed, fetch the history the base revision needs, and keep the full report.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

const run = promisify(execFile);

describe(".github/workflows/review.yml", async () => {
  const workflow = YAML.parse(await readFile(path.join(repoRoot, ".github/workflows/review.yml"), "utf8")) as Record<string, any>;
  const steps = workflow.jobs.review.steps as Record<string, any>[];

  it("runs on pull requests, again when a label is added or removed", () => {
    expect(workflow.on.pull_request.types).toEqual(expect.arrayContaining(["opened", "synchronize", "labeled", "unlabeled"]));
  });

  it("checks out the whole history, so the base revision can be read", () => {
    expect(steps.find((step) => String(step.uses).startsWith("actions/checkout"))?.with?.["fetch-depth"]).toBe(0);
  });

  it("calls the review with options the script accepts, then the tests", async () => {
    const review = steps.find((step) => String(step.run).includes("npm run review"))!;
    const options = [...String(review.run).matchAll(/--[a-z-]+/g)].map((match) => match[0]).filter((option) => option !== "--");
    const accept = String(review.env.ACCEPT_BREAKING);
    expect(accept).toContain("'breaking-change'");
    options.push(...[...accept.matchAll(/--[a-z-]+/g)].map((match) => match[0]));
    const { stdout: usage } = await run(process.execPath, ["--import", "tsx", "scripts/commands/review.ts", "--help"], { cwd: repoRoot });
    for (const option of options) expect(usage, option).toContain(option);
    expect(options).toEqual(expect.arrayContaining(["--base", "--format", "--accept-breaking"]));
    expect(String(review.run)).toContain("github-actions");
    expect(steps.indexOf(review)).toBeLessThan(steps.findIndex((step) => step.run === "npm test"));
  });
});
