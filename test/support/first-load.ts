// What a browser application loads at start, and what it loads only later, as esbuild (with splitting) and `vite build`
// (the repository's Vite, nothing configured) bundle it: each JavaScript file with its gzip size. The bench's size
// figures and the test that the unknown path's message stays out of the first load (and out of production builds) read it.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { build as viteBuild } from "vite";

export interface Chunk {
  file: string;
  code: string;
  /** Its gzip size (Node's default level), as a server would send it. */
  gzip: number;
}

/** An application's JavaScript files. */
export interface Load {
  /** Loaded at start: the entry (first) and the chunks it imports statically, each once. */
  start: Chunk[];
  /** Loaded only through a dynamic import(), when the application reaches it. */
  lazy: Chunk[];
}

export const gzipTotal = (chunks: Chunk[]): number => chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);

/** Splits the JavaScript files by what the entry reaches through static imports; every other file loads lazily. */
function split(entry: string, code: Map<string, string>, staticImports: (file: string) => string[]): Load {
  const start = new Set<string>();
  const visit = (file: string): void => {
    if (start.has(file)) return;
    start.add(file);
    for (const imported of staticImports(file)) visit(imported);
  };
  visit(entry);
  const load: Load = { start: [], lazy: [] };
  for (const file of [...start, ...[...code.keys()].filter((file) => !start.has(file))]) {
    const text = code.get(file)!;
    (start.has(file) ? load.start : load.lazy).push({ file, code: text, gzip: gzipSync(text).length });
  }
  return load;
}

/**
 * Writes an application into `dir`: `main.ts`, and the `index.html` that loads it, as `vite build` takes one; and a
 * package.json of its own unless it has one, so that a package resolves from its node_modules, never as the package a
 * folder above it is (Node's self-reference, which bundlers follow too).
 */
export async function writeApp(dir: string, main: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`, { flag: "wx" }).catch(
    (error: NodeJS.ErrnoException) => (error.code === "EEXIST" ? undefined : Promise.reject(error)),
  );
  await writeFile(path.join(dir, "main.ts"), main);
  await writeFile(path.join(dir, "index.html"), `<!doctype html>\n<html>\n  <body>\n    <script type="module" src="/main.ts"></script>\n  </body>\n</html>\n`);
}

/**
 * `main.ts` of `dir` bundled by esbuild for the browser: ESM, split into chunks (`splitting: true`), minified for
 * production (esbuild then defines `process.env.NODE_ENV` as "production"), or not, as a development build.
 */
export async function esbuildLoad(dir: string, build: "production" | "development" = "production"): Promise<Load> {
  const result = await esbuild.build({
    entryPoints: ["main.ts"],
    absWorkingDir: dir,
    bundle: true,
    splitting: true,
    minify: build === "production",
    format: "esm",
    platform: "browser",
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const code = new Map(
    result.outputFiles.map((file) => [path.relative(dir, file.path).split(path.sep).join("/"), file.text] as const).filter(([file]) => file.endsWith(".js")),
  );
  const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint !== undefined)!;
  return split(entry, code, (file) => outputs[file]!.imports.filter((i) => i.kind === "import-statement" && !i.external).map((i) => i.path));
}

/** `index.html` of `dir` built by `vite build` with no configuration of its own (production mode, Vite's defaults), not written. */
export async function viteLoad(dir: string): Promise<Load> {
  // As from a shell, where NODE_ENV is unset and the build is a production one: Vite takes a NODE_ENV it finds (Vitest's
  // "test") as the value of `process.env.NODE_ENV` in the code, and sets one when there is none.
  const nodeEnv = process.env.NODE_ENV;
  delete process.env.NODE_ENV;
  const built = await viteBuild({ root: dir, configFile: false, logLevel: "silent", build: { write: false } }).finally(() => {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  });
  const chunks = (Array.isArray(built) ? built : [built])
    .flatMap((output) => ("output" in output ? output.output : []))
    .filter((output) => output.type === "chunk");
  const code = new Map(chunks.map((chunk) => [chunk.fileName, chunk.code]));
  const entry = chunks.find((chunk) => chunk.isEntry)!.fileName;
  return split(entry, code, (file) => chunks.find((chunk) => chunk.fileName === file)!.imports);
}
