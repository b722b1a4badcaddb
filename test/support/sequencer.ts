// Orders the run's files for two workers: the few that spawn builds, a browser and installs first, each a long stretch
// of one worker, so no such file starts last and leaves the other worker idle; the rest as vitest orders them (by the
// durations it cached, or by size on a fresh clone, where it has none and would start the small slow files last).
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Slowest first, as measured on this machine (test/README.md lists what each does). */
const LONG_FILES = [
  "test/package/consumer.test.ts",
  "test/reference/browser.test.ts",
  "test/add-an-endpoint.test.ts",
  "test/start-failures.test.ts",
  "test/typecheck.test.ts",
  "test/docs-blocks.test.ts",
  "test/workflows/workflows.test.ts",
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Relative to the run's root, not to wherever vitest was started from.
    const rank = (file: TestSpecification) => LONG_FILES.indexOf(path.relative(this.ctx.config.root, file.moduleId).split(path.sep).join("/"));
    const long = sorted.filter((file) => rank(file) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...long, ...sorted.filter((file) => rank(file) < 0)];
  }
}
