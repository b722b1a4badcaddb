// A mock of the robustness suite's own, started like the suite's (startMock), so a request that takes the mock down fails these tests and not every other file sharing test/global-setup.ts's mock.
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";

let running: RunningMock | undefined;

/**
 * The deadline for a request to arrive: the suite's hostile bodies include one shorter than its content-length, whose
 * 408 comes only when it passes; the default (src/mock/host.ts, seconds) would hold a worker idle that long.
 */
const REQUEST_DEADLINE_MS = 1_500;

export async function startPrivateMock(): Promise<string> {
  running = await startMock({ port: 0, log: () => undefined, requestTimeoutMs: REQUEST_DEADLINE_MS });
  return running.url;
}

/** Stops the mock and starts a fresh one: after a fault has broken it, the next property still tests a working mock. */
export async function restartPrivateMock(): Promise<string> {
  await stopPrivateMock();
  return startPrivateMock();
}

export async function stopPrivateMock(): Promise<void> {
  const mock = running;
  running = undefined;
  if (mock === undefined) return;
  await Promise.race([mock.stop(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
}
