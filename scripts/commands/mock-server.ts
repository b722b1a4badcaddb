// Starts the mock (src/mock/) on the repository's generated/ (bundle, reference) with Prism from its node_modules, for
// `npm start` and the tests; the installed package's own entry is src/mock/cli.ts, so the repository's paths stay here.
import path from "node:path";
import { closeServer, createMockHost, findPrism, prismInventor, servedFiles, type MockHostOptions } from "../../src/mock/server.ts";
import { bundleJsonPath, bundleYamlPath, readBundle, referenceHtmlPath, repoRoot } from "../build/lib/paths.ts";

export interface RunningMock {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The host's own options (what it serves and Prism are the repository's, found here), and where it listens. */
export interface StartMockOptions extends Omit<MockHostOptions, "document" | "staticFiles" | "prism"> {
  port: number;
  host?: string;
  /** Another bundled contract to serve instead of generated/openapi.json (tests use edited copies). */
  specPath?: string;
  /** While it returns a message, /docs shows it instead of the reference (npm start builds the reference after listening). */
  referencePending?: () => string | undefined;
}

export async function startMock(options: StartMockOptions): Promise<RunningMock> {
  const host = options.host ?? "127.0.0.1";
  const document = await readBundle(options.specPath ?? bundleJsonPath);
  // Prism is a development dependency of the repository: found from it, not from wherever the caller runs.
  const prism = findPrism([path.join(repoRoot, "package.json")]);
  const server = createMockHost({
    document,
    log: options.log,
    conditions: options.conditions,
    journalSize: options.journalSize,
    proxy: options.proxy,
    ...(options.stateful === undefined ? {} : { stateful: options.stateful }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(prism === undefined ? {} : { prism: prismInventor(document, prism, options.log) }),
    staticFiles: servedFiles({
      bundleJson: bundleJsonPath,
      bundleYaml: bundleYamlPath,
      reference: referenceHtmlPath,
      ...(options.referencePending ? { referencePending: options.referencePending } : {}),
    }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}`,
    port,
    stop: () => closeServer(server),
  };
}
