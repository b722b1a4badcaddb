// The packed tarball's verify command (`npx svc-health-verify`), from a fresh project that installed nothing else: it
// checks the packaged mock with the contract and the workflows the package ships, and, without the optional peer
// @redocly/cli, skips the workflows naming the line that installs it.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { operations } from "../support/contract.ts";
import { installPacked, run, startPackedMock, type PackedProject } from "../support/packed.ts";

let project: PackedProject;
let installed: string;
const RESPECT = "@redocly/cli";

beforeAll(async () => {
  project = await installPacked();
  installed = path.join(project.dir, "node_modules/@svc/health-api-contract");
}, 300_000);
afterAll(() => project?.remove());

interface Report {
  summary: { passed: number; failed: number; skipped: number };
  checks: { suite: string; name: string; status: string; operationId?: string; detail?: string }[];
}

describe("the packaged verify command (npx svc-health-verify)", () => {
  it("ships the workflows, each source description naming a file the package holds", async () => {
    const dir = path.join(installed, "generated/workflows");
    const files = (await readdir(dir)).filter((file) => file.endsWith(".arazzo.yaml"));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const { sourceDescriptions } = YAML.parse(await readFile(path.join(dir, file), "utf8")) as { sourceDescriptions: { url: string }[] };
      for (const { url } of sourceDescriptions) expect(existsSync(path.resolve(dir, url)), `${file}: ${url}`).toBe(true);
    }
  });

  it("checks the packaged mock with Node alone: every operation passes, the workflows are skipped naming the install line, exit 0", async () => {
    // What this test is about: the project has no redocly, as a QA team's would not.
    expect(existsSync(path.join(project.dir, "node_modules", RESPECT))).toBe(false);
    const { peerDependencies } = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    const installLine = `npm install --save-dev ${RESPECT}@${peerDependencies[RESPECT]}`;
    const mock = await startPackedMock(project, "--stateful");
    try {
      // run() rejects on any exit status but 0; the rejection then names the checks that failed, which its own message
      // (npx's stderr) does not.
      const readReport = async () => JSON.parse(await readFile(path.join(project.dir, "report/verify-report.json"), "utf8")) as Report;
      const verify = await run("npx", ["--no-install", "svc-health-verify", "--base-url", mock.url, "--report-dir", "report", "--cases", "4"], {
        cwd: project.dir,
      }).catch(async (error: Error & { stdout?: string }) => {
        const failed = await readReport().then(
          (report) => report.checks.filter((check) => check.status === "failed"),
          () => [],
        );
        throw new Error(`${error.message}\n${error.stdout ?? ""}\nfailed checks: ${JSON.stringify(failed, null, 1)}`);
      });
      const report = await readReport();
      expect(report.summary.failed, verify.stdout).toBe(0);
      const passed = new Set(report.checks.filter((check) => check.suite === "operation" && check.status === "passed").map((check) => check.operationId));
      expect([...passed].sort()).toEqual(operations.map((op) => op.operationId).sort());
      const workflows = report.checks.filter((check) => check.suite.startsWith("workflow"));
      expect(workflows.length).toBeGreaterThan(0);
      for (const check of workflows) {
        expect(check.status, check.name).toBe("skipped");
        expect(check.detail, check.name).toContain(installLine);
      }
      expect(verify.stdout).toContain(installLine);
      expect(verify.stdout).toMatch(/verify: \d+ passed, 0 failed, \d+ skipped against \S+: \d+ requests in [\d.]+ s\n$/);
    } finally {
      mock.stop();
    }
  });

  it("lists its options with --help, naming the optional peer that runs the workflows", async () => {
    // The command npx ran above, from node_modules/.bin without npx's start-up: one launch by npx is enough.
    const help = await run(path.join(project.dir, "node_modules/.bin/svc-health-verify"), ["--help"], { cwd: project.dir });
    expect(help.stdout).toContain("Usage: npx svc-health-verify --base-url <url>");
    expect(help.stdout).toContain(RESPECT);
    expect(help.stdout).toContain("--version");
    // The version the package's own package.json holds: the installed one's, which is the repository's.
    const version = await run(path.join(project.dir, "node_modules/.bin/svc-health-verify"), ["--version"], { cwd: project.dir });
    expect(version.stdout.trim()).toBe(
      JSON.parse(await readFile(path.join(project.dir, "node_modules/@svc/health-api-contract/package.json"), "utf8")).version,
    );
  });
});
