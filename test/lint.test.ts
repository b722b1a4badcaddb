// The contract passes Spectral (sources and bundle) and Redocly (sources and bundle) with no finding at all.
import { describe, expect, it } from "vitest";
import { redoclyProblems, spectralFindings } from "../scripts/commands/lint.ts";

describe("lint", () => {
  it("Spectral finds nothing in the sources or the bundle", async () => {
    expect(await spectralFindings()).toEqual([]);
  });

  it("Redocly finds nothing in the sources", async () => {
    expect(await redoclyProblems()).toEqual([]);
  });

  it("Redocly finds the bundle a valid OpenAPI 3.1 document", async () => {
    expect(await redoclyProblems("generated/openapi.yaml")).toEqual([]);
  });
});
