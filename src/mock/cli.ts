// `svc-health-mock`: the mock as the installed package runs it (`npx svc-health-mock --port 4010`), on the contract the
// package ships, with no build tools; built into generated/mock/cli.js by scripts/build/build-commands.ts.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  banner,
  closeServer,
  commandUsage,
  createMockHost,
  failWith,
  findPrism,
  hostOptionsOf,
  PRISM_PACKAGE,
  prismInventor,
  ProxyError,
  readDataFile,
  readMockOptions,
  SeedError,
  servedFiles,
  startFailure,
  stopOnSignals,
} from "./server.ts";

/** The built command sits in generated/mock/; the contract it serves is generated/openapi.json beside it. */
const generated = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The Prism release the package is tested with: its peer dependency, pinned in the package's own package.json. */
const { peerDependencies } = JSON.parse(readFileSync(path.join(generated, "..", "package.json"), "utf8")) as { peerDependencies: Record<string, string> };

const USAGE = commandUsage(
  "usage: svc-health-mock [options]",
  "Serves the mock of the Health Data, Lab Testing and Connection API from the contract this package ships.",
  `Dynamic answers (Prefer: dynamic=true) need Prism, an optional peer dependency:
  npm install --save-dev ${PRISM_PACKAGE}@${peerDependencies[PRISM_PACKAGE]}
It is loaded into this process on the first such request. Without it the mock answers them with the declared
example and an x-svc-mock-dynamic-fallback header.`,
);

const fail = failWith("svc-health-mock");

const options = readMockOptions(USAGE, "--help lists the options", fail);
const { port, host, stateful, strictKeys, dataFile, proxy, record } = options;
const data = dataFile === undefined ? undefined : readDataFile(dataFile, fail);

const facts = { port, host, dataFile, onPort: (other: number) => `svc-health-mock --port ${other}` };

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
    // Only what the flags gave is the user's to fix; anything else is the mock's own fault, with its stack.
    if (error instanceof SeedError || error instanceof ProxyError) startFailure(error, facts, fail);
    throw error;
  }
}
const server = makeServer();
server.once("error", (error) => startFailure(error, facts, fail));
server.listen(port, host, () => {
  const { port: bound } = server.address() as { port: number };
  console.log(
    banner({
      url: `http://${host}:${bound}`,
      stateful,
      strictKeys,
      proxy,
      record,
      prism: prism ? "Prism loads on the first Prefer: dynamic=true" : "Prism is not installed, so dynamic answers are the examples",
    }),
  );
});

stopOnSignals(() => closeServer(server));
