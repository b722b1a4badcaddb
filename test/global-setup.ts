// Starts the mock once for the suite, and bare Prism beside it for the tests that show what Prism alone answers; stops
// both, and kills bare Prism's process group whatever happens (the mock's own Prism, for dynamic answers, is in its
// process). At the end, a process any test started (test/support/processes.ts notes each) still running fails the run.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startMock, type RunningMock } from "../scripts/commands/mock-server.ts";
import { startPrism, type PrismProcess } from "./support/bare-prism.ts";
import { freePort } from "./support/net.ts";
import { killGroup, REGISTRY_ENV, survivors } from "./support/processes.ts";
import { bundleJsonPath } from "../scripts/build/lib/paths.ts";

declare module "vitest" {
  export interface ProvidedContext {
    mockUrl: string;
    prismUrl: string;
  }
}

let mock: RunningMock | undefined;
let prism: PrismProcess | undefined;
let prismStarting: Promise<PrismProcess> | undefined;
const registryDir = mkdtempSync(path.join(os.tmpdir(), "svc-test-processes-"));
const registry = path.join(registryDir, "spawned");

function killPrism(): void {
  killGroup(prism?.pid);
}

export async function setup(project: TestProject): Promise<void> {
  // Set before any worker starts, so every worker's spawns note themselves in the same file.
  process.env[REGISTRY_ENV] = registry;
  // If the runner dies without teardown, no Prism may outlive it.
  process.once("exit", killPrism);
  // SVC_BARE_PRISM=off: a run of files that never compare with bare Prism (the add-an-endpoint test's) need not start it.
  const barePrism = process.env.SVC_BARE_PRISM !== "off";
  // Bare Prism takes seconds to start and two files use it: it starts beside the run, not before it, and those files
  // wait for its port (support/mock.ts's prismReady).
  const prismPort = barePrism ? await freePort() : 9;
  if (barePrism) {
    prismStarting = startPrism({ specPath: bundleJsonPath, port: prismPort }).then((started) => (prism = started));
    // Its failure is reported by the files that wait for it, with Prism's output; teardown must not throw it again.
    prismStarting.catch(() => undefined);
  }
  mock = await startMock({ port: 0, log: (line) => console.error(`[mock] ${line}`) });
  project.provide("mockUrl", mock.url);
  project.provide("prismUrl", `http://127.0.0.1:${prismPort}`);
}

export async function teardown(): Promise<void> {
  await mock?.stop();
  await prismStarting?.catch(() => undefined);
  await prism?.stop();
  killPrism();
  const left = survivors(registry);
  // Killed now, so a failing run leaves nothing either; the run fails all the same.
  for (const line of left) killGroup(Number(line.split(" ")[0]));
  rmSync(registryDir, { recursive: true, force: true });
  if (left.length === 0) return;
  // Vitest prints an error thrown here but still exits 0: the exit code is set too.
  process.exitCode = 1;
  throw new Error(`processes started by tests were still running at the end (a test did not stop them):\n${left.join("\n")}`);
}
