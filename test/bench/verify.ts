// `npm run verify` against the stateful mock as users run both (npm start -- --stateful, npm run verify, new processes):
// a default run's time beside verify of one operation, the requests it sends of its own (target: at least 2,000 in at
// most 60 s), and its requests a second beside the mock's throughput for the same requests replayed 8 at a time; and a
// full run's peak memory against a server that answers everything wrongly beside the run against the mock (target:
// under 320 MB whatever the server does); and across a network, the mock answering in 40-60 ms, as a team runs the
// command the package ships (generated/verify/cli.js, plain Node, as npx runs it): the default run (--concurrency 8;
// target: at most 25 s) beside its ideal and the same command without latency, --concurrency 1, and the run treated
// as remote with --allow-writes (the remote default rate).
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { toolEnv } from "../../scripts/build/lib/tools.ts";
import type { Report } from "../../src/verify/report/report.ts";
import { startAlteringProxy } from "../support/altering-proxy.ts";
import { startHostile } from "../support/hostile-servers.ts";
import type { Figure } from "./client.ts";
import { launch, stop } from "./stateful.ts";

const run = promisify(execFile);

export async function verifyFigures(log: (line: string) => void = () => {}): Promise<Figure[]> {
  const figures: Figure[] = [];
  const target = await launch(["--stateful"]);
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "bench-verify-"));
  try {
    const time = async (args: string[]) => {
      const started = performance.now();
      await run("npm", ["run", "--silent", "verify", "--", "--base-url", target.url, "--report-dir", reportDir, ...args], {
        cwd: repoRoot,
        env: toolEnv,
        maxBuffer: 1 << 26,
      });
      return performance.now() - started;
    };
    const whole = await time([]);
    const report = JSON.parse(await readFile(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
    const floor = await time(["--skip-workflows", "--only", "listLabs"]);
    const floorReport = JSON.parse(await readFile(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
    log(
      `npm run verify: ${(whole / 1000).toFixed(1)} s (${report.requests} requests of its own, the workflows' besides), floor ${(floor / 1000).toFixed(1)} s`,
    );
    figures.push({
      name: "npm run verify against the stateful mock",
      value: whole,
      unit: "ms",
      baseline: { name: "verify of one operation, no workflows", value: floor },
      ratio: whole / floor,
      target: "value <= 60000 ms",
    });
    figures.push({
      name: "npm run verify: requests of its own in a default run",
      value: report.requests,
      unit: "requests",
      baseline: { name: "verify of one operation, no workflows", value: floorReport.requests },
      ratio: report.requests / floorReport.requests,
      target: "value >= 2000",
    });

    figures.push(...(await latencyFigures(reportDir, log)));

    const recorded = await recordVerifyRequests(target.url, reportDir);
    const verifyRate = recorded.length / (recorded.ms / 1000);
    const replayRate = await replay(target.url, recorded.requests, 8);
    log(
      `verify's pass without workflows: ${recorded.length} requests at ${verifyRate.toFixed(0)} req/s; the same requests replayed 8 at a time: ${replayRate.toFixed(0)} req/s`,
    );
    figures.push({
      name: "npm run verify (no workflows): requests a second",
      value: verifyRate,
      unit: "req/s",
      baseline: { name: "the mock answering the same requests, 8 at a time", value: replayRate },
      ratio: verifyRate / replayRate,
    });

    // Every answer malformed JSON: every check fails, most of them alike, which is what grew a run's memory.
    const wrong = await startHostile("malformed-json");
    try {
      const right = await peakMemory(target.url, reportDir);
      const bad = await peakMemory(wrong.url, reportDir);
      log(
        `verify's peak memory, a full run: ${bad.peakMb.toFixed(0)} MB against a server answering malformed JSON (${bad.failed} failed), ${right.peakMb.toFixed(0)} MB against the stateful mock`,
      );
      figures.push({
        name: "verify's peak memory, a full run against a server answering everything wrongly (malformed JSON)",
        value: bad.peakMb,
        unit: "MB",
        baseline: { name: "the same run against the stateful mock", value: right.peakMb },
        ratio: bad.peakMb / right.peakMb,
        target: "value < 320 MB",
      });
    } finally {
      await wrong.close();
    }
  } finally {
    stop(target);
    await rm(reportDir, { recursive: true, force: true });
  }
  return figures;
}

/** The mean of the latency the stateful mock is started with: 40–60 ms, about a staging server in another region. */
const LATENCY = { conditions: '{"latency_ms":[40,60]}', meanMs: 50 };

/**
 * verify across a network: the default run (--concurrency 8) against the stateful mock answering in 40–60 ms, beside
 * the ideal (its requests × the mean latency ÷ its concurrency) and beside the same command without latency (`floor`, the
 * CPU's share); the same at --concurrency 1 (one request at a time, as verify was); and treated as a remote server
 * (--api-key, --allow-writes: the remote default rate, 100 a second) beside the time that rate alone takes.
 */
async function latencyFigures(reportDir: string, log: (line: string) => void): Promise<Figure[]> {
  const target = await launch(["--stateful", "--conditions", LATENCY.conditions]);
  const direct = await launch(["--stateful"]);
  try {
    const timed = async (args: string[], env: NodeJS.ProcessEnv = {}, url = target.url) => {
      const started = performance.now();
      // The shipped command, as `npx svc-health-verify` runs it: no npm and no tsx in the time. A check failing (exit 1)
      // is a figure too: the report says how many.
      await run(process.execPath, [path.join(repoRoot, "generated", "verify", "cli.js"), "--base-url", url, "--report-dir", reportDir, ...args], {
        cwd: repoRoot,
        env: { ...toolEnv, ...env },
        maxBuffer: 1 << 26,
      }).catch((error: { code?: number }) => {
        if (error.code !== 1) throw error;
      });
      const ms = performance.now() - started;
      const report = JSON.parse(await readFile(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
      return { ms, requests: report.requests, failed: report.summary.failed, rate: report.rate };
    };
    const concurrent = await timed([]);
    const floor = (await timed([], {}, direct.url)).ms;
    const ideal = (concurrent.requests * LATENCY.meanMs) / 8;
    const sequential = await timed(["--concurrency", "1"]);
    const remote = await timed(["--api-key", "sk_test_bench_remote", "--allow-writes"], { SVC_VERIFY_TREAT_AS_REMOTE: "1" });
    const rateAlone = (remote.requests / (remote.rate ?? Number.POSITIVE_INFINITY)) * 1000;
    log(
      `svc-health-verify (generated/verify/cli.js), answers in 40-60 ms: ${(concurrent.ms / 1000).toFixed(1)} s for ${concurrent.requests} requests at --concurrency 8 (${concurrent.failed} failed; ideal ${(ideal / 1000).toFixed(1)} s, without latency ${(floor / 1000).toFixed(1)} s), ${(sequential.ms / 1000).toFixed(1)} s at --concurrency 1, ${(remote.ms / 1000).toFixed(1)} s treated as remote (${remote.requests} requests at most ${remote.rate} a second: ${(rateAlone / 1000).toFixed(1)} s by the rate alone)`,
    );
    return [
      {
        name: "svc-health-verify (the shipped command), answers in 40-60 ms, --concurrency 8 (the default)",
        value: concurrent.ms,
        unit: "ms",
        baseline: { name: "ideal: requests x 50 ms / 8", value: ideal },
        ratio: concurrent.ms / ideal,
        target: "value <= 25000 ms",
      },
      {
        name: "svc-health-verify (the shipped command), answers in 40-60 ms, --concurrency 8 (the default)",
        value: concurrent.ms,
        unit: "ms",
        baseline: { name: "the same run without latency (the CPU floor)", value: floor },
        ratio: concurrent.ms / floor,
      },
      {
        name: "svc-health-verify (the shipped command), answers in 40-60 ms, --concurrency 1",
        value: sequential.ms,
        unit: "ms",
        baseline: { name: "the default run, --concurrency 8", value: concurrent.ms },
        ratio: sequential.ms / concurrent.ms,
      },
      {
        name: "svc-health-verify (the shipped command), answers in 40-60 ms, as a remote server (--api-key, --allow-writes: the remote default rate)",
        value: remote.ms,
        unit: "ms",
        baseline: { name: "its requests at the rate alone", value: rateAlone },
        ratio: remote.ms / rateAlone,
      },
    ];
  } finally {
    stop(target);
    stop(direct);
  }
}

/** A full run's peak resident memory (VmHWM), verify run in a process of its own by test/support/verify-memory.ts. */
async function peakMemory(url: string, reportDir: string): Promise<{ peakMb: number; failed: number }> {
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "test/support/verify-memory.ts", "--base-url", url, "--report-dir", reportDir, "--seed", "1"],
    { cwd: repoRoot, env: toolEnv, maxBuffer: 1 << 26 },
  );
  const { peakMb } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { peakMb: number };
  const report = JSON.parse(await readFile(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
  return { peakMb, failed: report.summary.failed };
}

interface Recorded {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: string;
}

/** verify's own requests (no workflows), recorded by a pass-through proxy; then the same run straight to the mock, timed by its report. */
async function recordVerifyRequests(url: string, reportDir: string): Promise<{ requests: Recorded[]; length: number; ms: number }> {
  const requests: Recorded[] = [];
  const proxy = await startAlteringProxy(url, (exchange) => {
    requests.push({ method: exchange.method, target: exchange.target, headers: exchange.headers, body: exchange.body });
    return undefined;
  });
  try {
    await run("npm", ["run", "--silent", "verify", "--", "--base-url", proxy.url, "--report-dir", reportDir, "--skip-workflows", "--seed", "1"], {
      cwd: repoRoot,
      env: toolEnv,
      maxBuffer: 1 << 26,
    });
  } finally {
    await proxy.close();
  }
  await run("npm", ["run", "--silent", "verify", "--", "--base-url", url, "--report-dir", reportDir, "--skip-workflows", "--seed", "1"], {
    cwd: repoRoot,
    env: toolEnv,
    maxBuffer: 1 << 26,
  });
  const report = JSON.parse(await readFile(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
  // The run's own time (its report's), without the start of its process: what its requests took.
  return { requests, length: report.requests, ms: report.durationMs };
}

/** Sends the requests again, `connections` at a time, and gives the rate they were answered at. */
async function replay(url: string, requests: Recorded[], connections: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      const response = await fetch(`${url}${request.target}`, {
        method: request.method,
        headers: request.headers,
        ...(request.body === "" ? {} : { body: request.body }),
      });
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return requests.length / ((performance.now() - started) / 1000);
}
