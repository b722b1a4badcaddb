// The code the package ships (src/) imports nothing from the repository's build room (scripts/) or the tests: the
// packaged mock command is built from src/ alone, and would otherwise carry repository paths and tools inside it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/lib/paths.ts";

/** Every module specifier a TypeScript file names: static imports and exports, and dynamic import(). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((match) => match[1]!);
}

const src = path.join(repoRoot, "src");
const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));

describe("src/ imports", () => {
  it("finds the imports it checks", () => {
    expect(specifiers(readFileSync(path.join(src, "mock/host.ts"), "utf8"))).toEqual(expect.arrayContaining(["node:http", "./pipeline.ts"]));
    expect(specifiers('const x = await import("../../scripts/lib/net.ts");')).toEqual(["../../scripts/lib/net.ts"]);
  });

  for (const file of files) {
    it(`src/${file} imports nothing from scripts/ or test/`, () => {
      const outside = specifiers(readFileSync(path.join(src, file), "utf8"))
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.relative(repoRoot, path.resolve(path.dirname(path.join(src, file)), specifier)))
        .filter((target) => /^(scripts|test)[\\/]/.test(target));
      expect(outside).toEqual([]);
    });
  }
});
