// publint (strict) and Are the Types Wrong (node16 profile) find nothing wrong with the package as npm packs it: the
// tarball support/packed.ts made, which the other package tests install, rather than a packing of each tool's own.
import { describe, expect, it } from "vitest";
import { binPath } from "../../scripts/build/lib/tools.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { packedTarball, run } from "../support/packed.ts";

describe("package checks", () => {
  it("publint --strict finds nothing", async () => {
    const { stdout } = await run(binPath("publint"), ["run", await packedTarball(), "--strict"], { cwd: repoRoot });
    expect(stdout).toContain("All good!");
  });

  it("attw --profile node16 finds no problem in any entry", async () => {
    // The YAML bundle is a file to read (require.resolve), not a module TypeScript could resolve types for.
    const { stdout } = await run(
      binPath("attw"),
      [await packedTarball(), "--profile", "node16", "--exclude-entrypoints", "./openapi.yaml", "--format", "json"],
      { cwd: repoRoot },
    );
    const report = JSON.parse(stdout) as { problems: Record<string, { entrypoint: string; resolutionKind: string }[]> };
    // The node16 profile ignores node10 resolution, which cannot see subpath exports; every other one must be clean.
    const problems = Object.values(report.problems)
      .flat()
      .filter((problem) => problem.resolutionKind !== "node10");
    expect(problems).toEqual([]);
    expect(Object.keys((report as unknown as { analysis: { entrypoints: object } }).analysis.entrypoints)).toEqual(
      expect.arrayContaining([".", "./client", "./types", "./openapi.json"]),
    );
  });
});
