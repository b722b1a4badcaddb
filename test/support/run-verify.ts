// Runs `npm run verify` (src/verify/cli.ts) as a process of its own, as a user does, or in this process where the
// process is not the point (a tsx start costs more than the run), with a report folder of its own, and reads what it
// printed and wrote.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { binPath, toolEnv } from "../../scripts/build/lib/tools.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import type { Report } from "../../src/verify/report/report.ts";
import { runVerify as runVerifyHere } from "../../src/verify/run.ts";
import { killGroup, spawnGroup } from "./processes.ts";

export interface VerifyRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** verify-report.json, when the run wrote one. */
  report: Report | undefined;
  /** verify-junit.xml, when the run wrote one. */
  junit: string | undefined;
}

/** The reports a run wrote into its folder, read, and the folder removed. */
function readReports(reportDir: string): Pick<VerifyRun, "report" | "junit"> {
  const jsonPath = path.join(reportDir, "verify-report.json");
  const junitPath = path.join(reportDir, "verify-junit.xml");
  const read = {
    report: existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, "utf8")) as Report) : undefined,
    junit: existsSync(junitPath) ? readFileSync(junitPath, "utf8") : undefined,
  };
  rmSync(reportDir, { recursive: true, force: true });
  return read;
}

/**
 * verify's run in this process: the console's lines collected as a process's output would be. The variables in env are
 * set for the run and put back after it, so the runs of one file that pass env must not overlap.
 */
export async function runVerifyInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<VerifyRun> {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-report-"));
  const started = performance.now();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let code: number;
  try {
    code = await runVerifyHere(["--report-dir", reportDir, ...args], { log: (line) => stdout.push(line), error: (line) => stderr.push(line) });
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  return {
    code,
    stdout: stdout.map((line) => `${line}\n`).join(""),
    stderr: stderr.map((line) => `${line}\n`).join(""),
    ms: performance.now() - started,
    ...readReports(reportDir),
  };
}

export function runVerify(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<VerifyRun> {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-report-"));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawnGroup(binPath("tsx"), ["src/verify/cli.ts", "--report-dir", reportDir, ...args], {
      cwd: repoRoot,
      env: { ...toolEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk) => (stdout += chunk));
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(new Error(`verify ${args.join(" ")} did not finish within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      // Anything verify left running in its group goes with it.
      killGroup(child.pid);
      resolve({ code: code ?? 1, stdout, stderr, ms: performance.now() - started, ...readReports(reportDir) });
    });
  });
}

/** The checks that failed, as `suite name: detail` lines, for assertions that show what went wrong. */
export function failures(run: VerifyRun): string[] {
  return (run.report?.checks ?? []).filter((check) => check.status === "failed").map((check) => `${check.suite} ${check.name}: ${check.detail ?? ""}`);
}
