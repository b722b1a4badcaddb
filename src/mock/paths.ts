// What the mock makes of the paths it answers beside the contract's (their one table, MOCK_PATHS, is shared/mock-paths.ts,
// which verify reads too): the methods each mock-only path takes, which paths are the mock's own, and the files of a
// build it serves (the bundle, the reference) by path.
import { MOCK_PATHS } from "../shared/mock-paths.ts";
import type { StaticFile } from "./static-files.ts";

/** The folder every mock-only path sits in (`/_mock/`), taken from the table so it cannot drift from it. */
const MOCK_ONLY_FOLDER = MOCK_PATHS.state.slice(0, MOCK_PATHS.state.lastIndexOf("/") + 1);

/** Whether a path is the mock's own, known or not: the journal leaves those out, as they are not the service's. */
export const isMockOnly = (pathname: string): boolean => pathname.startsWith(MOCK_ONLY_FOLDER);

/** The mock-only paths (the service has none of them), each with the methods it takes. */
export const MOCK_ONLY_METHODS = {
  state: ["GET", "PATCH", "DELETE"],
  data: ["GET", "PUT"],
  journal: ["GET", "DELETE"],
} as const satisfies Record<string, readonly string[]>;

export type MockOnlyPath = keyof typeof MOCK_ONLY_METHODS;

/** A method `/_mock/state` takes: what reaches its handlers once the step has refused the others. */
export type StateMethod = (typeof MOCK_ONLY_METHODS.state)[number];

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
