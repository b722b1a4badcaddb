// The packed mock command stops when the reader stops it as the guides say: `npx svc-health-mock --port <p> &`, then
// `kill $!`, in a script run by bash, frees the port within 2 s, under the npm of each supported Node line (npm 10 for
// Node 20 and 22, npm 11 for Node 24). `$!` is npm's process, not the mock's: npm passes the signal to the shell it ran
// the command in, which ends without passing it on, and the mock stops when that shell goes. (`kill -INT $!` cannot
// work so: that shell, dash on Debian, waits for the mock before acting on a SIGINT; docs/mock-command.md says so.)
// Run as its own process group, so nothing here ends the mock but the script's own `kill`.
import { readFileSync, realpathSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/net.ts";
import { installPacked, OTHER_NODE, OTHER_NPM, otherNodeBinary, otherNpx, type PackedProject } from "../support/packed.ts";
import { killGroup, onPath, spawnGroup } from "../support/processes.ts";

let project: PackedProject;
/** Each npm, by what the test calls it: its npx as a command line, run on a Node first on the PATH (the mock's `node`). */
let npms: { name: string; npx: string; path: string; major: number }[];

beforeAll(async () => {
  const [installed, npx10, node24] = await Promise.all([installPacked(), otherNpx(), otherNodeBinary()]);
  project = installed;
  // This machine's npm (11, the Node 24 line's): the script its `npx` on the PATH is.
  const npx11 = realpathSync(onPath("npx")!);
  const on = (node: string) => `${path.dirname(node)}${path.delimiter}${process.env.PATH}`;
  /** The major version of the npm a npx script belongs to (bin/npx-cli.js, beside its package.json). */
  const major = (npx: string) =>
    Number((JSON.parse(readFileSync(path.join(path.dirname(npx), "..", "package.json"), "utf8")) as { version: string }).version.split(".")[0]);
  npms = [
    { name: `npm ${OTHER_NPM.version} on Node ${process.version}`, npx: `${process.execPath} ${npx10}`, path: on(process.execPath), major: major(npx10) },
    { name: `this machine's npm on Node ${OTHER_NODE.version}`, npx: `${node24} ${npx11}`, path: on(node24), major: major(npx11) },
  ];
}, 120_000);
afterAll(() => project?.remove());

/** Starts the mock in the background as the guides do, waits for its port, signals `$!`, and says whether the port came free. */
const SCRIPT = `set -u
port=$1; signal=$2   # $NPX: the npx to run, as a command line
$NPX svc-health-mock --port "$port" > mock.log 2>&1 &
for _ in $(seq 1 300); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "the mock never listened"; cat mock.log; exit 2; }
kill "-$signal" $!
for _ in $(seq 1 20); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "port free"; exit 0; }; sleep 0.1; done
echo "port still in use 2 s after kill -$signal"; exit 1
`;

async function stopsOn(npm: { npx: string; path: string }, signal: "TERM"): Promise<{ code: number | null; output: string }> {
  const script = path.join(project.dir, `stop-${signal}-${Math.random().toString(36).slice(2)}.sh`);
  await writeFile(script, SCRIPT);
  const child = spawnGroup("bash", [script, String(await freePort()), signal], {
    cwd: project.dir,
    env: { ...process.env, PATH: npm.path, NPX: npm.npx },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  // A mock the kill did not stop is still in the script's group: gone now, whatever the outcome.
  killGroup(child.pid);
  return { code, output };
}

describe("npx svc-health-mock in the background, stopped with kill $!", () => {
  it("frees its port within 2 s under each supported npm", async () => {
    const runs = await Promise.all(npms.map(async (npm) => ({ npm, ...(await stopsOn(npm, "TERM")) })));
    for (const { npm, code, output } of runs) {
      expect(output, `${npm.name}: ${output}`).toContain("port free");
      expect(code, `${npm.name}: ${output}`).toBe(0);
    }
    // The two runs used the two npm majors.
    expect(npms.map((npm) => npm.major)).toEqual([OTHER_NPM.major, 11]);
  });
});
