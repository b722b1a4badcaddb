// Vitest: one mock for the whole run (test/global-setup.ts); the mock-http tests (test/mock-http/) call it through the generated client.
import { configDefaults, defineConfig } from "vitest/config";
import LongFilesFirst from "./test/support/sequencer.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/release/ publishes to a registry on loopback: `npm run test:release` (vitest.release.config.ts), after this suite.
    exclude: [...configDefaults.exclude, "test/release/**"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits only until its condition holds; Vitest's default second fails a test on a busy machine.
    expect: { poll: { timeout: 10_000 } },
    // Lint and generation spawn tools; two cores are enough for two files at a time.
    maxWorkers: 2,
    // Files share their worker's modules (TypeScript, Spectral, the contract) instead of loading them again per file,
    // which took a tenth of the run's CPU; a support module that hands out shared data hands out copies.
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
