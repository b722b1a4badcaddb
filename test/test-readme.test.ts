// A file's tests are found from the file: every `.ts` file of src/ is named in the `covers` column of test/README.md,
// and every name there is a file of src/, so whoever edits one searches that page for its path and runs what it finds.
// (test/folder-readmes.test.ts keeps the first column, the test files, true.)
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { rowNames, tracked } from "./support/readme-tables.ts";

const HEADER = "| file | what it proves | covers |";

/** What the README's covers get wrong about the sources: files no row names, and names that are no source file. */
function coversProblems(text: string, sources: string[]): { unnamed: string[]; unknown: string[] } {
  const named = new Set(rowNames(text, "covers"));
  const known = new Set(sources);
  return {
    unnamed: sources.filter((file) => !named.has(file)),
    unknown: [...named].filter((name) => !known.has(name)),
  };
}

/** The file tables' header lines, and their rows that lack a covers cell (a name in backticks, or `—`). */
function tableShape(text: string): { headers: string[]; withoutCovers: string[] } {
  const lines = text.split("\n");
  const headers = lines.filter((line) => /^\|\s*file\b/.test(line));
  const rows = lines.filter((line) => /^\|\s*`/.test(line));
  const withoutCovers = rows.filter((line) => !/\|\s*(—|`[^|]*`)\s*\|$/.test(line) || line.split(/(?<!\\)\|/).length !== 5);
  return { headers, withoutCovers };
}

const sources = tracked.filter((file) => file.startsWith("src/") && file.endsWith(".ts"));
const readme = readFileSync(path.join(repoRoot, "test/README.md"), "utf8");

describe("test/README.md's covers", () => {
  it("finds a source file no row covers, a name that is no source file, and a row without its covers cell", () => {
    const text = [
      "intro `src/c.ts`",
      "",
      HEADER,
      "|---|---|---|",
      "| `a.test.ts` | proves `src/c.ts` | `src/a.ts`, `src/b/{d,gone}.ts` |",
      "| `e.test.ts` | proves | — |",
      "| `f.test.ts` | forgot its covers |",
      "",
      "| file | what it holds |",
      "|---|---|",
      "| `g.ts` | `src/c.ts` |",
    ].join("\n");
    expect(coversProblems(text, ["src/a.ts", "src/b/d.ts", "src/c.ts"])).toEqual({ unnamed: ["src/c.ts"], unknown: ["src/b/gone.ts"] });
    expect(tableShape(text)).toEqual({
      headers: [HEADER, "| file | what it holds |"],
      withoutCovers: ["| `f.test.ts` | forgot its covers |", "| `g.ts` | `src/c.ts` |"],
    });
  });

  it("reads the source files git has (more than a hundred), so an empty list cannot pass", () => {
    expect(sources.length).toBeGreaterThan(100);
  });

  it("has a covers column in every file table, and a covers cell in every row", () => {
    const shape = tableShape(readme);
    expect(shape.headers.length).toBeGreaterThan(10);
    expect(shape.headers.filter((header) => header !== HEADER)).toEqual([]);
    expect(shape.withoutCovers).toEqual([]);
  });

  it("names every .ts file of src/ in some row's covers, and nothing that is not one", () => {
    expect(coversProblems(readme, sources)).toEqual({ unnamed: [], unknown: [] });
  });
});
