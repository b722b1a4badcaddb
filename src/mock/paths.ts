// The paths the mock answers beside the contract's, in one table: its control endpoint (with --stateful) and the files it
// serves (the bundle, the reference). The mock, its command, npm start, verify and the reference's introduction read them
// here; adding one is one row.
import type { StaticFile } from "./static-files.ts";

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

/** The mock-only paths (the service has none of them), each with the methods it takes. */
export const MOCK_ONLY_METHODS = {
  state: ["GET", "PATCH", "DELETE"],
  data: ["GET", "PUT"],
  journal: ["GET", "DELETE"],
} as const satisfies Record<string, readonly string[]>;

export type MockOnlyPath = keyof typeof MOCK_ONLY_METHODS;

/** A method `/_mock/state` takes: what reaches its handlers once the step has refused the others. */
export type StateMethod = (typeof MOCK_ONLY_METHODS.state)[number];

/** The 405 of a mock-only path: the methods it takes, in the message and in Allow. */
export function notAMethodOf(path: MockOnlyPath, method: string): { status: 405; code: "method_not_allowed"; message: string; headers: { allow: string } } {
  const methods = MOCK_ONLY_METHODS[path].join(", ");
  return {
    status: 405,
    code: "method_not_allowed",
    message: `${method} is not a method of ${MOCK_PATHS[path]}; it takes ${methods}.`,
    headers: { allow: methods },
  };
}

/** Where a browser may also ask for the reference. */
export const REFERENCE_ALIASES = [`${MOCK_PATHS.reference}/`, `${MOCK_PATHS.reference}/index.html`];

/** The files of a build the mock serves, by path: the bundle in both forms and, when given, the reference. */
export function servedFiles(files: {
  bundleJson: string;
  bundleYaml: string;
  reference?: string;
  referencePending?: () => string | undefined;
}): Record<string, StaticFile> {
  return {
    [MOCK_PATHS.bundleJson]: { path: files.bundleJson, type: "application/json" },
    [MOCK_PATHS.bundleYaml]: { path: files.bundleYaml, type: "application/yaml" },
    ...(files.reference === undefined
      ? {}
      : {
          [MOCK_PATHS.reference]: {
            path: files.reference,
            type: "text/html; charset=utf-8",
            aliases: REFERENCE_ALIASES,
            ...(files.referencePending === undefined ? {} : { pending: files.referencePending }),
          },
        }),
  };
}
