// Tells whether generated/ and the reference are up to date (a hash of generated/'s inputs, the reference's times), in
// plain JavaScript so that `npm run build` and `npm start` can answer before tsx's loader (about 0.3 s) is loaded.
// @ts-check
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const generatedDir = path.join(repoRoot, "generated");
const referenceHtmlPath = path.join(generatedDir, "reference.html");

/** Where generated/ records the hash of the inputs it was made from. */
export const INPUTS_HASH = "inputs.sha256";

/**
 * What generated/ is made from: the contract, the build's own folder, the shipped code it compiles (src/), and the
 * files the bundle or the tools read. Nothing else of the repository (its commands, the tests) can change an artifact.
 */
// package.json: its version is the contract's (the bundle's info.version); its exports, typesVersions, bin, engines and peers are the
// package's surface (generated/surface.json). Only those fields count (manifestInput).
const INPUTS = ["openapi", path.join("scripts", "build"), "src", "CHANGELOG.md", "package.json", "package-lock.json", "redocly.yaml"];

/** The fields of package.json that something in generated/ is made from. */
const MANIFEST_FIELDS = ["name", "version", "type", "exports", "typesVersions", "bin", "engines", "dependencies", "peerDependencies", "peerDependenciesMeta"];

/**
 * What of package.json the build reads: the registry's fields (homepage, keywords, ...) and the scripts make no artifact,
 * so a maintainer filling them in is not asked to rebuild.
 * @param {string} text
 * @returns {string}
 */
export function manifestInput(text) {
  /** @type {Record<string, unknown>} */
  const manifest = JSON.parse(text);
  return JSON.stringify(MANIFEST_FIELDS.map((field) => [field, manifest[field] ?? null]));
}

/**
 * The sha256 of these files' paths (from the repository's root) and bytes, in the order given (package.json's by the
 * fields the build reads).
 * @param {string[]} files
 * @returns {string}
 */
export function hashFiles(files) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file.split(path.sep).join("/")}\0`);
    const bytes = readFileSync(path.join(repoRoot, file));
    hash.update(file === "package.json" ? manifestInput(bytes.toString("utf8")) : bytes);
    hash.update("\0");
  }
  return hash.digest("hex");
}

/**
 * The hash of every input file's path and bytes, read synchronously: for some 550 small files, one thread reading
 * them in turn took 15-25 ms where as many promises through libuv's pool took 80-110 ms.
 * @returns {Promise<string>}
 */
export async function inputsHash() {
  /** @type {string[]} */
  const files = [];
  for (const input of INPUTS) {
    const entries = (() => {
      try {
        return readdirSync(path.join(repoRoot, input), { recursive: true, withFileTypes: true });
      } catch {
        return undefined;
      }
    })();
    if (entries === undefined) files.push(input);
    // A folder's README describes its files to a reader; no artifact is made from it.
    else
      for (const entry of entries)
        if (!entry.isDirectory() && entry.name !== "README.md") files.push(path.relative(repoRoot, path.join(entry.parentPath, entry.name)));
  }
  files.sort();
  return `${hashFiles(files)}\n`;
}

/**
 * Whether generated/ was made from exactly the current inputs (the reference aside, which is not committed).
 * @returns {Promise<boolean>}
 */
export async function upToDate() {
  const [recorded, current] = await Promise.all([readFile(path.join(generatedDir, INPUTS_HASH), "utf8").catch(() => ""), inputsHash()]);
  return recorded === current;
}

/** @returns {Promise<boolean>} */
async function isOlder(/** @type {string} */ file, /** @type {string} */ than) {
  const [a, b] = await Promise.all([stat(file).catch(() => undefined), stat(than)]);
  return a === undefined || a.mtimeMs < b.mtimeMs;
}

/**
 * Whether the reference is missing or older than the bundle it shows or the scripts that make it from the bundle
 * (build-docs.ts and everything in scripts/build/reference/).
 * @returns {Promise<boolean>}
 */
export async function referenceStale() {
  const referenceScriptsDir = path.join(repoRoot, "scripts", "build", "reference");
  const makers = [
    path.join(repoRoot, "scripts", "build", "build-docs.ts"),
    ...(await readdir(referenceScriptsDir)).map((name) => path.join(referenceScriptsDir, name)),
  ];
  for (const source of [path.join(generatedDir, "openapi.json"), ...makers]) if (await isOlder(referenceHtmlPath, source)) return true;
  return false;
}
