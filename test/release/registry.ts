// A throwaway Verdaccio on loopback for the release test, with its own user, npm user config and npm environment, so nothing a test publishes can leave this machine.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { QUIET_TOOL_ENV } from "../../src/shared/quiet-tools.ts";
import { freePort, waitForPort } from "../support/net.ts";
import { groupMembers, killGroup, spawnGroup } from "../support/processes.ts";

const execFileAsync = promisify(execFile);

/** Obviously fake: the user exists only in this registry's htpasswd file, which is deleted with it. */
export const REGISTRY_USER = { name: "release-test", password: "not-a-secret" };

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/`, with the slash npm writes after a registry. */
  url: string;
  /** The temporary folder holding the config, the storage, the npm user config and cache, and HOME. */
  dir: string;
  /** The npm user config naming only this registry, with the token of REGISTRY_USER. */
  npmrc: string;
  /** The environment every npm, npx and node command against this registry runs with. */
  env: NodeJS.ProcessEnv;
  /** Verdaccio's own stdout and stderr, for a failure's message. */
  output(): string;
  /** Stops Verdaccio's whole process group and removes the folder. */
  stop(): Promise<void>;
}

/** Hosts a release test may publish to: this machine only. `localhost` is refused, since a hosts file may send it elsewhere. */
const LOOPBACK = new Set(["127.0.0.1", "[::1]"]);

/** Throws unless `url` is an http(s) URL on a loopback address: the last word before anything is published to it. */
export function assertLoopback(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`refusing to publish to ${JSON.stringify(url)}: not a URL`);
  }
  if (!/^https?:$/.test(parsed.protocol) || !LOOPBACK.has(parsed.hostname))
    throw new Error(`refusing to publish to ${url}: only a registry on 127.0.0.1 or ::1 may receive a test's packages`);
}

/**
 * An environment made from nothing but PATH: vitest under `npm run` inherits npm_config_registry and the rest, and the
 * machine's ~/.npmrc and global npmrc may name another registry or carry a real token; here HOME, the user and global
 * configs and the cache all live in the registry's folder.
 */
export function npmEnv(dir: string, npmrc: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    npm_config_userconfig: npmrc,
    npm_config_globalconfig: path.join(dir, "global-npmrc"),
    npm_config_cache: path.join(dir, "npm-cache"),
    npm_config_update_notifier: "false",
    ...QUIET_TOOL_ENV,
  };
}

/** No `uplinks`, and no `proxy` under packages: Verdaccio asks nobody for what it lacks. No audit middleware either
 * (it forwards `npm audit` to npmjs.org): it is only loaded when `middlewares` names it. */
function verdaccioConfig(dir: string): string {
  return [
    `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
    // The one user the test creates.
    "    max_users: 1",
    "packages:",
    "  '**':",
    "    access: $all",
    "    publish: $authenticated",
    "    unpublish: $authenticated",
    // Verdaccio logs its address at warn level, and on Node 20 a warn that it recommends Node 22: errors only.
    "log: { type: stdout, format: json, level: error }",
    // The web UI loads its theme at start-up, for nobody to look at.
    "web:",
    "  enable: false",
    "",
  ].join("\n");
}

async function createUser(url: string): Promise<string> {
  const answer = await fetch(new URL(`-/user/org.couchdb.user:${REGISTRY_USER.name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: REGISTRY_USER.name, password: REGISTRY_USER.password }),
  });
  const body = (await answer.json()) as { token?: string; error?: string };
  if (answer.status !== 201 || typeof body.token !== "string")
    throw new Error(`creating ${REGISTRY_USER.name} answered ${answer.status}: ${JSON.stringify(body)}`);
  return body.token;
}

/** Verdaccio on a free loopback port, in a process group of its own, with a user created and an npmrc holding its token. */
export async function startRegistry(): Promise<LocalRegistry> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-registry-"));
  const npmrc = path.join(dir, "npmrc");
  const env = npmEnv(dir, npmrc);
  await mkdir(path.join(dir, "storage"));
  await writeFile(path.join(dir, "config.yaml"), verdaccioConfig(dir));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const verdaccio = path.join(repoRoot, "node_modules", "verdaccio", "bin", "verdaccio");
  const child = spawnGroup(process.execPath, [verdaccio, "--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env: { PATH: env.PATH, HOME: dir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    killGroup(child.pid, "SIGTERM");
    // Verdaccio closes its server on SIGTERM; one that hangs is killed so the folder can go.
    for (let waited = 0; child.pid !== undefined && groupMembers(child.pid).length > 0; waited += 100) {
      if (waited >= 3_000) killGroup(child.pid, "SIGKILL");
      await sleep(100);
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, "127.0.0.1", 30_000, () => child.exitCode === null);
    const token = await createUser(url);
    // The registry for every package, scoped ones included, and the token for that host alone.
    await writeFile(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    // What npm itself will use under this environment, not what this file meant to write.
    const { stdout } = await execFileAsync("npm", ["config", "get", "registry"], { cwd: dir, env });
    if (stdout.trim() !== url) throw new Error(`npm's registry under the test's environment is ${stdout.trim()}, not ${url}`);
    assertLoopback(stdout.trim());
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nverdaccio said:\n${output}`);
  }
  return { url, dir, npmrc, env, output: () => output, stop };
}

/**
 * `npm publish` of a folder or a tarball to `registry` alone, after the loopback check. Every registry setting is given
 * on the command line, which npm prefers over the package's `publishConfig` (a release may well add
 * `publishConfig.registry` or `provenance`): the registry, the package's scope's registry, and any other `*registry`
 * key the manifest names.
 */
export async function publishTo(
  registry: LocalRegistry,
  what: string,
  manifest: { name: string; publishConfig?: Record<string, unknown> },
  options: { cwd: string; extra?: string[] },
): Promise<{ stdout: string; stderr: string }> {
  assertLoopback(registry.url);
  const keys = new Set(["registry", ...Object.keys(manifest.publishConfig ?? {}).filter((key) => key.endsWith("registry"))]);
  if (manifest.name.startsWith("@")) keys.add(`${manifest.name.split("/")[0]}:registry`);
  const flags = [...keys].map((key) => `--${key}=${registry.url}`);
  const published = await execFileAsync("npm", ["publish", what, ...flags, ...(options.extra ?? [])], { cwd: options.cwd, env: registry.env });
  // npm says where it sent the package: the same loopback address, or the test stops here.
  const target = /Publishing to (\S+)/.exec(published.stderr)?.[1];
  if (target !== registry.url) throw new Error(`npm published ${manifest.name} to ${target ?? "an address it did not name"}, not ${registry.url}`);
  return published;
}
