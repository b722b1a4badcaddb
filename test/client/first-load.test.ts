// A browser application built from the installed package loads the unknown path's message only when a call names an
// unknown path: a development build (esbuild with splitting, not minified) puts it in a chunk of its own, outside what
// loads at start, and, run, loads that chunk and says the nearest path; a production build (`vite build`, esbuild
// minified) leaves it out altogether, and with it the bundler's code for loading a chunk, and still refuses the path.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { esbuildLoad, type Load, viteLoad, writeApp } from "../support/first-load.ts";
import { installPacked, type PackedProject } from "../support/packed.ts";

const run = promisify(execFile);

/** Words only the unknown path's message holds (the nearest-path search and its sentence). */
const HINT = "did you mean";

/** An application that makes one call well and one with a mistyped path, and prints what it was told. */
const APP = `import { createClient } from "@svc/health-api-contract/client";
const fetch = async () => new Response("[]", { status: 200, headers: { "content-type": "application/json" } });
const api = createClient({ baseUrl: "https://api.svc.example", apiKey: "sk_test", fetch });
const labs = await api.GET("/v3/lab_tests/labs");
const typo = await api.GET("/v3/lab_test/labs" as never).catch((error) => error);
console.log(JSON.stringify({ labs: labs.status, typo: typo instanceof TypeError ? typo.message : String(typo) }));
`;

let project: PackedProject;
beforeAll(async () => {
  project = await installPacked();
  await writeApp(project.dir, APP);
}, 300_000);
afterAll(() => project?.remove());

/** The files of a build that hold the message. */
const holding = (chunks: Load["start"]) => chunks.filter((chunk) => chunk.code.includes(HINT)).map((chunk) => chunk.file);

/** The built application as a browser would run it, here under Node: its entry imports a chunk when it needs it. */
async function runBuilt(load: Load, name: string): Promise<{ labs: number; typo: string }> {
  const out = path.join(project.dir, name);
  await mkdir(out, { recursive: true });
  for (const chunk of [...load.start, ...load.lazy]) await writeFile(path.join(out, path.basename(chunk.file)), chunk.code);
  await writeFile(path.join(out, "package.json"), JSON.stringify({ type: "module" }));
  const { stdout } = await run(process.execPath, [path.join(out, path.basename(load.start[0]!.file))], { cwd: project.dir });
  return JSON.parse(stdout) as { labs: number; typo: string };
}

describe("the unknown path's message in a browser application", () => {
  it("is a lazily loaded chunk of a development build (esbuild, splitting), loaded when a call names an unknown path", async () => {
    const load = await esbuildLoad(project.dir, "development");
    expect(load.start.length).toBeGreaterThan(0);
    expect(holding(load.start)).toEqual([]);
    expect(holding(load.lazy)).toHaveLength(1);
    expect(await runBuilt(load, "first-load-development")).toEqual({
      labs: 200,
      typo: "GET /v3/lab_test/labs is not an operation of createClient; did you mean GET /v3/lab_tests/labs?",
    });
  });

  it("is left out of a production build, esbuild's (minified) and vite build's, nothing configured: no chunk at all", async () => {
    const [esbuilt, vite] = await Promise.all([esbuildLoad(project.dir), viteLoad(project.dir)]);
    for (const load of [esbuilt, vite]) {
      expect(load.start.length).toBeGreaterThan(0);
      expect(holding([...load.start, ...load.lazy])).toEqual([]);
      expect(load.lazy).toEqual([]);
    }
    // The path is still refused, in the words before the hint.
    expect(await runBuilt(esbuilt, "first-load-production")).toEqual({ labs: 200, typo: "GET /v3/lab_test/labs is not an operation of createClient" });
  });
});
