// `npm run build`: says "nothing to do" from plain Node when generated/ and the reference are up to date, and only
// otherwise loads tsx and the builders (build.ts); tsx's loader alone took longer than the whole check.
import { referenceStale, upToDate } from "./up-to-date.js";

// --no-reference: leave the reference to the caller (npm start builds it after listening).
const reference = !process.argv.slice(2).includes("--no-reference");
if ((await upToDate()) && !(reference && (await referenceStale()))) {
  console.log("build: generated/ is up to date (its inputs are unchanged)");
} else {
  const { register } = await import("tsx/esm/api");
  register();
  const { build } = await import("./build.ts");
  await build({ reference });
}
