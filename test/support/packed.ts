// Packs the package as `npm pack` would publish it and installs the tarball into a fresh temporary project, as a user
// would (and, for the tests of an optional peer, that peer after it); the packing and the installs happen once for what
// the package holds, shared by every test file and run, and each file gets a copy of its own.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, cp, link, mkdir, mkdtemp, readdir, readFile, readlink, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { freePort, waitForPort } from "./net.ts";
import { killGroup, spawnGroup } from "./processes.ts";

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
  for (const file of all)
    hash
      .update(`${file}\0`)
      .update(await readFile(path.join(repoRoot, file)).catch(() => Buffer.alloc(0)))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Makes `target` once: by the first caller, in a new folder moved into place whole, so no reader sees a half-made
 * project; the others (other workers, other runs) wait for it. */
async function madeOnce(target: string, make: (dir: string) => Promise<void>, beforeMaking: () => Promise<void> = async () => {}): Promise<string> {
  const lock = `${target}.lock`;
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    if (
      await readFile(path.join(target, "packed.json")).then(
        () => true,
        () => false,
      )
    )
      return target;
    const mine = await mkdir(lock).then(
      () => true,
      () => false,
    );
    if (mine) {
      try {
        await beforeMaking();
        const dir = await mkdtemp(`${target}.making-`);
        await make(dir);
        await rename(dir, target);
        return target;
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    }
    const made = await stat(lock).then(
      (lockStat) => lockStat.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - made > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
    await sleep(250);
  }
}

const install = (dir: string, ...specs: string[]) =>
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", ...specs], { cwd: dir });

/** The installed project for the package as it is now: packed, then installed from the tarball as a user would. */
async function installedTemplate(): Promise<string> {
  const hash = await packageHash();
  // Projects made from older contents of the package are of no more use, nor what a dead packing left.
  const clearOld = async () => {
    for (const old of await readdir(CACHE))
      if (!old.startsWith(hash) || old.startsWith(`${hash}.making-`)) await rm(path.join(CACHE, old), { recursive: true, force: true });
  };
  return madeOnce(
    path.join(CACHE, hash),
    async (dir) => {
      const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", dir], { cwd: repoRoot });
      const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
      await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ name: "svc-consumer", private: true, type: "module" }, null, 2)}\n`);
      await install(dir, `./${packed!.filename}`);
      await writeFile(path.join(dir, "packed.json"), JSON.stringify({ tarball: packed!.filename, files: packed!.files.map((file) => file.path).sort() }));
    },
    clearOld,
  );
}

/** The tarball `npm pack` makes of the package as it is now (the installed project's), for tools that read a tarball. */
export async function packedTarball(): Promise<string> {
  const template = await installedTemplate();
  const { tarball } = JSON.parse(await readFile(path.join(template, "packed.json"), "utf8")) as { tarball: string };
  return path.join(template, tarball);
}

/** The installed project after the user's own `npm install <peer>` (an optional peer dependency), made once per content
 * of the package like the project itself: installing Prism takes seconds of unpacking thousands of files. */
async function templateWithPeer(peer: string): Promise<string> {
  const base = await installedTemplate();
  return madeOnce(`${base}+${peer.replace(/[^\w.@-]/g, "_")}`, async (dir) => {
    await cp(base, dir, { recursive: true, verbatimSymlinks: true });
    await install(dir, peer);
  });
}

/** A copy of `from` at `to` whose node_modules files are hard links: tests add files to the project but change none of
 * what npm installed, and linking is far cheaper than copying the thousands of files a peer like Prism brings. */
async function linkedCopy(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.name === "node_modules") await linkTree(source, target);
    // Links kept as npm made them (node_modules/.bin points into the package, relatively), so the copy runs as installed.
    else await cp(source, target, { recursive: true, verbatimSymlinks: true });
  }
}

async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to);
  await Promise.all(
    (await readdir(from, { withFileTypes: true })).map(async (entry) => {
      const source = path.join(from, entry.name);
      const target = path.join(to, entry.name);
      if (entry.isDirectory()) return linkTree(source, target);
      // Symbolic links as npm made them (node_modules/.bin points into the package, relatively).
      if (entry.isSymbolicLink()) return symlink(await readlink(source), target);
      // Another file system cannot hold a hard link: copy there.
      return link(source, target).catch((error: NodeJS.ErrnoException) => (error.code === "EXDEV" ? copyFile(source, target) : Promise.reject(error)));
    }),
  );
}

/** A fresh project of the caller's own, outside the repository (so nothing resolves from its node_modules), with the
 * tarball installed, and `peer` too when given. */
export async function installPacked(options: { peer?: string } = {}): Promise<PackedProject> {
  const template = options.peer === undefined ? await installedTemplate() : await templateWithPeer(options.peer);
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-consumer-"));
  await linkedCopy(template, dir);
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

/** The packaged mock command in the project, on a free port, until `stop`: launched as `npx svc-health-mock` finds it
 * (node_modules/.bin), without npx's own second of start-up; the tests that launch it by npx say so. */
export function startPackedMock(project: PackedProject, ...options: string[]): Promise<MockCommand> {
  return startMockCommand(path.join(project.dir, "node_modules", ".bin", "svc-health-mock"), options, { cwd: project.dir });
}

export interface MockCommand {
  url: string;
  output: () => string;
  stop: () => void;
}

/**
 * A mock command (`command`, then `args` and `--port <free port>`) in a process group of its own, once it listens and,
 * with `banner`, has printed its address (which may reach the pipe just after the port opens); `stop` kills the group,
 * whatever the command starts (npx its child).
 */
export async function startMockCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; banner?: boolean },
): Promise<MockCommand> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnGroup(command, [...args, "--port", String(port)], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const stop = () => killGroup(child.pid, "SIGTERM");
  try {
    await waitForPort(port, "127.0.0.1", 30_000, () => child.exitCode === null);
    for (let waited = 0; options.banner && !output.includes(url); waited += 50) {
      if (waited > 5_000) throw new Error(`the mock listens but printed no banner naming ${url}`);
      await sleep(50);
    }
  } catch (error) {
    stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { url, output: () => output, stop };
}

/** The npm the Node 20 and 22 lines ship (this machine's Node 20 has npm 11, which the Node 24 line ships). */
export const OTHER_NPM = { major: 10, version: "10.9.4" };

/** npx's script of OTHER_NPM (`node <it>` runs that npx), from the registry's tarball (npm bundles its dependencies), kept in .tmp/. */
export async function otherNpx(): Promise<string> {
  const dir = path.join(repoRoot, ".tmp", `npm-${OTHER_NPM.version}`);
  const bin = path.join(dir, "package", "bin");
  const present = await run(process.execPath, [path.join(bin, "npm-cli.js"), "--version"]).then(
    (r) => r.stdout.trim() === OTHER_NPM.version,
    () => false,
  );
  if (!present) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const { stdout } = await run("npm", ["pack", "--prefer-offline", "--json", "--pack-destination", dir, `npm@${OTHER_NPM.version}`], { cwd: dir });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    const tarball = path.join(dir, packed!.filename);
    await run("tar", ["-xzf", tarball, "-C", dir]);
    await rm(tarball, { force: true });
  }
  return path.join(bin, "npx-cli.js");
}

/** The Node.js release users run beside this machine's: its binary, from the registry's per-platform package, kept in .tmp/. */
export const OTHER_NODE = { major: 24, version: "24.21.0" };

/**
 * The binary of the registry's `node-<platform>-<arch>` package (what `npm install node@24` puts on the PATH), taken
 * out of the package's tarball: `npm install` of it spent seconds of CPU building a tree for one file.
 */
export async function otherNodeBinary(): Promise<string> {
  const dir = path.join(repoRoot, ".tmp", `node-${OTHER_NODE.version}`);
  const name = `node-${process.platform}-${process.arch}`;
  const binary = path.join(dir, "package", "bin", "node");
  const present = await run(binary, ["--version"]).then(
    (r) => r.stdout.trim() === `v${OTHER_NODE.version}`,
    () => false,
  );
  if (!present) {
    await mkdir(dir, { recursive: true });
    const { stdout } = await run("npm", ["pack", "--prefer-offline", "--json", "--pack-destination", dir, `${name}@${OTHER_NODE.version}`], { cwd: dir });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    const tarball = path.join(dir, packed!.filename);
    await run("tar", ["-xzf", tarball, "-C", dir, "package/bin/node"]);
    await rm(tarball, { force: true });
  }
  return binary;
}
