// `npm start` stops with one line naming the cause, not a stack trace: when its port is taken, and when the contract
// it would serve does not lint.
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/net.ts";
import { toolEnv } from "../scripts/build/lib/tools.ts";
import { freshCopy } from "./support/fresh-copy.ts";

const run = promisify(execFile);
let clone: string;

/** What `npm start` runs (package.json): start.js, which bundles start.ts into the copy's .tmp/start/ on its first run. */
const START = ["scripts/commands/start.js"];

async function start(port: number, ...args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  return run(process.execPath, [...START, "--port", String(port), ...args], { cwd: clone, env: toolEnv, timeout: 120_000 }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stderr: string; stdout: string }) => error,
  );
}

beforeAll(async () => {
  clone = await freshCopy();
});
afterAll(() => rm(clone, { recursive: true, force: true }));

describe("npm start refuses", () => {
  it("an option it does not know, in one line that points to --help, which lists the options", async () => {
    // Each refusal is one short process, all read the options before anything else: they run side by side.
    const [wrong, help] = await Promise.all([start(await freePort(), "--remember"), start(await freePort(), "--help")]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim()).toBe("npm start: unknown option --remember (npm start -- --help lists the options)");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--port <port>");
    expect(help.stdout).toContain("--host <address>");
    expect(help.stdout).toContain("--stateful");
  });

  it("a port that is not a number, in one line", async () => {
    const result = await run(process.execPath, [...START, "--port", "abc"], { cwd: clone, env: toolEnv }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("npm start: --port abc is not a port number (0 to 65535)");
  });

  it("a port in use, in one line that says how to pick another", async () => {
    const holder = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, "127.0.0.1", resolve));
    try {
      const result = await start(port);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`npm start: port ${port} on 127.0.0.1 is in use. Stop what holds it, or run: npm start -- --port ${port + 1}`);
    } finally {
      holder.close();
    }
  });

  // Building and linting the whole contract (Spectral with the OWASP ruleset) takes most of a minute on a busy 2-core machine.
  it("a contract that does not lint, in one line naming the first problem", { timeout: 180_000 }, async () => {
    const file = path.join(clone, "openapi/lab-tests/paths/v3_lab_tests_labs.yaml");
    const original = await readFile(file, "utf8");
    await writeFile(file, original.replace(/operationId: listLabs/, "operationId: labsPlease"));
    try {
      const result = await start(await freePort());
      expect(result.code).toBe(1);
      const lines = result.stderr
        .trim()
        .split("\n")
        .filter((line) => !line.includes("nodedir"));
      expect(lines.at(-1)).toMatch(/^npm start: the contract does not lint \(\d+ problems?; first: .*operationId.*\)\. Run npm run lint for all\.$/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await writeFile(file, original);
    }
  });
});
