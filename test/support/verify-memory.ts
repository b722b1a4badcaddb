// Run by node --import tsx: runs verify in this process with the given command line and prints its exit status, its
// first and last lines and the process's peak resident memory (VmHWM), for test/verify/hostile-servers.test.ts and the
// bench. The lines in between are counted, not kept: what a run prints must not count as what it holds.
import { readFileSync } from "node:fs";
import { runVerify } from "../../src/verify/run.ts";

const FIRST = 200;
const LAST = 100;
const first: string[] = [];
const last: string[] = [];
let count = 0;
const keep = (line: string) => {
  count++;
  if (first.length < FIRST) return void first.push(line);
  last.push(line);
  if (last.length > LAST) last.shift();
};
const code = await runVerify(process.argv.slice(2), { log: keep, error: keep });
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]);
console.log(JSON.stringify({ code, lines: [...first, ...last], count, peakMb: peakKb / 1024 }));
