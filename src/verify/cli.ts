// `svc-health-verify --base-url <url>` (`npm run verify --` in this repository): checks a running server against the
// bundled contract (generated/openapi.json), operation by operation and through the document's workflows, and writes a
// JSON and a JUnit report of the checks (src/verify/run.ts); built into generated/verify/cli.js by
// scripts/build/build-commands.ts.
import { runVerify } from "./run.ts";

// Node's fetch can leave a promise that nothing will settle (an answer inflating without end, a socket gone quiet)
// while its only timer is unref'd: the event loop would empty and the process exit 13 with no report. A timer of our
// own keeps the loop up until every deadline has fired and the run has ended by its own rules.
const keepAlive = setInterval(() => undefined, 60_000);
try {
  // The progress line only on a terminal, rewritten in place: a CI log gets the check lines and the summary alone.
  const terminal = process.stderr.isTTY === true;
  let shown = false;
  const progress = (line: string) => {
    process.stderr.write(`\r\x1b[2K${line}`);
    shown = true;
  };
  const clear = () => {
    if (shown) process.stderr.write("\r\x1b[2K");
    shown = false;
  };
  process.exitCode = await runVerify(process.argv.slice(2), {
    log: (line) => {
      clear();
      console.log(line);
    },
    error: (line) => {
      clear();
      console.error(line);
    },
    ...(terminal ? { progress } : {}),
  });
  clear();
} catch (error) {
  console.error(`verify: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 2;
} finally {
  clearInterval(keepAlive);
}
