// Serves the mock on 127.0.0.1 (port 4010, or --port N / PORT) with the reference: rebuilds and lints generated/ first
// only when its inputs changed, listens at once, and builds a missing reference in the background.
import { parseArgs } from "node:util";
import { build, referenceStale, upToDate } from "./build.ts";
import { startMock } from "./mock/server.ts";

const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" } } });
const port = Number(values.port ?? process.env.PORT ?? 4010);
const host = values.host ?? "127.0.0.1";

/** Stops with one line naming the cause: what a person starting the mock needs, not a stack trace. */
function fail(line: string): never {
  console.error(`npm start: ${line}`);
  process.exit(1);
}

if (!(await upToDate())) {
  await build({ reference: false }).catch((error: Error) => fail(`the contract does not build: ${error.message.split("\n").find((l) => l.trim()) ?? error.message}`));
  // Lint runs only when the inputs changed; a contract that does not lint is not served.
  const { lintProblems } = await import("./lint.ts");
  const problems = await lintProblems();
  if (problems.length > 0) fail(`the contract does not lint (${problems.length} problem${problems.length === 1 ? "" : "s"}; first: ${problems[0]}). Run npm run lint for all.`);
}

let referenceMessage: string | undefined;
if (await referenceStale()) referenceMessage = "The reference is being built; this page reloads by itself.";

const mock = await startMock({ port, host, log: (line) => console.error(line), referencePending: () => referenceMessage }).catch(
  (error: NodeJS.ErrnoException) => {
    if (error.code === "EADDRINUSE") fail(`port ${port} on ${host} is in use. Stop what holds it, or run: npm start -- --port ${port + 1}`);
    return fail(`the mock did not start: ${error.message}`);
  },
);
console.log(`
Mock server:  ${mock.url}   (answers from the contract's examples; Prism starts on the first Prefer: dynamic=true)
Reference:    ${mock.url}/docs   (also generated/reference.html)
Contract:     ${mock.url}/openapi.yaml   ${mock.url}/openapi.json

Try:  curl -s -H 'x-svc-api-key: sk_test_example_not_a_real_key' ${mock.url}/v3/lab_tests/labs
Branches:  add -H 'Prefer: code=404' or -H 'Prefer: example=<name>' (names are in the reference).
Stop with Ctrl-C.`);

if (referenceMessage !== undefined) {
  const { buildReference } = await import("./build-docs.ts");
  await buildReference()
    .then(() => console.error("build: wrote generated/reference.html"))
    .catch((error: Error) => console.error(`npm start: the reference did not build: ${error.message.split("\n")[0]}`));
  referenceMessage = undefined;
}

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void mock.stop().then(() => process.exit(0));
  });
}
