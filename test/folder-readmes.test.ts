// The folder READMEs cannot drift: in every README with a `| file |` table, each file of its folder (but those under a
// subfolder with a README of its own) has a row naming it or its folder, and every name a row gives exists.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";

/** The repository's files as git tracks them, with what is added but not yet committed. */
const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && existsSync(path.join(repoRoot, file)));

/** `contract/{link,users}.test.ts` → both names. */
function expandBraces(name: string): string[] {
  const match = /\{([^{}]+)\}/.exec(name);
  if (match === null) return [name];
  return match[1]!.split(",").flatMap((part) => expandBraces(name.replace(match[0], part)));
}

/** The names the first cell of each row of the README's `| file |` tables gives (a cell may name several). */
export function rowNames(text: string): string[] {
  const names: string[] = [];
  let inFileTable = false;
  for (const line of text.split("\n")) {
    if (!line.startsWith("|")) {
      inFileTable = false;
      continue;
    }
    const first = line.split("|")[1]!.trim();
    if (/^file\b/i.test(first)) inFileTable = true;
    else if (inFileTable && !/^-+$/.test(first)) {
      for (const [, name] of first.matchAll(/`([^`]+)`/g)) names.push(...expandBraces(name!));
    }
  }
  return names;
}

const readmes = tracked.filter((file) => path.basename(file) === "README.md" && file !== "README.md" && !file.startsWith("test/fixtures/"));
const documented = readmes.filter((file) => rowNames(readFileSync(path.join(repoRoot, file), "utf8")).length > 0);

describe("folder READMEs", () => {
  it("reads the rows of a file table, braces expanded, and nothing outside it", () => {
    const text =
      "intro `not-a-row.ts`\n\n| file | job |\n|---|---|\n| `a.ts`, `b/{c,d}.ts` | x `e.ts` |\n| `f/` | y |\n\n| figure | how |\n|---|---|\n| `g.ts` | z |\n";
    expect(rowNames(text)).toEqual(["a.ts", "b/c.ts", "b/d.ts", "f/"]);
  });

  it("covers the folders whose code has a README: src, scripts, generated, test", () => {
    for (const folder of ["src", "scripts/build", "scripts/commands", "generated", "test"]) expect(documented).toContain(`${folder}/README.md`);
  });

  for (const readme of documented) {
    const folder = path.dirname(readme);
    const names = rowNames(readFileSync(path.join(repoRoot, readme), "utf8"));
    // A subfolder with a README of its own documents its files there.
    const nested = readmes.map((other) => path.dirname(other)).filter((other) => other !== folder && other.startsWith(`${folder}/`));
    const files = tracked.filter((file) => file.startsWith(`${folder}/`) && file !== readme && !nested.some((inner) => file.startsWith(`${inner}/`)));

    it(`${readme} names every file of ${folder}/`, () => {
      const covered = (file: string) => {
        const relative = file.slice(folder.length + 1);
        return names.some((name) => (name.endsWith("/") ? relative.startsWith(name) : relative === name));
      };
      expect(files.filter((file) => !covered(file))).toEqual([]);
    });

    it(`${readme} names only files and folders that exist`, () => {
      const missing = names.filter((name) => {
        const target = path.join(repoRoot, folder, name);
        return name.endsWith("/") ? !(existsSync(target) && statSync(target).isDirectory()) : !existsSync(target);
      });
      expect(missing).toEqual([]);
    });
  }
});
