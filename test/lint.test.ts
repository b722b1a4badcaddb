// The contract passes Spectral (sources and bundle) and Redocly (sources and bundle) with no finding at all.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { redoclyProblemsEach, spectralFindings, type RedoclyProblem, type SpectralFinding } from "../scripts/commands/lint.ts";

const BUNDLE = "generated/openapi.yaml";
let spectral: SpectralFinding[];
/** Redocly's problems per API of redocly.yaml (the sources, the workflows), then the bundle's, from one Redocly run. */
let redocly: Map<string, RedoclyProblem[]>;

beforeAll(async () => {
  const apis = Object.keys((YAML.parse(await readFile(path.join(repoRoot, "redocly.yaml"), "utf8")) as { apis: Record<string, unknown> }).apis);
  const targets = [...apis, BUNDLE];
  // Spectral runs in this process while Redocly runs in its own.
  let reports: RedoclyProblem[][];
  [spectral, reports] = await Promise.all([spectralFindings(), redoclyProblemsEach(targets)]);
  redocly = new Map(targets.map((target, index) => [target, reports[index]!]));
});

describe("lint", () => {
  it("Spectral finds nothing in the sources or the bundle", () => {
    expect(spectral).toEqual([]);
  });

  it("Redocly finds nothing in the sources", () => {
    expect([...redocly].filter(([target]) => target !== BUNDLE).flatMap(([, problems]) => problems)).toEqual([]);
  });

  it("Redocly finds the bundle a valid OpenAPI 3.1 document", () => {
    expect(redocly.get(BUNDLE)).toEqual([]);
  });
});
