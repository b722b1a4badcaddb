// Starts the mock (Prism with --errors behind the validating host) once for the suite, and stops Prism by its pid whatever happens.
import type { TestProject } from "vitest/node";
import { startMock, type RunningMock } from "../scripts/mock/server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    mockUrl: string;
    prismUrl: string;
  }
}

let mock: RunningMock | undefined;

function killPrism(): void {
  if (mock === undefined) return;
  try {
    process.kill(mock.prismPid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export async function setup(project: TestProject): Promise<void> {
  // If the runner dies without teardown, Prism must not outlive it.
  process.once("exit", killPrism);
  mock = await startMock({ port: 0, log: (line) => console.error(`[mock] ${line}`) });
  project.provide("mockUrl", mock.url);
  project.provide("prismUrl", mock.prismUrl);
}

export async function teardown(): Promise<void> {
  await mock?.stop();
  killPrism();
}
