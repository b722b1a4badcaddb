// Measures the stateful mock as users run it (`npm start -- --stateful`, a new process, autocannon on 127.0.0.1) beside
// the stateless mock launched the same way in the same run: reads after writes, writes, memory with 10,000 users in 10
// teams beside an empty start (verify against it: verify.ts).
import { spawn, type ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { freePort } from "../support/net.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { toolEnv } from "../../scripts/build/lib/tools.ts";
import { requestExample } from "../support/contract.ts";
import type { Figure } from "./client.ts";
import { treeRssMb } from "./process-memory.ts";

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const KEY = "sk_test_bench_not_a_real_key";
const JSON_HEADERS = { "content-type": "application/json", "x-svc-api-key": KEY };

interface Mock {
  child: ChildProcess;
  url: string;
  port: number;
}

export async function launch(args: string[]): Promise<Mock> {
  const port = await freePort();
  const child = spawn("npm", ["start", "--silent", "--", "--port", String(port), ...args], { cwd: repoRoot, env: toolEnv, stdio: "ignore", detached: true });
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    const ok = await fetch(`${url}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": KEY } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, url, port };
    if (child.exitCode !== null) throw new Error(`npm start ${args.join(" ")} exited ${child.exitCode}`);
    if (performance.now() - started > 60_000) throw new Error("the mock did not answer within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function stop(mock: Mock): void {
  try {
    process.kill(-mock.child.pid!, "SIGTERM");
  } catch {
    // Already gone.
  }
}

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = JSON_HEADERS): Promise<any> {
  const response = await fetch(`${url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

type Load = { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string; setupRequest?: (request: any) => any };

async function rate(port: number, request: Load, options: { connections: number; duration?: number; amount?: number }) {
  const started = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 3 }),
    requests: [request as never],
  });
  const seconds = (performance.now() - started) / 1000;
  if (result.errors + result.timeouts > 0 || result.non2xx > 0)
    throw new Error(`${request.method} ${request.path}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  // A fixed amount ends within a second or two: its rate is what was sent over the time it took (autocannon's own
  // average and duration are per whole second).
  return options.amount ? result.requests.total / seconds : result.requests.average;
}

/** A createUser load whose every request has a client_user_id of its own, in `teams` teams by turns. */
function uniqueUsers(prefix: string, teams: number): Load {
  let n = 0;
  return {
    method: "POST",
    path: "/v2/user",
    headers: JSON_HEADERS,
    setupRequest: (request: any) => {
      n++;
      return { ...request, headers: { ...JSON_HEADERS, "x-svc-api-key": `${KEY}_${n % teams}` }, body: JSON.stringify({ client_user_id: `${prefix}-${n}` }) };
    },
  };
}

export async function statefulFigures(log: (line: string) => void = () => {}): Promise<Figure[]> {
  const figures: Figure[] = [];
  const stateful = await launch(["--stateful"]);
  const stateless = await launch([]);
  try {
    // Writes first: 1,000 users of one team, one with two insurance records; then the read is the latest of them.
    const insurance = requestExample("createInsurance", "commercial_plan");
    let userId = "";
    for (let i = 0; i < 1_000; i++) userId = (await post(stateful.url, "/v2/user", { client_user_id: `seed-${i}` })).user_id;
    await post(stateful.url, `/v2/user/${userId}/insurance`, insurance);
    await post(stateful.url, `/v2/user/${userId}/insurance`, insurance);
    const read = (id: string): Load => ({ method: "GET", path: `/v2/user/${id}/insurance/latest`, headers: { "x-svc-api-key": KEY } });
    const rounds: { s: number; b: number }[] = [];
    for (let round = 0; round < 3; round++) {
      rounds.push({
        s: await rate(stateful.port, read(userId), { connections: 10 }),
        b: await rate(stateless.port, read("3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f"), { connections: 10 }),
      });
    }
    const [s, b] = [median(rounds.map((r) => r.s)), median(rounds.map((r) => r.b))];
    log(`latest insurance after 1,000 writes: stateful ${s.toFixed(0)} req/s, stateless ${b.toFixed(0)} req/s`);
    figures.push({
      name: "stateful mock: throughput at 10 connections, latest insurance after 1,000 writes",
      value: s,
      unit: "req/s",
      baseline: { name: "stateless mock, same read", value: b },
      ratio: median(rounds.map((r) => r.s / r.b)),
      target: "ratio >= 0.80",
    });

    // A fixed number of writes, in 10 teams, so the run stays under the per-team cap whatever the machine's speed.
    const writes = {
      s: await rate(stateful.port, uniqueUsers("write", 10), { connections: 10, amount: 10_000 }),
      b: await rate(
        stateless.port,
        { method: "POST", path: "/v2/user", headers: JSON_HEADERS, body: JSON.stringify({ client_user_id: "patient-0002" }) },
        { connections: 10, amount: 10_000 },
      ),
    };
    log(`create user: stateful ${writes.s.toFixed(0)} req/s, stateless ${writes.b.toFixed(0)} req/s`);
    figures.push({
      name: "stateful mock: throughput at 10 connections, create user (each a new one)",
      value: writes.s,
      unit: "req/s",
      baseline: { name: "stateless mock, create user", value: writes.b },
      ratio: writes.s / writes.b,
    });
  } finally {
    stop(stateful);
    stop(stateless);
  }

  // Memory: a fresh stateful mock, after a first answer, then after 10,000 users in 10 teams.
  const fresh = await launch(["--stateful"]);
  try {
    await post(fresh.url, "/v2/user", { client_user_id: "first" });
    const empty = await treeRssMb(fresh.child.pid!);
    await autocannon({ url: fresh.url, connections: 10, amount: 10_000, requests: [uniqueUsers("memory", 10) as never] });
    const state = (await (await fetch(`${fresh.url}/_mock/state`)).json()) as { totals: { teams: number; records: number } };
    if (state.totals.records < 10_000) throw new Error(`the mock holds ${state.totals.records} records, not 10,000 users`);
    const full = await treeRssMb(fresh.child.pid!);
    log(`memory: ${empty.toFixed(0)} MB empty, ${full.toFixed(0)} MB with ${state.totals.records} records in ${state.totals.teams} teams`);
    figures.push({
      name: "stateful mock: resident memory with 10,000 users in 10 teams",
      value: full,
      unit: "MB",
      baseline: { name: "the same mock, empty", value: empty },
      ratio: full / empty,
      target: "value <= 200 MB",
    });
  } finally {
    stop(fresh);
  }

  return figures;
}
