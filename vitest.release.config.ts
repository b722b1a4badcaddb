// Vitest for `npm run test:release`: the release published to a Verdaccio on loopback (test/release/), apart from `npm test`, without its global mock.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/release/**/*.test.ts"],
    // Clone, build, publish and install run in one hook, on two cores that the npm processes share.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
