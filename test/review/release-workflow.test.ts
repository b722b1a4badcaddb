// The publish workflow cannot run here; what it calls can. It must run on a release tag in a protected environment, run
// CI's tests, then the release command's check with options the command takes, and publish with provenance under the
// dist-tag the command names; `npm publish` from a laptop runs the same check (prepublishOnly).
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
  const index = (text: string) => steps.findIndex((step) => String(step.run ?? "").includes(text));
  const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };

  it("runs on a pushed v* tag only, in the protected release environment, with the whole history", () => {
    expect(Object.keys(workflow.on)).toEqual(["push"]);
    expect(workflow.on.push).toEqual({ tags: ["v*"] });
    expect(job.environment).toBe("release");
    expect(steps.find((step) => String(step.uses).startsWith("actions/checkout"))?.with?.["fetch-depth"]).toBe(0);
  });

  it("tests with CI's own script, then checks the tag against the version and the changes, then publishes", async () => {
    const test = index(".ci/run");
    const check = index("npm run release -- --check");
    const publish = index("npm publish");
    expect(test).toBeGreaterThanOrEqual(0);
    expect(test).toBeLessThan(check);
    expect(check).toBeLessThan(publish);
    expect(steps[check]!.run).toContain('--tag "$GITHUB_REF_NAME"');
    const { stdout: usage } = await run(process.execPath, ["--import", "tsx", "scripts/commands/release.ts", "--help"], { cwd: repoRoot });
    const options = [...`${steps[check]!.run} ${steps[publish]!.run}`.matchAll(/release -- ([^)"]+)/g)].flatMap((match) => match[1]!.match(/--[a-z-]+/g) ?? []);
    expect(options).toEqual(expect.arrayContaining(["--check", "--tag", "--dist-tag"]));
    for (const option of options) expect(usage, option).toContain(option);
  });

  it("publishes with provenance, which needs the hosted runner's OIDC token (id-token: write): the signing itself is not run here", () => {
    expect(job.permissions["id-token"]).toBe("write");
    expect(workflow.permissions).toEqual({ contents: "read" });
    expect(steps[index("npm publish")]!.run).toMatch(/^npm publish --provenance --access public --tag "\$\(npm run --silent release -- --dist-tag\)"$/);
  });

  it("is what `npm publish` from a laptop meets too: prepublishOnly runs the same check", () => {
    expect(manifest.scripts.prepublishOnly).toBe("tsx scripts/commands/release.ts --check");
    expect(manifest.scripts.release).toBe("tsx scripts/commands/release.ts");
  });
});
