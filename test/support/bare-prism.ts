// Bare Stoplight Prism for the tests that show what Prism alone answers (test/mock-http/answer-table.test.ts and
// prism-holes.test.ts): Prism's own HTTP server (@stoplight/prism-http-server), built from the bundled contract with
// the settings `prism mock --errors` gives it, in the test's process on a loopback port. No process of its own: the
// CLI around that server adds only its start-up (two seconds of CPU) and its log formatting, and it ran for the whole
// suite so that two files could ask it. The files that ask start it and stop it; a worker parses the contract once.
import { Writable } from "node:stream";
import { createRequire } from "node:module";
import path from "node:path";
import { bundleJsonPath, readBundle, repoRoot } from "../../scripts/build/lib/paths.ts";

const fromRepo = createRequire(path.join(repoRoot, "package.json"));

interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

export interface BarePrism {
  url: string;
  /** Prism's own log, warnings and up, for a failure's message. */
  log(): string;
  stop(): Promise<void>;
}

let operations: Promise<unknown[]> | undefined;

/** What `prism mock` does before it serves: the operations from the document, and its generator reset to the document's options. */
async function prismOperations(): Promise<unknown[]> {
  const { getHttpOperationsFromSpec, resetJSONSchemaGenerator } = fromRepo("@stoplight/prism-http") as {
    getHttpOperationsFromSpec(spec: string): Promise<unknown[]>;
    resetJSONSchemaGenerator(): void;
  };
  // The CLI dereferences the whole document again to read `x-json-schema-faker` (the generator's options) and sets them
  // after a reset; the contract sets none, so the reset alone is the same, without a second pass over the document.
  if ("x-json-schema-faker" in (await readBundle()))
    throw new Error("the contract sets x-json-schema-faker: apply it as prism-cli's configureExtensionsUserProvided does");
  const found = await getHttpOperationsFromSpec(bundleJsonPath);
  resetJSONSchemaGenerator();
  return found;
}

export async function startBarePrism(): Promise<BarePrism> {
  operations ??= prismOperations();
  const { createServer } = fromRepo("@stoplight/prism-http-server") as { createServer(operations: unknown[], options: unknown): PrismServer };
  const { createLogger } = fromRepo("@stoplight/prism-core") as {
    createLogger(name: string, options: unknown, destination: Writable): { child(options: unknown): unknown };
  };
  let output = "";
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output = (output + chunk.toString()).slice(-20_000);
      done();
    },
  });
  // `prism mock <file> --errors --verboseLevel warn`, as prism-cli's dist/util/createServer.js configures its server.
  const logger = createLogger("CLI", { customLevels: { start: 31 }, level: "warn", formatters: { level: (level: string) => ({ level }) } }, destination);
  const server = createServer(await operations, {
    cors: true,
    config: {
      validateRequest: true,
      validateResponse: true,
      checkSecurity: true,
      errors: true,
      upstreamProxy: undefined,
      mock: { dynamic: false, ignoreExamples: false, seed: null },
      isProxy: false,
    },
    components: { logger: logger.child({ name: "HTTP SERVER" }) },
  });
  const address = await server.listen(0, "127.0.0.1");
  return { url: `http://127.0.0.1:${new URL(address).port}`, log: () => output, stop: () => server.close() };
}
