// Runs the package's command-line tools (Redocly, Spectral, Prism) from node_modules, quietly and offline.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./paths.ts";
import { QUIET_TOOL_ENV } from "../../../src/shared/quiet-tools.ts";

/** Environment for every tool: no telemetry or update checks, since the machine has no network. */
export const toolEnv: NodeJS.ProcessEnv = { ...process.env, ...QUIET_TOOL_ENV };

export function binPath(name: string): string {
  return path.join(repoRoot, "node_modules", ".bin", name);
}

export interface ToolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a tool to completion; rejects with its output when it exits non-zero. */
export function runTool(name: string, args: string[], options: { allowFailure?: boolean; cwd?: string } = {}): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binPath(name), args, { cwd: options.cwd ?? repoRoot, env: toolEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const result = { code: code ?? 1, stdout, stderr };
      if (result.code !== 0 && !options.allowFailure) {
        reject(new Error(`${name} ${args.join(" ")} exited ${result.code}\n${stdout}\n${stderr}`));
      } else {
        resolve(result);
      }
    });
  });
}

/**
 * Unpacks the tar stream a process writes (`git archive`, `tar -c`) into `dir` with `tar -x` and any `extract` options;
 * rejects with `failure` and both processes' errors when either fails.
 */
export function untarFrom(producer: ChildProcess, dir: string, failure: string, extract: string[] = []): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const unpack = spawn("tar", ["-x", ...extract, "-f", "-", "-C", dir], { stdio: ["pipe", "ignore", "pipe"] });
    let errors = "";
    producer.stderr?.on("data", (chunk) => (errors += chunk));
    unpack.stderr.on("data", (chunk) => (errors += chunk));
    producer.stdout!.pipe(unpack.stdin);
    producer.on("error", reject);
    unpack.on("error", reject);
    unpack.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${failure}: ${errors}`))));
  });
}
