// Starts bare Stoplight Prism (the CLI, `prism mock --errors`) on a loopback port from the bundled contract, and stops it
// by its process id: for the tests that show what Prism alone answers beside the mock (test/global-setup.ts).
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { waitForPort } from "./net.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { toolEnv } from "../../scripts/build/lib/tools.ts";
import { killGroup, spawnGroup } from "./processes.ts";

const PRISM_CLI = path.join(repoRoot, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");

export interface PrismProcess {
  pid: number;
  url: string;
  /** Prism's own output, for diagnosing a failed start or a 5xx. */
  log(): string;
  stop(): Promise<void>;
}

export async function startPrism(options: { specPath: string; port: number; host?: string }): Promise<PrismProcess> {
  const host = options.host ?? "127.0.0.1";
  // --errors: Prism checks its own responses against the contract and fails loudly when an example is wrong.
  const args = [PRISM_CLI, "mock", options.specPath, "--host", host, "--port", String(options.port), "--errors", "--verboseLevel", "warn"];
  const child: ChildProcess = spawnGroup(process.execPath, args, { env: toolEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error("prism did not start");

  let exited = false;
  const exitedPromise = new Promise<void>((resolve) =>
    child.on("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited) return;
    killGroup(pid, "SIGTERM");
    const killTimer = setTimeout(() => !exited && killGroup(pid), 5_000);
    await exitedPromise;
    clearTimeout(killTimer);
    killGroup(pid);
  };

  try {
    await waitForPort(options.port, host, 60_000, () => !exited);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { pid, url: `http://${host}:${options.port}`, log: () => output, stop };
}
