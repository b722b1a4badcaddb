// Every lint waiver in force gives its reason and still waives something: a waiver that matches nothing is rot that would
// hide the next real finding.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleContract } from "../../scripts/build/bundle.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { staleWaivers, waiversInForce } from "../../scripts/commands/review/waivers.ts";

const FIXTURE = path.join(repoRoot, "test/fixtures/review/repo");
const made: string[] = [];

afterAll(async () => {
  await Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** The review fixture with a Spectral waiver of its summary rule (and optionally a Redocly ignore entry). */
async function fixtureWithWaiver(options: { summary: string; redoclyIgnore?: string; waivedFiles?: string[]; bundled?: boolean }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-waivers-"));
  made.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  const ruleset = path.join(dir, ".spectral.yaml");
  await writeFile(
    ruleset,
    `${await readFile(ruleset, "utf8")}overrides:\n  - x-svc-waiver: Summaries of this fixture end with a period (test only).\n    files:\n${(options.waivedFiles ?? ["openapi/**/*.yaml"]).map((file) => `      - "${file}"\n`).join("")}    rules:\n      svc-summary-style: off\n`,
  );
  const getThing = path.join(dir, "openapi/things/paths/v2_things_{thing_id}.yaml");
  await writeFile(getThing, (await readFile(getThing, "utf8")).replace("summary: Get a thing", `summary: ${options.summary}`));
  if (options.redoclyIgnore) await writeFile(path.join(dir, ".redocly.lint-ignore.yaml"), options.redoclyIgnore);
  if (options.bundled) {
    await mkdir(path.join(dir, "generated"));
    await writeFile(path.join(dir, "generated/openapi.json"), JSON.stringify(await bundleContract({ root: dir, serviceHistory: false }), null, 2));
  }
  return dir;
}

describe("lint waivers", () => {
  it("each give a reason, and each Spectral waiver cites the document's section or says why the rule does not apply", async () => {
    const waivers = await waiversInForce(repoRoot);
    expect(waivers.length).toBeGreaterThan(0);
    for (const waiver of waivers) {
      expect(waiver.reason, waiver.rules.join(", ")).toMatch(/\S.*\.$/);
    }
  });

  it("in force in this package all still match a finding", async () => {
    expect(await staleWaivers(repoRoot)).toEqual([]);
  });

  it("are reported stale when what they waive is gone, and not while it is there", async () => {
    const live = await fixtureWithWaiver({ summary: "Get a thing." });
    const rotten = await fixtureWithWaiver({
      summary: "Get a thing",
      redoclyIgnore: "# A component that was removed long ago.\nopenapi/openapi.yaml:\n  no-unused-components:\n    - '#/components/schemas/Gone'\n",
    });
    // The rule still fires, but in a file the waiver does not name: it waives nothing.
    const misplaced = await fixtureWithWaiver({ summary: "Get a thing.", waivedFiles: ["openapi/things/paths/v2_things.yaml"] });
    // A waiver of the bundle alone: the sources' findings cannot match it, the bundle's must be looked at.
    const inBundle = await fixtureWithWaiver({ summary: "Get a thing.", waivedFiles: ["generated/openapi.json"], bundled: true });
    const goneFromBundle = await fixtureWithWaiver({ summary: "Get a thing", waivedFiles: ["generated/openapi.json"], bundled: true });
    const [stillLive, stale, elsewhere, liveInBundle, staleInBundle] = await Promise.all([
      staleWaivers(live),
      staleWaivers(rotten),
      staleWaivers(misplaced),
      staleWaivers(inBundle),
      staleWaivers(goneFromBundle),
    ]);
    expect(stillLive).toEqual([]);
    expect(liveInBundle).toEqual([]);
    expect(staleInBundle.map((waiver) => waiver.files)).toEqual([["generated/openapi.json"]]);
    expect(elsewhere.map((waiver) => waiver.files)).toEqual([["openapi/things/paths/v2_things.yaml"]]);
    expect(stale.map((waiver) => [waiver.tool, waiver.rules, waiver.reason])).toEqual([
      ["spectral", ["svc-summary-style"], "Summaries of this fixture end with a period (test only)."],
      ["redocly", ["no-unused-components"], "A component that was removed long ago."],
    ]);
  });
});
