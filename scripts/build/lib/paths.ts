// Where the package's sources and artifacts live, so every script and test names them the same way.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const specRoot = path.join(repoRoot, "openapi", "openapi.yaml");
export const generatedDir = path.join(repoRoot, "generated");
export const bundleJsonPath = path.join(generatedDir, "openapi.json");
export const bundleYamlPath = path.join(generatedDir, "openapi.yaml");
export const referenceHtmlPath = path.join(generatedDir, "reference.html");

/** The bundled contract as the last `npm run bundle` wrote it (or another bundle file); later pipeline steps start from it. */
export async function readBundle(file: string = bundleJsonPath): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}
