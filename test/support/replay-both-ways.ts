// A run's failures sent again with --replay twice: on the faulty server, where each must fail again, and on a right
// one at the same address (the test switches its fault off between the two), where each must no longer fail. One
// failure per cause (each group's first), so the cost stays a few replays a run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Check } from "../../src/verify/check.ts";
import { REPORT_JSON, type Report } from "../../src/verify/report/report.ts";
import { runVerify } from "../../src/verify/run.ts";

export interface Replayed {
  check: Check;
  /** The exit status and lines of the replay on the faulty server, then on the right one. */
  faulty: { code: number; said: string[] };
  fixed: { code: number; said: string[] };
}

async function replay(reportDir: string, id: string): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const out = { log: (line: string) => said.push(line), error: (line: string) => said.push(line) };
  return { code: await runVerify(["--replay", id, "--report-dir", reportDir], out), said };
}

/** The first failure of each cause but the workflows', replayed on the faulty server, then, after `fix`, on the right one. */
export async function replayBothWays(report: Report, fix: () => void): Promise<Replayed[]> {
  // The run's own folder is gone with it (support/run-verify.ts): a replay reads only the report, written again here.
  const reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-replays-"));
  try {
    writeFileSync(path.join(reportDir, REPORT_JSON), JSON.stringify(report));
    const firsts = report.groups
      .map((group) => report.checks.find((check) => check.id === group.first.id)!)
      .filter((check) => !check.suite.startsWith("workflow ") && check.request !== undefined);
    const faulty = [];
    for (const check of firsts) faulty.push(await replay(reportDir, check.id!));
    fix();
    const replayed: Replayed[] = [];
    for (const [index, check] of firsts.entries()) replayed.push({ check, faulty: faulty[index]!, fixed: await replay(reportDir, check.id!) });
    return replayed;
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** A replay's lines, for an assertion's message. */
export function replayStory(replayed: Replayed, which: "faulty" | "fixed"): string {
  return [`${replayed.check.id} ${replayed.check.suite} ${replayed.check.name}`, ...replayed[which].said].join("\n");
}
