// Serves the mock on 127.0.0.1 (port 4010, or --port N / PORT) with the reference, building generated/ first when it is stale.
import { parseArgs } from "node:util";
import { build } from "./build.ts";
import { startMock } from "./mock/server.ts";

const { values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" } } });
const port = Number(values.port ?? process.env.PORT ?? 4010);
const host = values.host ?? "127.0.0.1";

await build();
const mock = await startMock({ port, host, log: (line) => console.error(line) }).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== "EADDRINUSE") throw error;
  console.error(`Port ${port} on ${host} is in use. Stop what holds it, or run: npm start -- --port ${port + 1}`);
  process.exit(1);
});
console.log(`
Mock server:  ${mock.url}   (Prism ${"--errors"} behind a validating host; pid ${mock.prismPid})
Reference:    ${mock.url}/docs   (also generated/reference.html)
Contract:     ${mock.url}/openapi.yaml   ${mock.url}/openapi.json

Try:  curl -s -H 'x-svc-api-key: sk_test_example_not_a_real_key' ${mock.url}/v3/lab_tests/labs
Branches:  add -H 'Prefer: code=404' or -H 'Prefer: example=<name>' (names are in the reference).
Stop with Ctrl-C.`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void mock.stop().then(() => process.exit(0));
  });
}
