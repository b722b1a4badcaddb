// Packs the package as `npm pack` would publish it and installs the tarball into a fresh temporary project, as a user
// would; the packing and the install happen once for what the package holds, shared by every test file and run.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { freePort, waitForPort } from "./net.ts";

export const run = promisify(execFile);

export interface PackedProject {
  /** The temporary project, with the tarball installed in node_modules: the caller's own copy, free to change. */
  dir: string;
  tarball: string;
  /** The files the tarball holds, relative to the package root. */
  files: string[];
  remove(): Promise<void>;
}

/** Where installed projects are kept, one folder per content of the package. */
const CACHE = path.join(repoRoot, ".tmp", "packed");
/** A packing that has not finished in this long was left by a process that died (packing takes seconds). */
const STALE_LOCK_MS = 5 * 60_000;

/** What decides the tarball: package.json and every file its "files" list, README, LICENSE and CHANGELOG name. */
async function packageHash(): Promise<string> {
  const manifest = await readFile(path.join(repoRoot, "package.json"), "utf8");
  const { files } = JSON.parse(manifest) as { files: string[] };
  const hash = createHash("sha256").update(manifest);
  const walk = async (relative: string): Promise<string[]> => {
    const entries = await readdir(path.join(repoRoot, relative), { withFileTypes: true }).catch(() => undefined);
    if (entries === undefined) return [relative];
    return (await Promise.all(entries.map((entry) => walk(path.join(relative, entry.name))))).flat();
  };
  const all = (await Promise.all([...files, "README.md"].map(walk))).flat().sort();
  for (const file of all) hash.update(`${file}\0`).update(await readFile(path.join(repoRoot, file)).catch(() => Buffer.alloc(0))).update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Packs and installs into a new folder, then moves it into place whole, so no reader sees a half-made project. */
async function packAndInstall(target: string): Promise<void> {
  const dir = await mkdtemp(path.join(CACHE, "making-"));
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: repoRoot });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ name: "svc-consumer", private: true, type: "module" }, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", `./${packed!.filename}`], { cwd: dir });
  await writeFile(path.join(dir, "packed.json"), JSON.stringify({ tarball: packed!.filename, files: packed!.files.map((file) => file.path).sort() }));
  await rename(dir, target);
}

/** The installed project for the package as it is now: made by the first caller, waited for by the others (other workers, other runs). */
async function installedTemplate(): Promise<string> {
  const hash = await packageHash();
  const target = path.join(CACHE, hash);
  const lock = `${target}.lock`;
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    if (await readFile(path.join(target, "packed.json")).then(() => true, () => false)) return target;
    const mine = await mkdir(lock).then(() => true, () => false);
    if (mine) {
      try {
        // Projects made from older contents of the package are of no more use, nor what a dead packing left.
        for (const old of await readdir(CACHE)) if (old !== `${hash}.lock`) await rm(path.join(CACHE, old), { recursive: true, force: true });
        await packAndInstall(target);
        return target;
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    }
    const made = await stat(lock).then((lockStat) => lockStat.mtimeMs, () => Date.now());
    if (Date.now() - made > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    await sleep(250);
  }
}

export async function installPacked(): Promise<PackedProject> {
  const template = await installedTemplate();
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-consumer-"));
  // Links kept as npm made them (node_modules/.bin points into the package, relatively), so the copy runs as installed.
  await cp(template, dir, { recursive: true, verbatimSymlinks: true });
  const { tarball, files } = JSON.parse(await readFile(path.join(dir, "packed.json"), "utf8")) as { tarball: string; files: string[] };
  return {
    dir,
    tarball: path.join(dir, tarball),
    files,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function listInstalled(project: PackedProject): Promise<string[]> {
  return readdir(path.join(project.dir, "node_modules", "@svc", "health-api-contract"), { recursive: true });
}

/** `npx svc-health-mock` in the project, on a free port, until `stop`. */
export async function startPackedMock(project: PackedProject, ...options: string[]): Promise<{ url: string; output: () => string; stop: () => void }> {
  const port = await freePort();
  const child = spawn("npx", ["--no-install", "svc-health-mock", "--port", String(port), ...options], { cwd: project.dir, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // npx runs the command in a child of its own: stop the whole group.
  const stop = () => process.kill(-child.pid!, "SIGTERM");
  try {
    await waitForPort(port, "127.0.0.1", 30_000, () => child.exitCode === null);
  } catch (error) {
    stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
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
