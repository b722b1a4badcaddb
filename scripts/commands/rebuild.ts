// What npm start runs, in a process of its own, when the inputs changed: the build without the reference, then lint,
// failing in one line if the contract does not lint (a contract that does not build or lint is not served).
import { build } from "../build/build.ts";
import { lintProblems } from "./lint.ts";

await build({ reference: false });
const problems = await lintProblems();
if (problems.length > 0) {
  console.error(`the contract does not lint (${problems.length} problem${problems.length === 1 ? "" : "s"}; first: ${problems[0]}). Run npm run lint for all.`);
  process.exit(1);
}
