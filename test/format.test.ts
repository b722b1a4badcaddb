// One formatter keeps the style of the hand-written code (biome.json: Biome, 160 columns, the quotes and commas the
// code already used): `npm run format` writes it, and this test fails on any file it would change, naming the file.
// Its scope leaves out generated/ (the freshness test's) and test/fixtures/.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { binPath, toolEnv } from "../scripts/build/lib/tools.ts";
import { repoRoot } from "../scripts/build/lib/paths.ts";

function biome(args: string[], input?: string): { code: number; out: string } {
  const run = spawnSync(binPath("biome"), args, { cwd: repoRoot, env: toolEnv, encoding: "utf8", ...(input === undefined ? {} : { input }) });
  return { code: run.status ?? 1, out: `${run.stdout}${run.stderr}` };
}

describe("the formatter", () => {
  it("would change no file of the hand-written code (npm run format writes what it asks)", () => {
    const { code, out } = biome(["format", "."]);
    expect(code, out).toBe(0);
    // It read the code, not an empty scope.
    expect(out).toMatch(/Checked ([3-9]\d\d|\d{4,}) files/);
  });

  it("would change a file written another way: a long line, single quotes, no semicolon", () => {
    const unformatted = `export const answer = { status: 'ok', detail: 'a detail long enough to pass the line length of one hundred and sixty columns that the hand-written code uses, by some way' }\n`;
    const { code, out } = biome(["format", "--stdin-file-path=src/example.ts"], unformatted);
    expect(code).toBe(0);
    expect(out).not.toBe(unformatted);
    expect(out).toContain('status: "ok",\n');
  });

  it("leaves generated/ to its own test", () => {
    const { out } = biome(["format", "--verbose", "generated/client/core.js"]);
    expect(out).not.toMatch(/would have printed/);
  });
});
