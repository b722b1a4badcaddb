// Where the package's sources and artifacts live, so every script and test names them the same way.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const specRoot = path.join(repoRoot, "openapi", "openapi.yaml");
export const generatedDir = path.join(repoRoot, "generated");
export const bundleJsonPath = path.join(generatedDir, "openapi.json");
export const bundleYamlPath = path.join(generatedDir, "openapi.yaml");
export const referenceHtmlPath = path.join(generatedDir, "reference.html");

/** The bundled contract as the last `npm run bundle` wrote it; later pipeline steps start from it. */
export async function readBundle(): Promise<Record<string, unknown>> {
  const { readFile } = await import("node:fs/promises");
  return JSON.parse(await readFile(bundleJsonPath, "utf8")) as Record<string, unknown>;
}
