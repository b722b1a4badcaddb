// `npm start` builds what is missing, serves the mock and the reference on 127.0.0.1, and leaves no Prism behind when stopped.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/net.ts";
import { binPath, toolEnv } from "../scripts/lib/tools.ts";
import { repoRoot } from "../scripts/lib/paths.ts";
import { TEST_API_KEY } from "./support/mock.ts";

let child: ChildProcess;
let output = "";
let port: number;
let clone: string;

/**
 * A copy of the working tree as a fresh clone has it (no reference built), so `npm start` may build
 * there without touching this tree's generated/, which the freshness test judges.
 */
async function freshCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "svc-start-"));
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: repoRoot, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await cp(path.join(repoRoot, file), path.join(dir, file)).catch(() => undefined);
  }
  await symlink(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

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

describe("npm start", () => {
  it("builds the reference a fresh clone lacks", () => {
    expect(output).toContain("build: wrote generated/reference.html");
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
    const response = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Health Data, Lab Testing and Connection API");
    expect(html).toContain("completeProviderMfa");
  });

  it("stops Prism when it is stopped", async () => {
    const prismPid = Number(/pid (\d+)/.exec(output)?.[1]);
    expect(isRunning(prismPid)).toBe(true);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(isRunning(prismPid)).toBe(false);
  });
});
