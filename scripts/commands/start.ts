// Serves the mock on 127.0.0.1 (port 4010, or --port N / PORT) with the reference: rebuilds and lints generated/ first
// only when its inputs changed, listens at once, and builds a missing reference in the background.
import { MOCK_PATHS } from "../../src/mock/paths.ts";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { referenceStale, upToDate } from "../build/up-to-date.js";
import { bundleJsonPath, readBundle, repoRoot } from "../build/lib/paths.ts";
import { hostOptionsOf, OPTIONS_USAGE, readDataFile, readMockOptions } from "../../src/mock/options.ts";
import { checkSeed, SeedError } from "../../src/mock/state/seed.ts";
import { startMock } from "./mock-server.ts";
import { proxyBanner, ProxyError } from "../../src/mock/proxy.ts";

const USAGE = `usage: npm start -- [options]

${OPTIONS_USAGE}`;

/** Stops with one line naming the cause: what a person starting the mock needs, not a stack trace. */
function fail(line: string): never {
  console.error(`npm start: ${line}`);
  process.exit(1);
}

const options = readMockOptions(USAGE, "npm start -- --help lists the options", fail);
const { port, host, stateful, dataFile, proxy, record } = options;
const data = dataFile === undefined ? undefined : readDataFile(dataFile, fail);
const refuseData = (error: unknown) => {
  if (error instanceof SeedError) fail(error.describe(`--data ${dataFile}`));
};

const fresh = await upToDate();
if (data !== undefined && !fresh) {
  // Checked against the contract as it stands before it is rebuilt: whoever fixes the file does not wait on a build to
  // hear what is wrong with it. The mock checks it again as it loads it, against what it serves (with nothing to
  // rebuild, that is the only check).
  try {
    checkSeed(await readBundle(bundleJsonPath), data);
  } catch (error) {
    refuseData(error);
    throw error;
  }
}

if (!fresh) {
  // Build and lint in a process of their own, so the mock never holds TypeScript, Redocly and Spectral in memory.
  // A contract that does not build or lint is not served.
  const child = spawnSync(process.execPath, ["--import", "tsx", path.join(repoRoot, "scripts", "commands", "rebuild.ts")], {
    cwd: repoRoot,
    encoding: "utf8",
    stdio: ["ignore", "inherit", "pipe"],
  });
  if (child.status !== 0) {
    const lines = (child.stderr ?? "").split("\n").filter((line) => line.trim() !== "" && !line.includes("nodedir") && !/^\s+at /.test(line));
    fail(
      lines.find((line) => line.startsWith("the contract does not lint")) ??
        `the contract does not build: ${lines.find((line) => /Error/.test(line)) ?? lines[0] ?? `exit ${child.status}`}`,
    );
  }
}

let referenceMessage: string | undefined;
if (await referenceStale()) referenceMessage = "The reference is being built; this page reloads by itself.";

const mock = await startMock({
  port,
  host,
  log: (line) => console.error(line),
  referencePending: () => referenceMessage,
  ...hostOptionsOf(options, data),
}).catch((error: NodeJS.ErrnoException) => {
  refuseData(error);
  if (error instanceof ProxyError) fail(error.message);
  if (error.code === "EADDRINUSE") fail(`port ${port} on ${host} is in use. Stop what holds it, or run: npm start -- --port ${port + 1}`);
  return fail(`the mock did not start: ${error.message}`);
});
if (proxy !== undefined) console.log(`\n${proxyBanner(mock.url, proxy, record)}\nStop with Ctrl-C.`);
else
  console.log(`
Mock server:  ${mock.url}   (${stateful ? `stateful: remembers each team's calls; ${mock.url}${MOCK_PATHS.state} resets it and moves its clock` : "answers from the contract's examples"}; Prism loads on the first Prefer: dynamic=true)
Reference:    ${mock.url}/docs   (also generated/reference.html)
Contract:     ${mock.url}/openapi.yaml   ${mock.url}/openapi.json

Try:  curl -s -H 'x-svc-api-key: sk_test_example_not_a_real_key' ${mock.url}/v3/lab_tests/labs
Branches:  add -H 'Prefer: code=404' or -H 'Prefer: example=<name>' (names are in the reference).
Stop with Ctrl-C.`);

if (referenceMessage !== undefined) {
  const { buildReference } = await import("../build/build-docs.ts");
  await buildReference()
    .then(() => console.error("build: wrote generated/reference.html"))
    .catch((error: Error) => console.error(`npm start: the reference did not build: ${error.message.split("\n")[0]}`));
  referenceMessage = undefined;
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void mock.stop().then(() => process.exit(0));
  });
}
