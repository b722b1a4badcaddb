// The package's version is kept in one place, package.json: the contract's info.version is the build's copy of it (the
// sources hold a placeholder), so a bump there is a bump of the contract, and nothing else can disagree with it.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { bundleContract, SOURCE_VERSION_PLACEHOLDER } from "../scripts/build/bundle.ts";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { readmeForRelease, unreleasedNote } from "../scripts/commands/release/unreleased-note.ts";
import { packageVersion } from "../src/shared/package-version.ts";
import { contract } from "./support/contract.ts";
import { copyOf } from "./support/fresh-copy.ts";

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };

describe("the package's version", () => {
  it("is package.json's, which the bundle and the commands read", () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    expect((contract.info as { version: string }).version).toBe(manifest.version);
    expect(packageVersion()).toBe(manifest.version);
  });

  it("is not written in the sources: openapi.yaml holds a placeholder the build replaces", () => {
    const source = YAML.parse(readFileSync(path.join(repoRoot, "openapi/openapi.yaml"), "utf8")) as { info: { version: string } };
    expect(source.info.version).toBe(SOURCE_VERSION_PLACEHOLDER);
  });

  it("is the one the README's note until the first release (1.0.0) names, a note the release that makes 1.0.0 removes", () => {
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const note = unreleasedNote(readme);
    if (Number(manifest.version.split(".")[0]) === 0) {
      expect(note).toContain(`This is version ${manifest.version}, not yet on the registry: the first release will be 1.0.0.`);
      expect(note).toContain(`npm install ../svc-health-api-contract-${manifest.version}.tgz`);
    } else expect(note, "README.md still has its note until the first release").toBeUndefined();
    const released = readmeForRelease(readme, "1.0.0");
    expect(unreleasedNote(released)).toBeUndefined();
    expect(released).not.toContain("not yet on the registry");
    expect(released).toContain("npm install @svc/health-api-contract\n```\n\nNode.js 20.19 or later");
    expect(readmeForRelease(readme, "0.2.0")).toBe(readme);
  });

  it("follows package.json when it changes, and is the sources' own in a tree without one", async () => {
    const tree = await copyOf(["openapi"]);
    const without = await bundleContract({ root: tree, serviceHistory: false });
    expect((without.info as { version: string }).version).toBe(SOURCE_VERSION_PLACEHOLDER);
    await writeFile(path.join(tree, "package.json"), JSON.stringify({ name: "x", version: "9.8.7" }));
    const bumped = await bundleContract({ root: tree, serviceHistory: false });
    expect((bumped.info as { version: string }).version).toBe("9.8.7");
  });
});
