// The README stays true: its client and events examples are the type-checked copies.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";

const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
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
