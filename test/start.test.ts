// `npm start` builds what is missing, serves the mock and the reference on 127.0.0.1, and leaves no Prism behind when stopped.
import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/net.ts";
import { binPath, toolEnv } from "../scripts/lib/tools.ts";
import { TEST_API_KEY } from "./support/mock.ts";
import { freshCopy } from "./support/fresh-copy.ts";

let child: ChildProcess;
let output = "";
let port: number;
let clone: string;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  port = await freePort();
  clone = await freshCopy();
  child = spawn(binPath("tsx"), ["scripts/start.ts", "--port", String(port)], { cwd: clone, env: toolEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 90_000);
    const check = () => {
      if (output.includes("Stop with Ctrl-C")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.on("exit", () => reject(new Error(`npm start exited:\n${output}`)));
  });
});

afterAll(async () => {
  if (child.exitCode === null) child.kill("SIGKILL");
  const pid = Number(/pid (\d+)/.exec(output)?.[1]);
  if (pid && isRunning(pid)) process.kill(pid, "SIGKILL");
  await rm(clone, { recursive: true, force: true });
});

/** Waits until the output shows a line, for what npm start does after it listens. */
async function outputShows(text: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!output.includes(text)) {
    if (Date.now() > deadline) throw new Error(`npm start never printed ${JSON.stringify(text)}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm start", () => {
  it("listens before the reference is built, and says so at /docs meanwhile", async () => {
    // The fresh clone has no reference: the mock is up before the reference is written, if it is written yet.
    const listening = output.indexOf("Stop with Ctrl-C");
    const reference = output.indexOf("build: wrote generated/reference.html");
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(reference === -1 || reference > listening, output).toBe(true);
  });

  it("builds the reference a fresh clone lacks, after listening", async () => {
    await outputShows("build: wrote generated/reference.html");
  });

  it("prints where the mock and the reference are", () => {
    expect(output).toContain(`Mock server:  http://127.0.0.1:${port}`);
    expect(output).toContain(`Reference:    http://127.0.0.1:${port}/docs`);
  });

  it("serves the API", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": TEST_API_KEY } });
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });

  it("serves the reference built from the contract", async () => {
    await outputShows("build: wrote generated/reference.html");
    const response = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Health Data, Lab Testing and Connection API");
    expect(html).toContain("completeProviderMfa");
  });

  it("starts Prism only for a dynamic answer, and stops it when it is stopped", async () => {
    expect(output).not.toContain("prism: started");
    const response = await fetch(`http://127.0.0.1:${port}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": TEST_API_KEY, prefer: "dynamic=true" } });
    expect(response.status).toBe(200);
    await outputShows("prism: started");
    const prismPid = Number(/prism: started .*pid (\d+)/.exec(output)?.[1]);
    expect(isRunning(prismPid)).toBe(true);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isRunning(prismPid)).toBe(false);
  });
});
