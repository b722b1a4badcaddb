// The layout's directions, file by file: what ships (src/) imports nothing from the repository's build, its commands
// or the tests (the packaged commands are built from src/ alone); the build (scripts/build/) does not import the
// repository's commands; the contract model (src/contract/) imports neither the mock nor verify, which use it; the two
// products meet only through what sits below both (src/contract/, src/net/, src/shared/), never importing each other;
// the build and the repository's commands reach a product only through the module it offers them; and no import
// circle, type imports included, anywhere in src/ or scripts/.
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
  { files: "src/mock", forbidden: ["src/verify/"] },
  { files: "src/verify", forbidden: ["src/mock/"] },
];

/** What a product offers the repository's build and commands: the only files of it they import. */
const OFFERED: Record<string, string[]> = {
  "src/mock/": ["src/mock/server.ts", "src/mock/index.ts"],
  "src/verify/": ["src/verify/run.ts"],
};

/** The import graph of these folders: each file and the files it reaches, a `.js` specifier meaning its `.ts` source. */
function graph(folders: string[]): Map<string, string[]> {
  const files = new Set(folders.flatMap(sources));
  return new Map(
    [...files].map((file) => [
      file,
      targets(file)
        .map((target) => (files.has(target) ? target : target.replace(/\.js$/, ".ts")))
        .filter((target) => files.has(target)),
    ]),
  );
}

/** The circles of a graph (its strongly connected parts of more than one file, or a file importing itself), each sorted. */
export function circles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(part.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("imports", () => {
  it("finds the imports it checks, and a rule's breach", () => {
    expect(specifiers(readFileSync(path.join(repoRoot, "src/mock/host.ts"), "utf8"))).toEqual(expect.arrayContaining(["node:http", "./pipeline.ts"]));
    expect(specifiers('const x = await import("../../scripts/lib/net.ts");')).toEqual(["../../scripts/lib/net.ts"]);
    expect(targets("src/verify/run.ts")).toContain("src/contract/validator.ts");
  });

  it("finds a circle where there is one, type imports and a file importing itself included", () => {
    const edges = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["d.ts"]],
      ["e.ts", ["a.ts"]],
    ]);
    expect(circles(edges)).toEqual([["a.ts", "b.ts", "c.ts"], ["d.ts"]]);
    expect(specifiers('import type { X } from "./x.ts";')).toEqual(["./x.ts"]);
  });

  it("has no import circle in src/ or scripts/", () => {
    const edges = graph(["src", "scripts"]);
    expect(edges.size).toBeGreaterThan(150);
    expect(circles(edges)).toEqual([]);
  });

  for (const file of sources("scripts")) {
    it(`${file} reaches the mock and verify only through what they offer the repository`, () => {
      const reached = targets(file).map((target) => target.replace(/\.js$/, ".ts"));
      const internal = reached.filter((target) => Object.entries(OFFERED).some(([folder, offered]) => target.startsWith(folder) && !offered.includes(target)));
      expect(internal).toEqual([]);
    });
  }

  for (const { files, forbidden } of RULES) {
    for (const file of sources(files)) {
      it(`${file} imports nothing from ${forbidden.join(" or ")}`, () => {
        expect(targets(file).filter((target) => forbidden.some((folder) => target.startsWith(folder)))).toEqual([]);
      });
    }
  }
});
