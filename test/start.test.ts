// `npm start` builds what is missing, serves the mock and the reference on 127.0.0.1, loads Prism into its own process for
// a dynamic answer (no second process), and leaves no process behind when stopped.
import type { ChildProcess } from "node:child_process";
import { readdir, readFile, rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/net.ts";
import { TEST_API_KEY } from "./support/mock.ts";
import { freshCopy } from "./support/fresh-copy.ts";
import { launchStart } from "./support/start-process.ts";

let child: ChildProcess;
let stopStart: () => void;
/** What npm start printed so far. */
let printed: () => string;
let port: number;
let clone: string;

/** Whether a process is alive: an exited one nobody has reaped yet (a zombie, whose parent is gone) is not. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat !== "" && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

beforeAll(async () => {
  port = await freePort();
  clone = await freshCopy();
  const start = await launchStart(clone, port, 90_000);
  child = start.child;
  stopStart = start.stop;
  printed = start.output;
});

afterAll(async () => {
  // The whole group, whether or not the test stopped it: a process npm start started could outlive it killed alone.
  stopStart?.();
  await rm(clone, { recursive: true, force: true });
});

/** Every process below `pid`, with its command line. */
async function descendants(pid: number): Promise<{ pid: number; command: string }[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
  }
  const below = (p: number): number[] => [...parents].filter(([, parent]) => parent === p).flatMap(([c]) => [c, ...below(c)]);
  return Promise.all(
    below(pid).map(async (p) => ({ pid: p, command: (await readFile(`/proc/${p}/cmdline`, "utf8").catch(() => "")).split("\0").join(" ").trim() })),
  );
}

/** Waits until the output shows a line, for what npm start does after it listens. */
async function outputShows(text: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!printed().includes(text)) {
    if (Date.now() > deadline) throw new Error(`npm start never printed ${JSON.stringify(text)}:\n${printed()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm start", () => {
  it("listens before the reference is built, and says so at /docs meanwhile", async () => {
    // The fresh clone has no reference: the mock is up before the reference is written, if it is written yet.
    const listening = printed().indexOf("Stop with Ctrl-C");
    const reference = printed().indexOf("build: wrote generated/reference.html");
    expect(listening).toBeGreaterThanOrEqual(0);
    expect(reference === -1 || reference > listening, printed()).toBe(true);
  });

  it("builds the reference a fresh clone lacks, after listening", async () => {
    await outputShows("build: wrote generated/reference.html");
  });

  it("prints where the mock and the reference are", () => {
    expect(printed()).toContain(`Mock server:  http://127.0.0.1:${port}`);
    expect(printed()).toContain(`Reference:    http://127.0.0.1:${port}/docs`);
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

  it("loads Prism into its own process only for a dynamic answer, starting no other, and leaves no process behind when stopped", async () => {
    expect(printed()).not.toContain("prism: loaded");
    const before = await descendants(child.pid!);
    const response = await fetch(`http://127.0.0.1:${port}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": TEST_API_KEY, prefer: "dynamic=true" } });
    expect(response.status).toBe(200);
    // Prism answered (it is installed here, a development dependency): no fallback to the declared example.
    expect(response.headers.get("x-svc-mock-dynamic-fallback"), printed()).toBeNull();
    await outputShows("prism: loaded @stoplight/prism-http");
    expect(printed()).toContain("into this process for dynamic answers");
    const after = await descendants(child.pid!);
    // Whatever else came and went (esbuild's service, which start.js runs to bundle start.ts), nothing that runs Prism.
    expect(after.filter((p) => /@stoplight[\\/]prism/.test(p.command))).toEqual([]);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const left = [];
    for (const p of [...before, ...after]) if (await isRunning(p.pid)) left.push(p);
    expect(left).toEqual([]);
  });
});

describe("npm start -- --stateful", () => {
  it("serves the mock that remembers each team's calls, and /_mock/state", async () => {
    const statefulPort = await freePort();
    const start = await launchStart(clone, statefulPort, 90_000, ["--stateful"]);
    try {
      expect(start.output()).toContain(`http://127.0.0.1:${statefulPort}/_mock/state resets it and moves its clock`);
      const create = () =>
        fetch(`http://127.0.0.1:${statefulPort}/v2/user`, {
          method: "POST",
          headers: { "x-svc-api-key": TEST_API_KEY, "content-type": "application/json" },
          body: JSON.stringify({ client_user_id: "started" }),
        });
      const created = (await (await create()).json()) as { user_id: string };
      const again = await create();
      expect([again.status, ((await again.json()) as { user_id: string }).user_id]).toEqual([400, created.user_id]);
      const state = await fetch(`http://127.0.0.1:${statefulPort}/_mock/state`, { headers: { "x-svc-api-key": TEST_API_KEY } });
      expect(((await state.json()) as { team: { counts: { users: number } } }).team.counts.users).toBe(1);
    } finally {
      const exited = new Promise((resolve) => start.child.once("exit", resolve));
      start.child.kill("SIGTERM");
      await exited;
      start.stop();
    }
  }, 120_000);
});
