// Starts the mock once for the suite and stops it (its own Prism, for dynamic answers, is in its process; the two files
// that show what bare Prism answers start Prism's server themselves, test/support/bare-prism.ts). At the end, a process
// any test started (test/support/processes.ts notes each) still running fails the run.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startMock, type RunningMock } from "../scripts/commands/mock-server.ts";
import { killGroup, REGISTRY_ENV, survivors } from "./support/processes.ts";

declare module "vitest" {
  export interface ProvidedContext {
    mockUrl: string;
  }
}

let mock: RunningMock | undefined;
const registryDir = mkdtempSync(path.join(os.tmpdir(), "svc-test-processes-"));
const registry = path.join(registryDir, "spawned");

export async function setup(project: TestProject): Promise<void> {
  // Set before any worker starts, so every worker's spawns note themselves in the same file.
  process.env[REGISTRY_ENV] = registry;
  mock = await startMock({ port: 0, log: (line) => console.error(`[mock] ${line}`) });
  project.provide("mockUrl", mock.url);
}

export async function teardown(): Promise<void> {
  await mock?.stop();
  const left = survivors(registry);
  // Killed now, so a failing run leaves nothing either; the run fails all the same.
  for (const line of left) killGroup(Number(line.split(" ")[0]));
  rmSync(registryDir, { recursive: true, force: true });
  if (left.length === 0) return;
  // Vitest prints an error thrown here but still exits 0: the exit code is set too.
  process.exitCode = 1;
  throw new Error(`processes started by tests were still running at the end (a test did not stop them):\n${left.join("\n")}`);
}
