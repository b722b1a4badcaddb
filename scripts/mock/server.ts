// Starts the whole mock (Prism on a private port behind the validating host) from the bundled contract, and stops both.
import { bundleJsonPath, bundleYamlPath, readBundle, referenceHtmlPath } from "../lib/paths.ts";
import { freePort } from "../lib/net.ts";
import { createMockHost } from "./host.ts";
import { startPrism } from "./prism.ts";

export interface RunningMock {
  url: string;
  port: number;
  prismPid: number;
  /** Prism itself, without the host in front: for showing what Prism alone would answer. */
  prismUrl: string;
  stop(): Promise<void>;
}

export interface MockOptions {
  port: number;
  host?: string;
  log?: (line: string) => void;
  /** Another bundled contract to serve instead of generated/openapi.json (tests use edited copies). */
  specPath?: string;
}

export async function startMock(options: MockOptions): Promise<RunningMock> {
  const host = options.host ?? "127.0.0.1";
  const specPath = options.specPath ?? bundleJsonPath;
  const document = await readBundle(specPath);
  const prism = await startPrism({ specPath, port: await freePort(host), host });
  const server = createMockHost({
    document,
    prismUrl: prism.url,
    log: options.log,
    staticFiles: {
      "/docs": { path: referenceHtmlPath, type: "text/html; charset=utf-8" },
      "/openapi.json": { path: bundleJsonPath, type: "application/json" },
      "/openapi.yaml": { path: bundleYamlPath, type: "application/yaml" },
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, host, resolve);
    });
  } catch (error) {
    await prism.stop();
    throw error;
  }
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}`,
    port,
    prismPid: prism.pid,
    prismUrl: prism.url,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await prism.stop();
    },
  };
}

