// `npm run soak [-- --runs 20 --concurrency 2]`: verify, in this process, against one stateful mock, run after run
// with a new seed each, a few at a time, printing each seed with its result line; exit 1 unless every run passes. A
// false failure that one run in several meets (a generated value the mock or verify mishandles) shows here with the
// seed that replays it (`npm run verify -- --base-url <mock> --seed <n>`), which one run of `npm test` would miss.
import { randomInt } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { runVerify } from "../../src/verify/run.ts";
import { isMain } from "../build/lib/cli.ts";
import { repoRoot } from "../build/lib/paths.ts";
import { startMock } from "./mock-server.ts";

export interface SoakOptions {
  runs: number;
  concurrency: number;
  /** Where each run's reports go, in a folder named by its seed. */
  reportRoot: string;
  print: (line: string) => void;
}

export interface SoakRun {
  seed: number;
  code: number;
  /** verify's summary line (`verify: 957 passed, 0 failed, ...`), or why there is none. */
  result: string;
}

/** verify's summary, its last line that counts the checks. */
const SUMMARY = /^verify: \d+ passed, \d+ failed, \d+ skipped/;

/** Seeds in verify's own range (it draws below 2^31), none twice. */
function newSeeds(count: number): number[] {
  const seeds = new Set<number>();
  while (seeds.size < count) seeds.add(randomInt(2 ** 31));
  return [...seeds];
}

/** Runs verify `runs` times against one stateful mock, `concurrency` at a time; prints each run as it ends. */
export async function soak(options: SoakOptions): Promise<SoakRun[]> {
  // What the mock logs is a fault of its own (an answer that broke the contract, a crash): printed as it happens.
  const mock = await startMock({ port: 0, stateful: {}, log: (line) => options.print(`mock: ${line}`) });
  const seeds = newSeeds(options.runs);
  const queue = [...seeds];
  const done: SoakRun[] = [];
  options.print(`soak: ${options.runs} runs of verify against the stateful mock at ${mock.url}, ${options.concurrency} at a time`);
  try {
    await rm(options.reportRoot, { recursive: true, force: true });
    const worker = async () => {
      for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
        const reportDir = path.join(options.reportRoot, String(seed));
        await mkdir(reportDir, { recursive: true });
        const lines: string[] = [];
        const code = await runVerify(["--base-url", mock.url, "--seed", String(seed), "--report-dir", reportDir], {
          log: (line) => lines.push(line),
          error: (line) => lines.push(line),
        });
        const result = lines.filter((line) => SUMMARY.test(line)).at(-1) ?? `no summary (exit ${code}): ${lines.at(-1) ?? "nothing printed"}`;
        done.push({ seed, code, result });
        options.print(`seed ${seed}: ${code === 0 ? "passed" : "FAILED"}: ${result}`);
        // A failure is printed with its reproduction, so the run that met it says what to replay.
        if (code !== 0) for (const line of lines.filter((each) => each.startsWith("✗") || each.startsWith("    reproduce:"))) options.print(`  ${line}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency, options.runs) }, worker));
  } finally {
    await mock.stop();
  }
  const passed = done.filter((run) => run.code === 0).length;
  options.print(
    `soak: ${passed} of ${options.runs} passed${
      passed === options.runs
        ? ""
        : `; failed seeds: ${done
            .filter((run) => run.code !== 0)
            .map((run) => run.seed)
            .join(", ")}`
    }`,
  );
  return done;
}

/** A whole number of at least 1, or the line saying what is wrong with it. */
function count(flag: string, given: string | undefined, fallback: number): number | string {
  if (given === undefined) return fallback;
  const value = Number(given);
  return Number.isInteger(value) && value >= 1 ? value : `--${flag} ${given} is not a whole number of at least 1`;
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: "string" }, concurrency: { type: "string" } } });
  const runs = count("runs", values.runs, 20);
  const concurrency = count("concurrency", values.concurrency, 2);
  const wrong = [runs, concurrency].find((each) => typeof each === "string");
  if (wrong !== undefined) {
    console.error(`soak: ${wrong} (usage: npm run soak -- [--runs 20] [--concurrency 2])`);
    process.exit(2);
  }
  const done = await soak({
    runs: runs as number,
    concurrency: concurrency as number,
    reportRoot: path.join(repoRoot, ".tmp", "soak"),
    print: (line) => console.log(line),
  });
  process.exitCode = done.every((run) => run.code === 0) && done.length === runs ? 0 : 1;
}
