// Run by node --import tsx: runs verify in this process with the given command line and prints its exit status and the
// process's peak resident memory (VmHWM), for test/verify/hostile-servers.test.ts.
import { readFileSync } from "node:fs";
import { runVerify } from "../../src/verify/run.ts";

const lines: string[] = [];
const code = await runVerify(process.argv.slice(2), { log: (line) => lines.push(line), error: (line) => lines.push(line) });
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]);
console.log(JSON.stringify({ code, lines, peakMb: peakKb / 1024 }));
