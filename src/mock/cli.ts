// `svc-health-mock`: the mock as the installed package runs it (`npx svc-health-mock --port 4010`), on the contract the
// package ships, with no build tools; built into generated/mock/cli.js by scripts/build/build-commands.ts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createMockHost } from "./host.ts";
import { hostOptionsOf, OPTIONS_USAGE, readDataFile, readMockOptions } from "./options.ts";
import { SeedError } from "./state/seed.ts";
import { proxyBanner, ProxyError } from "./proxy.ts";
import { findPrism, PRISM_PACKAGE, prismInventor } from "./prism.ts";
import { MOCK_PATHS, servedFiles } from "./paths.ts";

/** The built command sits in generated/mock/; the contract it serves is generated/openapi.json beside it. */
const generated = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The Prism release the package is tested with: its peer dependency, pinned in the package's own package.json. */
const { peerDependencies } = JSON.parse(readFileSync(path.join(generated, "..", "package.json"), "utf8")) as { peerDependencies: Record<string, string> };

const USAGE = `usage: svc-health-mock [options]

Serves the mock of the Health Data, Lab Testing and Connection API from the contract this package ships.

${OPTIONS_USAGE}

Dynamic answers (Prefer: dynamic=true) need Prism, an optional peer dependency:
  npm install --save-dev ${PRISM_PACKAGE}@${peerDependencies[PRISM_PACKAGE]}
It is loaded into this process on the first such request. Without it the mock answers them with the declared
example and an x-svc-mock-dynamic-fallback header.`;

function fail(line: string): never {
  console.error(`svc-health-mock: ${line}`);
  process.exit(1);
}

const options = readMockOptions(USAGE, "--help lists the options", fail);
const { port, host, stateful, dataFile, proxy, record } = options;
const data = dataFile === undefined ? undefined : readDataFile(dataFile, fail);

const specPath = path.join(generated, "openapi.json");
const document = JSON.parse(readFileSync(specPath, "utf8")) as Record<string, unknown>;
const log = (line: string) => console.error(line);
// Prism, when the project that runs the mock installed it (an optional peer dependency): looked for from the project,
// then from this package's own place in node_modules. Only found here; loaded on the first dynamic request.
const prism = findPrism([path.join(process.cwd(), "package.json"), fileURLToPath(import.meta.url)]);
const reference = path.join(generated, "reference.html");
/** The server, made before it listens: seed data is loaded (or refused, naming every problem) as the mock is made. */
function makeServer() {
  try {
    return createMockHost({
      document,
      log,
      ...hostOptionsOf(options, data),
      ...(prism === undefined ? {} : { prism: prismInventor(document, prism, log) }),
      // The reference is not in the package (it would triple the download); the repository's npm start serves it.
      staticFiles: servedFiles({ bundleJson: specPath, bundleYaml: path.join(generated, "openapi.yaml"), ...(existsSync(reference) ? { reference } : {}) }),
    });
  } catch (error) {
    if (error instanceof SeedError) fail(error.describe(`--data ${dataFile}`));
    if (error instanceof ProxyError) fail(error.message);
    throw error;
  }
}
const server = makeServer();
server.once("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EADDRINUSE") fail(`port ${port} on ${host} is in use. Stop what holds it, or run: svc-health-mock --port ${port + 1}`);
  fail(`the mock did not start: ${error.message}`);
});
server.listen(port, host, () => {
  const { port: bound } = server.address() as { port: number };
  const url = `http://${host}:${bound}`;
  if (proxy !== undefined) return console.log(`${proxyBanner(url, proxy, record)}\nStop with Ctrl-C.`);
  const mode = stateful
    ? `stateful: remembers each team's calls; ${url}${MOCK_PATHS.state} resets it and moves its clock`
    : "answers from the contract's examples";
  console.log(`Mock server:  ${url}   (${mode}${prism ? "; Prism loads on the first Prefer: dynamic=true" : "; Prism is not installed, so dynamic answers are the examples"})
Contract:     ${url}/openapi.yaml   ${url}/openapi.json
Try:  curl -s -H 'x-svc-api-key: sk_test_example_not_a_real_key' ${url}/v3/lab_tests/labs
Stop with Ctrl-C.`);
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
