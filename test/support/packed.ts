// Packs the package as `npm pack` would publish it and installs the tarball into a fresh temporary project, as a user would.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

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

/** The Node.js release users run beside this machine's: its binary, from the registry's per-platform package, kept in .tmp/. */
export const OTHER_NODE = { major: 24, version: "24.21.0" };

export async function otherNodeBinary(): Promise<string> {
  const dir = path.join(repoRoot, ".tmp", `node-${OTHER_NODE.version}`);
  const name = `node-${process.platform}-${process.arch}`;
  const binary = path.join(dir, "node_modules", name, "bin", "node");
  const present = await run(binary, ["--version"]).then((r) => r.stdout.trim() === `v${OTHER_NODE.version}`, () => false);
  if (!present) {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "package.json"), "{\"private\": true}\n");
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", `${name}@${OTHER_NODE.version}`], { cwd: dir });
  }
  return binary;
}
