// Starts the mock (the validating host answering from the contract's examples) from the bundled contract, with Prism
// started only when a request asks for a dynamic answer, and stops both.
import { bundleJsonPath, bundleYamlPath, readBundle, referenceHtmlPath } from "../../scripts/lib/paths.ts";
import { freePort } from "../../scripts/lib/net.ts";
import { createMockHost } from "./host.ts";
import { startPrism, type PrismProcess } from "./prism.ts";

export interface RunningMock {
  url: string;
  port: number;
  /** Prism's process id, once a dynamic request has started it. */
  prismPid(): number | undefined;
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
}

export async function startMock(options: MockOptions): Promise<RunningMock> {
  const host = options.host ?? "127.0.0.1";
  const specPath = options.specPath ?? bundleJsonPath;
  const document = await readBundle(specPath);
  let prism: Promise<PrismProcess> | undefined;
  let prismPid: number | undefined;
  const server = createMockHost({
    document,
    log: options.log,
    // Loaded on first use: static answers, which is nearly every request, never wait for it or pay for its memory.
    prism: async () => {
      prism ??= freePort(host)
        .then((port) => startPrism({ specPath, port, host }))
        .then((started) => {
          prismPid = started.pid;
          options.log?.(`prism: started for dynamic answers at ${started.url}, pid ${started.pid}`);
          return started;
        });
      return (await prism).url;
    },
    staticFiles: {
      "/docs": { path: referenceHtmlPath, type: "text/html; charset=utf-8", ...(options.referencePending ? { pending: options.referencePending } : {}) },
      "/openapi.json": { path: bundleJsonPath, type: "application/json" },
      "/openapi.yaml": { path: bundleYamlPath, type: "application/yaml" },
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}`,
    port,
    prismPid: () => prismPid,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (prism) await (await prism.catch(() => undefined))?.stop();
    },
  };
}
