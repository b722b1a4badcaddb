// `npm start`'s entry: runs start.ts bundled into one file by esbuild, not under tsx, whose loader and hooks for each of
// the forty-odd TypeScript modules took about half a second of the start. The bundle is kept in .tmp/start/ with the
// hash of the files it was made from, and made again only when one of them changed. Plain JavaScript, as it runs
// before anything can load TypeScript.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { hashFiles } from "../build/up-to-date.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..", "..");
// Inside the repository, so the bundle's imports of packages resolve from its node_modules.
const cacheDir = path.join(repoRoot, ".tmp", "start");
const manifestPath = path.join(cacheDir, "manifest.json");

/** @returns {string | undefined} the bundle made from the current sources, if there is one */
function cachedBundle() {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    return hashFiles(manifest.inputs) === manifest.hash ? path.join(cacheDir, manifest.bundle) : undefined;
  } catch {
    return undefined;
  }
}

async function makeBundle() {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [path.join(here, "start.ts")],
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages load from node_modules as they are; only the repository's own modules are bundled.
    packages: "external",
    logLevel: "silent",
    plugins: [
      {
        // Each module keeps its own import.meta.url (paths.ts finds the repository from it, html.ts its CSS), which
        // would otherwise all be the bundle's.
        name: "own-import-meta-url",
        setup(build) {
          build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => ({
            contents: readFileSync(args.path, "utf8").replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href)),
            loader: args.path.endsWith(".ts") ? "ts" : "js",
          }));
        },
      },
    ],
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  const hash = hashFiles(inputs);
  const bundle = `start-${hash.slice(0, 16)}.mjs`;
  mkdirSync(cacheDir, { recursive: true });
  // Written under a name of this process's, then renamed: two starts at once never read a half-written file.
  const temporary = path.join(cacheDir, `.${process.pid}`);
  writeFileSync(temporary, result.outputFiles[0].text);
  renameSync(temporary, path.join(cacheDir, bundle));
  writeFileSync(temporary, JSON.stringify({ inputs, hash, bundle }));
  renameSync(temporary, manifestPath);
  return path.join(cacheDir, bundle);
}

await import(pathToFileURL(cachedBundle() ?? (await makeBundle())).href);
