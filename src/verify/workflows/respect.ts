// Runs `redocly respect` (the optional peer dependency @redocly/cli) quietly and offline, to completion, whatever it
// exits with: its JSON log says what ran.
import { spawn } from "node:child_process";
import { redoclyCommand, RESPECT_PACKAGE, respectRelease } from "../package-files.ts";
import { QUIET_TOOL_ENV } from "../../shared/quiet-tools.ts";

export interface RespectRun {
  code: number;
  stdout: string;
  stderr: string;
}

const release = respectRelease();
/** What a run of verify without @redocly/cli says of every workflow: the install line names the release the package pins. */
export const RESPECT_MISSING = `needs ${RESPECT_PACKAGE} to run the workflows (npm install --save-dev ${RESPECT_PACKAGE}${release === undefined ? "" : `@${release}`})`;

export function respectInstalled(): boolean {
  return redoclyCommand() !== undefined;
}

export function runRespect(args: string[]): Promise<RespectRun> {
  const command = redoclyCommand();
  if (command === undefined) return Promise.reject(new Error(RESPECT_MISSING));
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...QUIET_TOOL_ENV };
    const child = spawn(process.execPath, [command, "respect", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** What respect's JSON log (`--json-output`) tells of a workflow it ran: its steps, each with its request, answer and criteria. */
export interface RespectCheck {
  name: string;
  passed: boolean;
  message?: string;
  condition?: string;
}
export interface RespectStep {
  stepId: string;
  request?: { method: string; url: string; headers?: Record<string, string> };
  response?: { statusCode: number; body: unknown; headers?: Record<string, string | string[]> };
  checks: RespectCheck[];
  status: string;
  totalTimeMs?: number;
}
export interface RespectWorkflow {
  workflowId: string;
  executedSteps: RespectStep[];
  status: string;
  globalTimeoutError?: unknown;
}
