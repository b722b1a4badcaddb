// The review of an unchanged tree (`npm run review -- --base HEAD`) beside `npm run lint` alone, timed in the same run.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import type { Figure } from "./client.ts";

const run = promisify(execFile);

/** Wall time of one command, as a user runs it through npm; a failing command still counts its time. */
async function seconds(args: string[]): Promise<number> {
  const started = performance.now();
  await run("npm", args, { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }).catch(() => undefined);
  return (performance.now() - started) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function reviewFigures(log: (line: string) => void): Promise<Figure[]> {
  const lint: number[] = [];
  const review: number[] = [];
  // Alternated, three of each, so a noisy moment of the machine falls on both.
  for (let round = 0; round < 3; round++) {
    lint.push(await seconds(["run", "--silent", "lint"]));
    review.push(await seconds(["run", "--silent", "review", "--", "--base", "HEAD"]));
    log(`review round ${round + 1}: lint ${lint.at(-1)!.toFixed(1)} s, review ${review.at(-1)!.toFixed(1)} s`);
  }
  const value = median(review);
  const baseline = median(lint);
  return [
    {
      name: "review of an unchanged tree (median of 3)",
      value,
      unit: "s",
      baseline: { name: "npm run lint", value: baseline },
      ratio: value / baseline,
      target: "≤ 1.5",
    },
  ];
}
