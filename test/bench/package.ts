// The published tarball's size, as `npm pack` makes it, beside the contract alone (the bundle's two forms, gzipped):
// what a user downloads for the client, the mock and verify on top of the contract itself.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { generatedDir, repoRoot } from "../../scripts/build/lib/paths.ts";
import type { Figure } from "./client.ts";

const run = promisify(execFile);

export async function packageFigures(log: (line: string) => void): Promise<Figure[]> {
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout) as { size: number; unpackedSize: number; entryCount: number }[];
  if (!packed) throw new Error("npm pack --dry-run --json printed no package");
  log(`tarball: ${packed.entryCount} files, ${packed.unpackedSize} bytes unpacked`);
  const contract = await Promise.all(
    ["openapi.json", "openapi.yaml"].map(async (name) => gzipSync(await readFile(path.join(generatedDir, name)), { level: 9 }).length),
  );
  const baseline = contract.reduce((sum, size) => sum + size, 0);
  return [
    {
      name: "the published tarball (npm pack)",
      value: packed.size,
      unit: "bytes",
      baseline: { name: "the contract alone (openapi.json and openapi.yaml, gzip -9)", value: baseline },
      ratio: packed.size / baseline,
    },
  ];
}
