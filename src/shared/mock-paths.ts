// The paths the mock answers beside the contract's, as one value both products read: the mock serves them, and verify
// probes and resets the stateful mock through them without importing the mock (test/imports.test.ts).
export const MOCK_PATHS = {
  /** The stateful mock's control endpoint: describe, change settings and the clock, forget. */
  state: "/_mock/state",
  /** The stateful mock's data: export it as seed data, or replace it with seed data. */
  data: "/_mock/data",
  /** The requests the mock received, per team: read and forget. */
  journal: "/_mock/journal",
  /** The HTML reference, when it was built. */
  reference: "/docs",
  bundleJson: "/openapi.json",
  bundleYaml: "/openapi.yaml",
} as const;
