// Packs the package as `npm pack` would publish it and installs the tarball into a fresh temporary project, as a user would.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/lib/paths.ts";

export const run = promisify(execFile);

export interface PackedProject {
  /** The temporary project, with the tarball installed in node_modules. */
  dir: string;
  tarball: string;
  /** The files the tarball holds, relative to the package root. */
  files: string[];
  remove(): Promise<void>;
}

export async function installPacked(): Promise<PackedProject> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-consumer-"));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: repoRoot });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  const tarball = path.join(dir, packed!.filename);
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ name: "svc-consumer", private: true, type: "module" }, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", tarball], { cwd: dir });
  return {
    dir,
    tarball,
    files: packed!.files.map((file) => file.path).sort(),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function listInstalled(project: PackedProject): Promise<string[]> {
  return readdir(path.join(project.dir, "node_modules", "@svc", "health-api-contract"), { recursive: true });
}
