// What npm start runs, in a process of its own, when the inputs changed: lint the sources, build without the reference,
// then lint the bundle, failing in one line at the first step that finds a problem (a contract that does not lint is not
// served, so a source that does not lint is not built: the build is seconds of work for nothing).
import { build } from "../build/build.ts";
import { lintProblems } from "./lint.ts";

function failOn(problems: string[]): void {
  if (problems.length === 0) return;
  console.error(`the contract does not lint (${problems.length} problem${problems.length === 1 ? "" : "s"}; first: ${problems[0]}). Run npm run lint for all.`);
  process.exit(1);
}

failOn(await lintProblems({ bundle: false }));
await build({ reference: false });
failOn(await lintProblems({ sources: false }));
