// Launches `npm start` (scripts/commands/start.js, as npm runs it: start.ts bundled, no tsx) as a new process on a port,
// and waits until it says it listens; stop() kills its whole process group (with any rebuild it started).
import type { ChildProcess } from "node:child_process";
import { toolEnv } from "../../scripts/build/lib/tools.ts";
import { killGroup, spawnGroup } from "./processes.ts";

export interface StartProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Kills every process it started, whatever state it is in. */
  stop(): void;
}

/** Resolves once the process printed "Stop with Ctrl-C"; rejects, with what it printed, if it exits or takes too long. */
export async function launchStart(cwd: string, port: number, timeoutMs: number, options: string[] = []): Promise<StartProcess> {
  const child = spawnGroup(process.execPath, ["scripts/commands/start.js", "--port", String(port), ...options], {
    cwd,
    env: toolEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk;
      if (output.includes("Stop with Ctrl-C")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("exit", () => reject(new Error(`npm start exited:\n${output}`)));
  }).catch((error: Error) => {
    killGroup(child.pid);
    throw error;
  });
  return { child, output: () => output, stop: () => killGroup(child.pid) };
}
