// Property-based robustness of the mock: bad requests for every operation, generated from its own schemas and sent as raw bytes, each get a JSON 4xx and leave the next valid answer unchanged.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../support/contract.ts";
import { baselineOf, check, ensureHealthy, HOSTILE, printable, PROPERTIES, startMockUnderTest, stopMockUnderTest } from "./bad-requests.ts";

/** Runs across all properties: a few hundred by default, ROBUSTNESS_RUNS (at least 5,000 in .ci/run) for the full run. */
const TOTAL_RUNS = Number(process.env.ROBUSTNESS_RUNS ?? 300);
const SEED = process.env.FC_SEED === undefined ? Date.now() ^ (Math.random() * 0x7fffffff) : Number(process.env.FC_SEED);
const WEIGHTS = PROPERTIES.reduce((sum, { weight }) => sum + weight, 0);

console.log(`[robustness] fast-check seed ${SEED} (replay with FC_SEED=${SEED}), ${TOTAL_RUNS} runs across the properties`);

beforeAll(() => startMockUnderTest(), 60_000);
afterAll(() => stopMockUnderTest());

describe("every bad request gets a JSON 4xx, in time, and changes no later answer", () => {
  it("has a 2xx valid call for every operation to compare with", () => {
    for (const op of operations) expect(baselineOf(op.operationId)?.status, op.operationId).toBeLessThan(300);
  });

  PROPERTIES.forEach(({ name, arbitrary, examples, weight }, index) => {
    const numRuns = Math.max(10, Math.round((TOTAL_RUNS * weight) / WEIGHTS));
    it(`${name} (every operation, then ${numRuns} runs)`, async () => {
      await ensureHealthy();
      await fc.assert(
        fc.asyncProperty(arbitrary.map(printable), (bad) => check(bad)),
        // Shrinking re-sends requests; a time limit keeps a failing run from shrinking for minutes.
        {
          seed: SEED + index,
          numRuns,
          examples: examples(SEED + index).map((bad) => [printable(bad)]),
          interruptAfterTimeLimit: 90_000,
          markInterruptAsFailure: false,
        },
      );
    }, 240_000);
  });
});

describe("the hostile inputs found before", () => {
  for (const bad of HOSTILE) {
    it(`answers ${bad.what} with a JSON 4xx and leaves the next answer unchanged`, async () => {
      await ensureHealthy();
      await check(bad);
    }, 60_000);
  }
});
