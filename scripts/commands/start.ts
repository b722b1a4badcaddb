// Serves the mock on 127.0.0.1 (port 4010, or --port N / PORT) with the reference: rebuilds and lints generated/ first
// only when its inputs changed, listens at once, and builds a missing reference in the background.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { referenceStale, upToDate } from "../build/up-to-date.js";
import { bundleJsonPath, readBundle, repoRoot } from "../build/lib/paths.ts";
import {
  banner,
  checkSeed,
  commandUsage,
  failWith,
  hostOptionsOf,
  readDataFile,
  readMockOptions,
  SeedError,
  startFailure,
  stopOnSignals,
} from "../../src/mock/server.ts";
import { startMock } from "./mock-server.ts";

const USAGE = commandUsage("usage: npm start -- [options]", undefined);

const fail = failWith("npm start");

const options = readMockOptions(USAGE, "npm start -- --help lists the options", fail);
const { port, host, stateful, strictKeys, dataFile, proxy, record } = options;
const data = dataFile === undefined ? undefined : readDataFile(dataFile, fail);
const facts = { port, host, dataFile, onPort: (other: number) => `npm start -- --port ${other}` };

const fresh = await upToDate();
if (data !== undefined && !fresh) {
  // Checked against the contract as it stands before it is rebuilt: whoever fixes the file does not wait on a build to
  // hear what is wrong with it. The mock checks it again as it loads it, against what it serves (with nothing to
  // rebuild, that is the only check).
  try {
    checkSeed(await readBundle(bundleJsonPath), data);
  } catch (error) {
    if (error instanceof SeedError) startFailure(error, facts, fail);
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
}).catch((error: unknown) => startFailure(error, facts, fail));
console.log(
  banner({
    url: mock.url,
    stateful,
    strictKeys,
    proxy,
    record,
    prism: "Prism loads on the first Prefer: dynamic=true",
    reference: `${mock.url}/docs   (also generated/reference.html)`,
    long: true,
  }),
);

if (referenceMessage !== undefined) {
  const { buildReference } = await import("../build/build-docs.ts");
  await buildReference()
    .then(() => console.error("build: wrote generated/reference.html"))
    .catch((error: Error) => console.error(`npm start: the reference did not build: ${error.message.split("\n")[0]}`));
  referenceMessage = undefined;
}

stopOnSignals(() => mock.stop());
