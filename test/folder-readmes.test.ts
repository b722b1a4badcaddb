// The folder READMEs cannot drift: in every README with a `| file |` table, each file of its folder (but those under a
// subfolder with a README of its own) has a row naming it or its folder, and every name a row gives exists; a row marked
// `(not committed)` names a file a command makes, which git must ignore (checked against .gitignore, not the disk: whether
// another test made it first is no concern of this one).
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { ignoredByGit, rowEntries, rowNames, tracked } from "./support/readme-tables.ts";

const readmes = tracked.filter((file) => path.basename(file) === "README.md" && file !== "README.md" && !file.startsWith("test/fixtures/"));
const documented = readmes.filter((file) => rowNames(readFileSync(path.join(repoRoot, file), "utf8")).length > 0);

describe("folder READMEs", () => {
  it("reads the rows of a file table, braces expanded, and nothing outside it", () => {
    const text =
      "intro `not-a-row.ts`\n\n| file | job |\n|---|---|\n| `a.ts`, `b/{c,d}.ts` | x `e.ts` |\n| `f/` | y |\n\n| figure | how |\n|---|---|\n| `g.ts` | z |\n";
    expect(rowNames(text)).toEqual(["a.ts", "b/c.ts", "b/d.ts", "f/"]);
    expect(rowEntries("| file | job |\n|---|---|\n| `a.ts` | x |\n| `b.html` (not committed) | y |\n")).toEqual([
      { name: "a.ts", committed: true },
      { name: "b.html", committed: false },
    ]);
  });

  it("tells a path git ignores from one it tracks, whether or not it exists", () => {
    expect(ignoredByGit("generated/reference.html")).toBe(true);
    expect(ignoredByGit(".tmp/never-made-by-anything.txt")).toBe(true);
    expect(ignoredByGit("generated/openapi.json")).toBe(false);
    expect(ignoredByGit("generated/not-a-file-git-ignores.html")).toBe(false);
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

    it(`${readme} names only files and folders that exist, and marks (not committed) only what git ignores`, () => {
      const entries = rowEntries(readFileSync(path.join(repoRoot, readme), "utf8"));
      const missing = entries
        .filter(({ committed }) => committed)
        .map(({ name }) => name)
        .filter((name) => {
          const target = path.join(repoRoot, folder, name);
          return name.endsWith("/") ? !(existsSync(target) && statSync(target).isDirectory()) : !existsSync(target);
        });
      expect(missing).toEqual([]);
      const notIgnored = entries
        .filter(({ committed }) => !committed)
        .map(({ name }) => path.posix.join(folder, name))
        .filter((file) => tracked.includes(file) || !ignoredByGit(file));
      expect(notIgnored).toEqual([]);
    });
  }
});
