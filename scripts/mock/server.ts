// Starts the whole mock (Prism on a private port behind the validating host) from the bundled contract, and stops both.
import { bundleJsonPath, bundleYamlPath, readBundle, referenceHtmlPath } from "../lib/paths.ts";
import { freePort } from "../lib/net.ts";
import { createMockHost } from "./host.ts";
import { startPrism } from "./prism.ts";

export interface RunningMock {
  url: string;
  port: number;
  prismPid: number;
  stop(): Promise<void>;
}

export async function startMock(options: { port: number; host?: string; log?: (line: string) => void }): Promise<RunningMock> {
  const host = options.host ?? "127.0.0.1";
  const document = await readBundle();
  const prism = await startPrism({ specPath: bundleJsonPath, port: await freePort(host), host });
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
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await prism.stop();
    },
  };
}

