// Puts the package's runtime dependencies, as package-lock.json pins them, into the loopback registry, which has no uplink to fetch them from.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { publishTo, type LocalRegistry } from "./registry.ts";

const execFileAsync = promisify(execFile);

interface LockEntry {
  version?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  link?: boolean;
}

export interface Lock {
  packages: Record<string, LockEntry>;
}

export interface LockedPackage {
  name: string;
  version: string;
  integrity: string;
}

/** Where npm finds `name` for the package at `from` (a lock key): its own node_modules, then each folder above. */
function resolveFrom(lock: Lock, from: string, name: string): string | undefined {
  for (let at = from; ; ) {
    const key = at === "" ? `node_modules/${name}` : `${at}/node_modules/${name}`;
    if (lock.packages[key] !== undefined) return key;
    if (at === "") return undefined;
    const up = at.lastIndexOf("/node_modules/");
    at = up < 0 ? "" : at.slice(0, up);
  }
}

/**
 * What `npm install` of the package fetches besides it: the closure of `roots` (the package's `dependencies`) as the lock
 * pins it. Optional peers are left out, as npm leaves them; a required peer would be installed, so it is in.
 */
export function lockedClosure(lock: Lock, roots: string[]): LockedPackage[] {
  const found = new Map<string, LockedPackage>();
  const seen = new Set<string>();
  const visit = (from: string, name: string, optional: boolean) => {
    const key = resolveFrom(lock, from, name);
    if (key === undefined) {
      if (optional) return;
      throw new Error(`package-lock.json has no ${name} for ${from === "" ? "the package" : from}`);
    }
    if (seen.has(key)) return;
    seen.add(key);
    const entry = lock.packages[key]!;
    if (entry.link === true || entry.version === undefined || entry.integrity === undefined)
      throw new Error(`${key} is not a registry package in package-lock.json`);
    found.set(`${name}@${entry.version}`, { name, version: entry.version, integrity: entry.integrity });
    for (const dependency of Object.keys(entry.dependencies ?? {})) visit(key, dependency, false);
    // Optional dependencies are in the lock only for the platforms they install on.
    for (const dependency of Object.keys(entry.optionalDependencies ?? {})) visit(key, dependency, true);
    for (const peer of Object.keys(entry.peerDependencies ?? {})) if (entry.peerDependenciesMeta?.[peer]?.optional !== true) visit(key, peer, false);
  };
  for (const root of roots) visit("", root, false);
  return [...found.values()].sort((a, b) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`));
}

/** An SRI string (`sha512-…`) the bytes match. */
export function matchesIntegrity(bytes: Buffer, integrity: string): boolean {
  return integrity.split(/\s+/).some((one) => {
    const [algorithm, digest] = one.split(/-(.*)/s) as [string, string | undefined];
    return (
      digest !== undefined && ["sha512", "sha384", "sha256", "sha1"].includes(algorithm) && createHash(algorithm).update(bytes).digest("base64") === digest
    );
  });
}

/** The machine's npm cache and registry, as npm reports them for this repository. */
async function machineNpm(): Promise<{ cache: string; registry: string }> {
  const [cache, registry] = await Promise.all(
    ["cache", "registry"].map(async (key) => (await execFileAsync("npm", ["config", "get", key], { cwd: repoRoot })).stdout.trim()),
  );
  return { cache: cache!, registry: registry! };
}

/**
 * Each package of the closure of the package's `dependencies`, its tarball taken from the machine's npm cache (where this
 * repository's `npm ci` left it; the registry is asked only for what the cache lacks) and checked against the lock's
 * integrity, then published to `registry`. Returns what was published.
 */
export async function publishLockedDependencies(registry: LocalRegistry): Promise<LockedPackage[]> {
  const lock = JSON.parse(await readFile(path.join(repoRoot, "package-lock.json"), "utf8")) as Lock;
  const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
  const closure = lockedClosure(lock, Object.keys(manifest.dependencies ?? {}));
  const dir = await mkdtemp(path.join(registry.dir, "tarballs-"));
  try {
    const machine = await machineNpm();
    // The machine's cache and registry, nothing else of its configuration (no user config, so no token of its own); the
    // loopback registry is not involved here at all.
    const env = { ...registry.env, npm_config_cache: machine.cache, npm_config_registry: machine.registry, npm_config_userconfig: path.join(dir, "npmrc") };
    await writeFile(env.npm_config_userconfig, "");
    const { stdout } = await execFileAsync(
      "npm",
      ["pack", "--prefer-offline", "--json", "--pack-destination", dir, ...closure.map((pkg) => `${pkg.name}@${pkg.version}`)],
      { cwd: dir, env },
    );
    const packed = JSON.parse(stdout) as { name: string; version: string; filename: string }[];
    await Promise.all(
      closure.map(async (pkg) => {
        const tarball = packed.find((one) => one.name === pkg.name && one.version === pkg.version);
        if (tarball === undefined) throw new Error(`npm pack gave no tarball for ${pkg.name}@${pkg.version}`);
        const file = path.join(dir, tarball.filename);
        if (!matchesIntegrity(await readFile(file), pkg.integrity))
          throw new Error(`${tarball.filename} does not match package-lock.json's integrity ${pkg.integrity}`);
        // Its own manifest, for a publishConfig that names a registry of its own.
        const inside = JSON.parse((await execFileAsync("tar", ["-xzOf", file, "package/package.json"])).stdout) as { name: string };
        // A third party's tarball: its scripts are not this test's to run.
        await publishTo(registry, file, inside, { cwd: dir, extra: ["--ignore-scripts"] });
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return closure;
}
