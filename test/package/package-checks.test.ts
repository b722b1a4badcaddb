// publint (strict) and Are the Types Wrong (every resolution it knows, node10 included) find nothing wrong with the package
// as npm packs it: the tarball support/packed.ts made, which the other package tests install, rather than a packing of
// each tool's own.
import { spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { binPath } from "../../scripts/build/lib/tools.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { packedTarball, run } from "../support/packed.ts";

describe("package checks", () => {
  it("publint --strict finds nothing", async () => {
    const { stdout } = await run(binPath("publint"), ["run", await packedTarball(), "--strict"], { cwd: repoRoot });
    expect(stdout).toContain("All good!");
  });

  it("attw finds no problem in any entry under any resolution: node10 (typesVersions), node16 from CJS and ESM, bundler", async () => {
    // The YAML bundle is a file to read (require.resolve), not a module TypeScript could resolve types for. The report
    // goes to a file: attw exits as soon as it finds a problem, and a pipe loses what it had not yet drained.
    const reportFile = path.join(await mkdtemp(path.join(os.tmpdir(), "attw-")), "report.json");
    const out = await open(reportFile, "w");
    const child = spawn(binPath("attw"), [await packedTarball(), "--exclude-entrypoints", "./openapi.yaml", "--format", "json"], {
      cwd: repoRoot,
      stdio: ["ignore", out.fd, "inherit"],
    });
    await new Promise((resolve) => child.on("exit", resolve));
    await out.close();
    const stdout = await readFile(reportFile, "utf8");
    await rm(path.dirname(reportFile), { recursive: true, force: true });
    const report = JSON.parse(stdout) as {
      problems: Record<string, { entrypoint: string; resolutionKind: string }[]>;
      analysis: { entrypoints: Record<string, { resolutions: Record<string, unknown> }> };
    };
    expect(Object.values(report.problems).flat()).toEqual([]);
    const entrypoints = report.analysis.entrypoints;
    expect(Object.keys(entrypoints)).toEqual(
      expect.arrayContaining([".", "./client", "./management", "./types", "./webhooks", "./mock", "./mock/msw", "./openapi.json"]),
    );
    // Every entry was resolved under each of the four: no resolution left out of the run that found nothing.
    for (const [entry, { resolutions }] of Object.entries(entrypoints))
      expect(Object.keys(resolutions).sort(), entry).toEqual(["bundler", "node10", "node16-cjs", "node16-esm"]);
  });
});
