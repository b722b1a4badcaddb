// Names that tell the role: no two files under src/ share a base name (but the entries' index.ts and cli.ts, and the
// folder READMEs), so a path alone says which answers, collections or HTTP module a reader has in front of them.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";

/** Base names several folders may each have one of. */
const SHARED = new Set(["index.ts", "cli.ts", "README.md"]);

/** Each base name held by more than one file of the folder, with the files. */
export function sharedNames(files: string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(path.basename(file), [...(byName.get(path.basename(file)) ?? []), file]);
  return Object.fromEntries([...byName].filter(([name, holders]) => holders.length > 1 && !SHARED.has(name)));
}

describe("file names under src/", () => {
  it("finds a base name held twice, and lets the entries' index.ts and cli.ts be", () => {
    expect(sharedNames(["a/http.ts", "b/http.ts", "a/index.ts", "b/index.ts", "c/cli.ts", "d/cli.ts", "e/one.ts"])).toEqual({
      "http.ts": ["a/http.ts", "b/http.ts"],
    });
  });

  it("gives no two files one base name", () => {
    const files = readdirSync(path.join(repoRoot, "src"), { recursive: true, encoding: "utf8" }).filter((file) => /\.(ts|md)$/.test(file));
    expect(files.length).toBeGreaterThan(100);
    expect(sharedNames(files)).toEqual({});
  });
});
