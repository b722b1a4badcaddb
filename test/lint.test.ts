// The contract passes Spectral (sources and bundle) and Redocly (sources and bundle) with no finding at all.
import { describe, expect, it } from "vitest";
import { runTool } from "../scripts/lib/tools.ts";

describe("lint", () => {
  it("Spectral finds nothing in the sources or the bundle", async () => {
    const run = await runTool(
      "spectral",
      ["lint", "--ruleset", ".spectral.yaml", "--format", "json", "--quiet", "--fail-severity", "hint", "openapi/openapi.yaml", "generated/openapi.json"],
      { allowFailure: true },
    );
    expect(JSON.parse(run.stdout || "[]")).toEqual([]);
    expect(run.code).toBe(0);
  });

  it("Redocly finds nothing in the sources", async () => {
    const run = await runTool("redocly", ["lint", "--format", "json"], { allowFailure: true });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as { problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(run.code).toBe(0);
  });

  it("Redocly finds the bundle a valid OpenAPI 3.1 document", async () => {
    const run = await runTool("redocly", ["lint", "generated/openapi.yaml", "--format", "json"], { allowFailure: true });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as { problems: unknown[] };
    expect(report.problems).toEqual([]);
  });
});
