// What the mock offers the repository's build and commands, and what its packaged command is made of on Node: the host,
// the command line and its options shaped for the host, the table of paths and served files, Prism found and loaded,
// the seed's check, what the commands share (usage, failures, banner, stop), and the tables the reference's mock
// section is written from. scripts/ imports the mock only here (or the `./mock` entry), so the mock may move its files
// without the repository's commands following (test/imports.test.ts).
export { createMockHost, type MockHostOptions } from "./host.ts";
export type { StatefulOptions } from "./pipeline.ts";
export type { Conditions } from "./conditions.ts";
export { findPrism, PRISM_PACKAGE, prismInventor } from "./prism.ts";
export { MOCK_ONLY_METHODS, servedFiles } from "./paths.ts";
export { MOCK_PATHS } from "../shared/mock-paths.ts";
export { FLAGS as MOCK_COMMAND_FLAGS, hostOptionsOf, readDataFile, readMockOptions, type MockCommandOptions } from "./command-options.ts";
export { banner, closeServer, commandUsage, failWith, startFailure, stopOnSignals } from "./command-shell.ts";
export { checkSeed, SeedError } from "./state/seed.ts";
export { ProxyError } from "./proxy.ts";
export { MOCK_WARNING } from "./http-vocabulary.ts";
export { ANOTHER_MFA_CODE, WRONG_MFA_CODE } from "./state/link.ts";
export { DEFAULT_CAPS, DEFAULT_SETTINGS, SETTING_BOUNDS } from "./state/model.ts";
export { INFERRED_PAYORS } from "./state/plans.ts";
