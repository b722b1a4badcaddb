// Starts the mock once for the suite, and bare Prism beside it for the tests that show what Prism alone answers; stops
// both, and kills bare Prism by its pid whatever happens (the mock's own Prism, for dynamic answers, is in its process).
import type { TestProject } from "vitest/node";
import { startMock, type RunningMock } from "../scripts/commands/mock-server.ts";
import { startPrism, type PrismProcess } from "./support/bare-prism.ts";
import { freePort } from "./support/net.ts";
import { bundleJsonPath } from "../scripts/build/lib/paths.ts";

declare module "vitest" {
  export interface ProvidedContext {
    mockUrl: string;
    prismUrl: string;
  }
}

let mock: RunningMock | undefined;
let prism: PrismProcess | undefined;

function killPrism(): void {
  if (prism === undefined) return;
  try {
    process.kill(prism.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export async function setup(project: TestProject): Promise<void> {
  // If the runner dies without teardown, no Prism may outlive it.
  process.once("exit", killPrism);
  // SVC_BARE_PRISM=off: a run of files that never compare with bare Prism (the add-an-endpoint test's) need not start it.
  const barePrism = process.env.SVC_BARE_PRISM !== "off";
  [mock, prism] = await Promise.all([
    startMock({ port: 0, log: (line) => console.error(`[mock] ${line}`) }),
    barePrism ? freePort().then((port) => startPrism({ specPath: bundleJsonPath, port })) : undefined,
  ]);
  project.provide("mockUrl", mock.url);
  project.provide("prismUrl", prism?.url ?? "http://127.0.0.1:9");
}

export async function teardown(): Promise<void> {
  await mock?.stop();
  await prism?.stop();
  killPrism();
}
