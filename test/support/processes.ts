// Starts the processes tests need, each as the leader of a process group of its own, and notes each in a registry file
// that the end of the run reads (test/global-setup.ts): tsx runs its script in a child, so killing tsx alone left that
// child running; the whole group is killed instead, and a group still alive at the end fails the run.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { accessSync, appendFileSync, constants, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The registry's path, set by global-setup before any test file runs, so workers inherit it. */
export const REGISTRY_ENV = "SVC_TEST_PROCESS_REGISTRY";

/** Spawns `command` in a process group of its own (detached), noted in the registry. */
export function spawnGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const registry = process.env[REGISTRY_ENV];
  // One line per process: an argument's newline (a script given to `bash -c`) would make a line the end of the run reads
  // as a process group of its own, and a group number of 0 is the run's own group.
  if (child.pid !== undefined && registry !== undefined) appendFileSync(registry, `${child.pid} ${[command, ...args].join(" ").replace(/\s+/g, " ")}\n`);
  return child;
}

/** Sends a signal to every process of the group `pid` leads; a group already gone is not an error. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  // Only a group a test started: kill(-0) is the caller's own group, and NaN or a negative number no group of a test's.
  if (pid === undefined || !Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** The processes of group `pid` still running: an exited one nobody reaped (a zombie) is not running. */
export function groupMembers(pid: number): number[] {
  if (!existsSync("/proc")) {
    try {
      process.kill(-pid, 0);
      return [pid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // After the command's closing parenthesis: state, parent, group.
    const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(group) === pid && state !== "Z") members.push(Number(entry));
  }
  return members;
}

/** Every registered group with a process still running, as `pid command` lines. */
export function survivors(registry: string): string[] {
  if (!existsSync(registry)) return [];
  return readFileSync(registry, "utf8")
    .split("\n")
    .filter((line) => /^[1-9]\d* /.test(line))
    .filter((line) => groupMembers(Number(line.split(" ")[0])).length > 0);
}

/** The executable `name` a shell would run: the first on the PATH, or undefined. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
