// A setup file `npm run bench -- --only suite` adds to the suite it times (never `npm test`'s): for each test file, the
// CPU time its worker spent on it and what the processes it started spent, one JSON line each to $SVC_SUITE_CPU_LOG.
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, expect } from "vitest";

/** The worker's own CPU time and that of the children it has reaped, in seconds, from /proc/self/stat (Linux). */
function cpuTimes(): { own: number; children: number } {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command's name, which may hold spaces and brackets: utime, stime, cutime, cstime are 14-17.
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  // Clock ticks: 100 a second on Linux's x86-64 and arm64 kernels.
  const seconds = (index: number) => fields[index - 3]! / 100;
  return { own: seconds(14) + seconds(15), children: seconds(16) + seconds(17) };
}

const log = process.env.SVC_SUITE_CPU_LOG;
if (log !== undefined) {
  const file = expect.getState().testPath ?? "(unknown)";
  const start = cpuTimes();
  afterAll(() => {
    const end = cpuTimes();
    appendFileSync(log, `${JSON.stringify({ file, own: end.own - start.own, children: end.children - start.children })}\n`);
  });
}
