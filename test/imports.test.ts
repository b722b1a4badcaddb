// The layout's directions, file by file: what ships (src/) imports nothing from the repository's build, its commands
// or the tests (the packaged commands are built from src/ alone); the build (scripts/build/) does not import the
// repository's commands; and the contract model (src/contract/) imports neither the mock nor verify, which use it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";

/** Every module specifier a TypeScript file names: static imports and exports, and dynamic import(). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((match) => match[1]!);
}

/** The repository paths a file's relative imports reach. */
function targets(file: string): string[] {
  return specifiers(readFileSync(path.join(repoRoot, file), "utf8"))
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) =>
      path
        .relative(repoRoot, path.resolve(path.dirname(path.join(repoRoot, file)), specifier))
        .split(path.sep)
        .join("/"),
    );
}

function sources(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|js|mjs)$/.test(file))
    .map((file) => `${folder}/${file.split(path.sep).join("/")}`);
}

/** Each rule: the files it covers, and the folders they must not import from. */
const RULES: { files: string; forbidden: string[] }[] = [
  { files: "src", forbidden: ["scripts/", "test/"] },
  { files: "scripts/build", forbidden: ["scripts/commands/", "test/"] },
  { files: "src/contract", forbidden: ["src/mock/", "src/verify/"] },
];

describe("imports", () => {
  it("finds the imports it checks, and a rule's breach", () => {
    expect(specifiers(readFileSync(path.join(repoRoot, "src/mock/host.ts"), "utf8"))).toEqual(expect.arrayContaining(["node:http", "./pipeline.ts"]));
    expect(specifiers('const x = await import("../../scripts/lib/net.ts");')).toEqual(["../../scripts/lib/net.ts"]);
    expect(targets("src/verify/run.ts")).toContain("src/contract/validator.ts");
  });

  for (const { files, forbidden } of RULES) {
    for (const file of sources(files)) {
      it(`${file} imports nothing from ${forbidden.join(" or ")}`, () => {
        expect(targets(file).filter((target) => forbidden.some((folder) => target.startsWith(folder)))).toEqual([]);
      });
    }
  }
});
