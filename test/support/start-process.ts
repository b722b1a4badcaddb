// Launches `npm start` (scripts/start.ts, as npm runs it) as a new process on a port, and waits until it says it listens.
import { spawn, type ChildProcess } from "node:child_process";
import { binPath, toolEnv } from "../../scripts/build/lib/tools.ts";

export interface StartProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
}

/** Resolves once the process printed "Stop with Ctrl-C"; rejects, with what it printed, if it exits or takes too long. */
export async function launchStart(cwd: string, port: number, timeoutMs: number, options: string[] = []): Promise<StartProcess> {
  const child = spawn(binPath("tsx"), ["scripts/commands/start.ts", "--port", String(port), ...options], { cwd, env: toolEnv, stdio: ["ignore", "pipe", "pipe"] });
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
  });
  return { child, output: () => output };
}
