// The real Prism (@stoplight/prism-http from node_modules) inside the mock's process: loaded by the first
// `Prefer: dynamic=true` and not before, its invented answers sent when they keep the contract, a Prism that fails to
// load answered by the declared example, and the English-only faker the loader hands it changing nothing it invents.
import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRISM_FAILED } from "../../src/mock/prism-answers.ts";
import { createMockHost } from "../../src/mock/host.ts";
import { findPrism, prismInventor } from "../../src/mock/prism.ts";
import { readBundle, repoRoot } from "../../scripts/build/lib/paths.ts";
import { assertMatchesContract, operation, responseExample } from "../support/contract.ts";
import { VALID_CALLS } from "../support/calls.ts";
import { CREDENTIALS, validTarget } from "../support/raw-http.ts";
import { validator } from "../support/contract.ts";

const run = promisify(execFile);
const hosts: (() => Promise<void>)[] = [];

async function startHost(entry: string): Promise<{ url: string; log: string[] }> {
  const document = await readBundle();
  const log: string[] = [];
  const server = createMockHost({ document, staticFiles: {}, prism: prismInventor(document, entry, (line) => log.push(line)), log: (line) => log.push(line) });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hosts.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

/** The operation's valid call (x-svc-valid-call), with its credential and a Prefer header. */
function call(base: string, operationId: string, prefer?: string): Promise<Response> {
  const op = operation(operationId);
  const header = validator.credentialHeader(op)!;
  const body = op.operation.requestBody === undefined ? undefined : JSON.stringify(VALID_CALLS[operationId]?.body);
  return fetch(`${base}${validTarget(op)}`, {
    method: op.method,
    headers: { [header]: CREDENTIALS[header]!, ...(prefer ? { prefer } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body }),
  });
}

let prism: { url: string; log: string[] };
const entry = findPrism([path.join(repoRoot, "package.json")]);

beforeAll(async () => {
  if (entry === undefined) throw new Error("@stoplight/prism-http is not in node_modules (a development dependency): run npm ci");
  prism = await startHost(entry);
});

afterAll(async () => {
  await Promise.all(hosts.map((close) => close()));
});

describe("Prism in the mock's process", () => {
  it("is not loaded by static answers, and is loaded once by the first dynamic one", async () => {
    expect((await call(prism.url, "listLabs")).status).toBe(200);
    expect(prism.log.filter((line) => line.startsWith("prism: loaded"))).toEqual([]);
    expect((await call(prism.url, "listLabs", "dynamic=true")).status).toBe(200);
    expect((await call(prism.url, "listLabs", "dynamic=true")).status).toBe(200);
    expect(prism.log.filter((line) => line.startsWith("prism: loaded"))).toEqual([
      expect.stringMatching(/^prism: loaded @stoplight\/prism-http 5\.12\.0 \(.*node_modules[\\/]@stoplight[\\/]prism-http\) into this process/),
    ]);
  });

  // Operations whose invented answers Prism gets right every time (a survey of 20 answers each): a list, a POST with a
  // validated body, path and query parameters, a management operation's 201, and an error status chosen by Prefer.
  for (const [operationId, prefer, status] of [
    ["listLabs", "dynamic=true", 200],
    ["createLinkToken", "dynamic=true", 200],
    ["listLabTestMarkers", "dynamic=true", 200],
    ["createTeam", "dynamic=true", 201],
    ["listLabs", "dynamic=true, code=401", 401],
  ] as const) {
    it(`sends Prism's invented answer for ${operationId} (${prefer}): the declared status, a body that keeps the contract, not the example`, async () => {
      const answer = await call(prism.url, operationId, prefer);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("x-svc-mock-dynamic-fallback"), prism.log.join("\n")).toBeNull();
      expect(answer.headers.get("content-type")).toBe("application/json");
      const body: unknown = await answer.json();
      assertMatchesContract(operationId, status, body);
      const op = operation(operationId);
      const examples = Object.keys(
        ((op.operation.responses as Record<string, { content?: Record<string, { examples?: object }> }>)[String(status)]?.content?.["application/json"]
          ?.examples ?? {}) as object,
      );
      for (const name of examples) expect(body).not.toEqual(responseExample(operationId, status, name));
    });
  }

  it("answers with the declared example, saying Prism failed, when Prism does not load", async () => {
    const broken = await startHost(path.join(repoRoot, "node_modules", "@stoplight", "prism-http-missing", "dist", "index.js"));
    const answer = await call(broken.url, "listLabs", "dynamic=true");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-svc-mock-dynamic-fallback")).toBe(PRISM_FAILED);
    expect(await answer.json()).toEqual(responseExample("listLabs", 200, "labs"));
    expect(broken.log.join("\n")).toMatch(/dynamic listLabs: Prism failed: Error: Cannot find module/);
  });

  it("invents the same answers with the English-only faker as with Prism's own, and loads no other locale", async () => {
    const script = path.join(repoRoot, "test/support/prism-answers.ts");
    type Invented = { answers: number; hash: string; locales: string[] };
    const { english, plain } = JSON.parse((await run(process.execPath, ["--import", "tsx", script], { cwd: repoRoot })).stdout) as Record<
      "english" | "plain",
      Invented
    >;
    expect(english!.answers).toBeGreaterThan(500);
    expect(english!.hash).toBe(plain!.hash);
    expect(english!.locales).toEqual(["en"]);
    expect(plain!.locales.length).toBeGreaterThan(50);
  });
});
