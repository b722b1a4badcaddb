// Starts the mock (src/mock/) on the repository's generated/ (bundle, reference) with Prism from its node_modules, for
// `npm start` and the tests; the installed package's own entry is src/mock/cli.ts, so the repository's paths stay here.
import path from "node:path";
import { createMockHost, type MockHostOptions } from "../../src/mock/host.ts";
import type { StatefulOptions } from "../../src/mock/pipeline.ts";
import type { Conditions } from "../../src/mock/conditions.ts";
import { findPrism, prismInventor } from "../../src/mock/prism.ts";
import { servedFiles } from "../../src/mock/paths.ts";
import { bundleJsonPath, bundleYamlPath, readBundle, referenceHtmlPath, repoRoot } from "../build/lib/paths.ts";

export interface RunningMock {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface MockOptions {
  port: number;
  host?: string;
  log?: (line: string) => void;
  /** Another bundled contract to serve instead of generated/openapi.json (tests use edited copies). */
  specPath?: string;
  /** While it returns a message, /docs shows it instead of the reference (npm start builds the reference after listening). */
  referencePending?: () => string | undefined;
  /** Remember what each team did (`--stateful`), with these caps and settings if given. */
  stateful?: StatefulOptions;
  /** How long a request may take to arrive before its 408 (the host's REQUEST_TIMEOUT_MS when not given). */
  requestTimeoutMs?: number;
  /** The conditions every team meets until it sets its own (`--conditions`). */
  conditions?: Conditions | undefined;
  /** Recent requests the journal keeps per team (`--journal-size`). */
  journalSize?: number | undefined;
  /** Forward to a real server and check both sides instead of answering (`--proxy`, `--record`). */
  proxy?: MockHostOptions["proxy"];
}

export async function startMock(options: MockOptions): Promise<RunningMock> {
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
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
