// Runs `npm run verify`'s script (tsx scripts/verify.ts) as a process of its own, as a user does, with a report folder
// of its own, and reads what it printed and wrote.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { binPath, toolEnv } from "../../scripts/build/lib/tools.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import type { Report } from "../../src/verify/report.ts";
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

export function runVerify(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<VerifyRun> {
  const reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-report-"));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawnGroup(binPath("tsx"), ["src/verify/cli.ts", "--report-dir", reportDir, ...args], { cwd: repoRoot, env: { ...toolEnv, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
      const jsonPath = path.join(reportDir, "verify-report.json");
      const junitPath = path.join(reportDir, "verify-junit.xml");
      const run: VerifyRun = {
        code: code ?? 1,
        stdout,
        stderr,
        ms: performance.now() - started,
        report: existsSync(jsonPath) ? (JSON.parse(readFileSync(jsonPath, "utf8")) as Report) : undefined,
        junit: existsSync(junitPath) ? readFileSync(junitPath, "utf8") : undefined,
      };
      rmSync(reportDir, { recursive: true, force: true });
      resolve(run);
    });
  });
}

/** The checks that failed, as `suite name: detail` lines, for assertions that show what went wrong. */
export function failures(run: VerifyRun): string[] {
  return (run.report?.checks ?? []).filter((check) => check.status === "failed").map((check) => `${check.suite} ${check.name}: ${check.detail ?? ""}`);
}
