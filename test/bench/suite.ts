// `npm test` as a fresh clone runs it (a clone of HEAD, .tmp/ empty), timed, with where its CPU went: each
// test file's own (its worker's) and its processes' (Chromium, npm, the packaged commands, respect), beside the
// shortest time that CPU allows on this machine's cores and the CPU an 85 s run may use.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import type { Figure } from "./client.ts";

/** issue 33's target for `npm test` on a fresh clone, on this machine. */
const TARGET_SECONDS = 85;

const run = promisify(execFile);

/** A line of suite-file-cpu.ts. */
interface FileCpu {
  file: string;
  own: number;
  children: number;
}

/**
 * CPU seconds the whole machine has been busy, from /proc/stat: the suite's reaped processes alone would leave out
 * Chromium's renderers, which its zygote starts outside the worker's tree (about 30 s of a run).
 */
function machineBusyCpu(): number {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: all but idle and iowait.
  const busy = ticks.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value!), 0);
  return busy / 100;
}

export async function suiteFigures(log: (line: string) => void): Promise<Figure[]> {
  // A clone, as the tests that read git (the review, the release, the tree's files) need one: what is committed is timed.
  const copy = await mkdtemp(path.join(os.tmpdir(), "svc-bench-suite-"));
  try {
    execFileSync("git", ["clone", "--quiet", "--no-hardlinks", repoRoot, copy]);
    // The installed dependencies of this tree, as `npm ci` would install them from the same lock file.
    await symlink(path.join(repoRoot, "node_modules"), path.join(copy, "node_modules"));
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: copy, encoding: "utf8" }).trim();
    log(`timing npm test in a clone of ${commit}`);
    const scratch = path.join(copy, ".tmp", "suite-bench");
    await mkdir(scratch, { recursive: true });
    const cpuLog = path.join(scratch, "files.jsonl");
    // The suite's own configuration with one setup file more; in .tmp/, which no test of the tree looks at.
    const config = path.join(scratch, "vitest.config.ts");
    await writeFile(
      config,
      [
        'import { mergeConfig } from "vitest/config";',
        `import base from ${JSON.stringify(path.join(copy, "vitest.config.ts"))};`,
        `export default mergeConfig(base, { root: ${JSON.stringify(copy)}, test: { setupFiles: [${JSON.stringify(path.join(repoRoot, "test/bench/suite-file-cpu.ts"))}] } });`,
        "",
      ].join("\n"),
    );
    const before = machineBusyCpu();
    const started = performance.now();
    const { code, output } = await run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", config], {
      cwd: copy,
      env: { ...process.env, SVC_SUITE_CPU_LOG: cpuLog },
      maxBuffer: 1 << 28,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout}${error.stderr}` }),
    );
    const wall = (performance.now() - started) / 1000;
    const cpu = machineBusyCpu() - before;
    const summary = /tests: \d+ passed, \d+ failed, \d+ skipped/.exec(output)?.[0] ?? "no summary line";
    if (code !== 0) throw new Error(`the suite failed (exit ${code}), so its time says nothing: ${summary}\n${output.slice(-4000)}`);

    const files = (await readFile(cpuLog, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as FileCpu)
      .map((row) => ({ ...row, file: path.relative(copy, row.file), total: row.own + row.children }));
    const inFiles = files.reduce((sum, row) => sum + row.total, 0);
    log(
      `${summary}; ${wall.toFixed(1)} s, ${cpu.toFixed(1)} s of the machine's CPU, ${inFiles.toFixed(1)} s of it counted in test files (the rest: vitest's own` +
        " processes, the global mock, Chromium's renderers, and whatever else ran on the machine)",
    );
    log("CPU by test file (its worker's + its processes'; not Chromium's renderers), the largest first:");
    for (const row of [...files].sort((a, b) => b.total - a.total).slice(0, 20))
      log(`  ${row.total.toFixed(1).padStart(6)} s  (${row.own.toFixed(1)} + ${row.children.toFixed(1)})  ${row.file}`);

    const cores = os.availableParallelism();
    return [
      {
        name: `npm test on a fresh clone (${summary.replace("tests: ", "")})`,
        value: wall,
        unit: "s",
        baseline: { name: `its CPU time spread over the ${cores} cores`, value: cpu / cores },
        ratio: wall / (cpu / cores),
        target: `at most ${TARGET_SECONDS} s`,
      },
      {
        name: "npm test's CPU time (the machine's, while it ran)",
        value: cpu,
        unit: "s",
        baseline: { name: `what ${TARGET_SECONDS} s on ${cores} cores holds`, value: TARGET_SECONDS * cores },
        ratio: cpu / (TARGET_SECONDS * cores),
        target: "under 1 for the 85 s",
      },
    ];
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
