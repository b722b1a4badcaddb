// The README stays true: its traceability table names existing files and covers every section of the interface document, and its client example compiles.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/lib/paths.ts";

const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
const table = readme.slice(readme.indexOf("## Traceability"));
const rows = table.split("\n").filter((line) => /^\| \d/.test(line));

/** The numbered sections of the interface document (its headings "## N." and "### N.M"). */
const SECTIONS = [
  "1", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12", "2.13", "3",
  "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "4.8", "4.9", "4.10", "4.11", "4.12", "4.13", "4.14", "5", "6", "7", "8", "9",
];
const DOCUMENT = path.join(repoRoot, "..", "shared", "seed", "000_3cd0027fc84847a6.txt");

describe("README traceability table", () => {
  it("has one row per section of the interface document, in order", () => {
    expect(rows.map((row) => /^\| ([\d.]+) /.exec(row)?.[1])).toEqual(SECTIONS);
  });

  it.skipIf(!existsSync(DOCUMENT))("lists the sections the interface document has", () => {
    const headings = [...readFileSync(DOCUMENT, "utf8").matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]!);
    // A section with subsections (2, 4) is covered by its subsections' rows.
    const leaves = headings.filter((h) => !headings.some((other) => other.startsWith(`${h}.`)));
    expect(leaves).toEqual(SECTIONS);
  });

  for (const row of rows) {
    const section = /^\| ([\d.]+) /.exec(row)![1];
    it(`names only files that exist, for section ${section}`, () => {
      const files = [...row.matchAll(/`([\w./{}-]+\.(?:yaml|md))`/g)].map((m) => m[1]!);
      for (const file of files) {
        const resolved = file.startsWith("openapi/") ? path.join(repoRoot, file) : path.join(repoRoot, "openapi", file);
        expect(existsSync(resolved), `${file} (section ${section})`).toBe(true);
      }
      if (!row.includes("not yet")) expect(files.length, `section ${section} names no file`).toBeGreaterThan(0);
    });
  }
});

/** The spec files a row must trace: every schema, parameter, path item, response and security scheme under openapi/. */
function tracedFiles(): string[] {
  const root = path.join(repoRoot, "openapi");
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => /(^|\/)(schemas|parameters|paths|responses|security)\/[^/]+\.yaml$/.test(file))
    .sort();
}

describe("README traceability table covers the spec", () => {
  const named = new Set(rows.flatMap((row) => [...row.matchAll(/`([\w./{}-]+\.yaml)`/g)].map((m) => m[1]!.replace(/^openapi\//, ""))));

  it("finds the spec files to trace", () => {
    expect(tracedFiles().length).toBeGreaterThan(50);
  });

  for (const file of tracedFiles()) {
    it(`names ${file} in some row`, () => {
      expect(named.has(file), `${file} is in no row of the traceability table`).toBe(true);
    });
  }
});

describe("README events example", () => {
  it("is the type-checked copy in test/types/readme-events-example.ts, below its five lines of header and declarations", () => {
    const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)][1]![1]!;
    const copy = readFileSync(path.join(repoRoot, "test/types/readme-events-example.ts"), "utf8");
    expect(copy.split("\n").slice(5).join("\n")).toBe(block);
  });
});

describe("README client example", () => {
  it("is the type-checked copy in test/types/readme-client-example.ts", () => {
    const block = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const copy = readFileSync(path.join(repoRoot, "test/types/readme-client-example.ts"), "utf8");
    expect(copy.slice(copy.indexOf("\n") + 1)).toBe(block);
  });
});
