// The publish workflow cannot run here; what it calls can. It must run on a release tag, run CI's tests in a job without
// the publish credential, then, in a protected environment, the release command's check with options the command takes,
// and publish with provenance under the dist-tag the command names; `npm publish` from a laptop runs the same check.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

const run = promisify(execFile);

describe(".github/workflows/release.yml", async () => {
  const workflow = YAML.parse(await readFile(path.join(repoRoot, ".github/workflows/release.yml"), "utf8")) as Record<string, any>;
  const job = workflow.jobs.publish as Record<string, any>;
  const steps = job.steps as Record<string, any>[];
  const tests = workflow.jobs.test as Record<string, any>;
  const index = (text: string) => steps.findIndex((step) => String(step.run ?? "").includes(text));
  const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };

  it("runs on a pushed v* tag only, in the protected release environment, with the whole history", () => {
    expect(Object.keys(workflow.on)).toEqual(["push"]);
    expect(workflow.on.push).toEqual({ tags: ["v*"] });
    expect(job.environment).toBe("release");
    expect(steps.find((step) => String(step.uses).startsWith("actions/checkout"))?.with?.["fetch-depth"]).toBe(0);
  });

  it("tests with CI's own script in a job without the publish credential, then checks the tag against the version and the changes, then publishes", async () => {
    expect((tests.steps as Record<string, any>[]).some((step) => step.run === ".ci/run")).toBe(true);
    expect(tests.permissions).toBeUndefined();
    expect(tests.environment).toBeUndefined();
    expect(job.needs).toBe("test");
    const check = index("npm run release -- --check");
    const dist = index("--dist-tag");
    const publish = index("npm publish");
    expect(index(".ci/run")).toBe(-1);
    expect(check).toBeGreaterThanOrEqual(0);
    expect(check).toBeLessThan(dist);
    expect(dist).toBeLessThan(publish);
    expect(steps[check]!.run).toContain('--tag "$GITHUB_REF_NAME"');
    const { stdout: usage } = await run(process.execPath, ["--import", "tsx", "scripts/commands/release.ts", "--help"], { cwd: repoRoot });
    const options = [...`${steps[check]!.run} ${steps[dist]!.run}`.matchAll(/release -- ([^)"]+)/g)].flatMap((match) => match[1]!.match(/--[a-z-]+/g) ?? []);
    expect(options).toEqual(expect.arrayContaining(["--check", "--tag", "--dist-tag"]));
    for (const option of options) expect(usage, option).toContain(option);
  });

  it("publishes with provenance, which needs the hosted runner's OIDC token (id-token: write): the signing itself is not run here", () => {
    expect(job.permissions["id-token"]).toBe("write");
    expect(workflow.permissions).toEqual({ contents: "read" });
    // The dist-tag comes from its own step: an empty one (its step failed to print) stops the publish.
    expect(steps[index("npm publish")]!.run).toBe('test -n "$DIST_TAG" && npm publish --provenance --access public --tag "$DIST_TAG"');
    expect(steps[index("npm publish")]!.env.DIST_TAG).toBe("${{ steps.dist.outputs.tag }}");
  });

  it("is what `npm publish` from a laptop meets too: prepublishOnly runs the same check", () => {
    expect(manifest.scripts.prepublishOnly).toBe("tsx scripts/commands/release.ts --check");
    expect(manifest.scripts.release).toBe("tsx scripts/commands/release.ts");
  });
});
