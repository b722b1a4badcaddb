// The package's version, read from its package.json: the one place it is kept. The contract's `info.version` (the build
// sets it), the reference's title and the commands' `--version` are derived from it. A module that reads it sits two
// folders below the package's root whether it runs from the source (src/<folder>/) or from a built command
// (generated/<command>/cli.js, which bundles it).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const manifest = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../package.json");

export function packageVersion(): string {
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}
