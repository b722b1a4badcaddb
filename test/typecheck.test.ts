// The scripts, tests and generated client type-check, including test/types/, whose @ts-expect-error lines fail the build if the types loosen.
import { describe, expect, it } from "vitest";
import { runTool } from "../scripts/build/lib/tools.ts";

describe("TypeScript", () => {
  it("type-checks the package with tsc", async () => {
    const run = await runTool("tsc", ["-p", "tsconfig.json"], { allowFailure: true });
    expect(run.stdout + run.stderr).toBe("");
    expect(run.code).toBe(0);
  });
});
