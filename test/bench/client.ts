// Measures the client against baselines in the same run: its per-call cost beside bare openapi-fetch and a plain fetch
// (runs interleaved), and a consumer's type-check time beside an empty one's; its size is client-size.ts's.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import createFetchClient from "openapi-fetch";
import { createClient } from "../../generated/client/index.js";
import type { paths } from "../../generated/schema.js";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { binPath } from "../../scripts/build/lib/tools.ts";

const run = promisify(execFile);

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline: { name: string; value: number };
  /** value / baseline. */
  ratio: number;
  target?: string;
}

export const figure = (name: string, value: number, unit: string, baselineName: string, baseline: number, target?: string): Figure => ({
  name,
  value,
  unit,
  baseline: { name: baselineName, value: baseline },
  ratio: value / baseline,
  ...(target ? { target } : {}),
});

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Per-call cost with a fetch that answers at once: the layer, bare openapi-fetch, and a plain fetch with the JSON parsed.
 * Short batches, interleaved in a rotating order, and the ratio is the median of each round's own ratio, so that the
 * machine's drift (seen here: the same loop 30 % slower from one second to the next) cancels out.
 */
export async function callFigures(rounds = 60, callsPerRound = 500): Promise<Figure[]> {
  const body = JSON.stringify([{ id: 1, slug: "quest", name: "Quest" }]);
  const answer = async (): Promise<Response> =>
    new Response(body, { status: 200, headers: { "content-type": "application/json", "content-length": String(body.length) } });
  const baseUrl = "http://bench.invalid";
  const ours = createClient({ baseUrl, apiKey: "sk_test", fetch: answer });
  const bare = createFetchClient<paths>({ baseUrl, headers: { "x-svc-api-key": "sk_test" }, fetch: answer });
  const variants: Record<string, () => Promise<unknown>> = {
    client: () => ours.GET("/v3/lab_tests/labs"),
    "bare openapi-fetch": () => bare.GET("/v3/lab_tests/labs"),
    // The plain baseline builds the Request the clients build, then parses the answer.
    "plain fetch + JSON": async () => {
      const request = new Request(`${baseUrl}/v3/lab_tests/labs`, { headers: { "x-svc-api-key": "sk_test" } });
      return [request, await (await answer()).json()];
    },
  };
  const names = Object.keys(variants);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let warm = 0; warm < 2_000; warm++) for (const name of names) await variants[name]!();
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!);
    for (const name of order) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < callsPerRound; i++) await variants[name]!();
      samples[name]!.push(Number(process.hrtime.bigint() - started) / callsPerRound / 1_000);
    }
  }
  const paired = (baseline: string): number => median(samples.client!.map((value, round) => value / samples[baseline]![round]!));
  const us = (name: string): number => median(samples[name]!);
  return ["bare openapi-fetch", "plain fetch + JSON"].map((baseline) => ({
    ...figure("client: per call, stub fetch", us("client"), "µs", baseline, us(baseline), baseline === "bare openapi-fetch" ? "ratio <= 1.10" : undefined),
    ratio: paired(baseline),
  }));
}

/** `tsc --noEmit` of the consumer that calls every operation, beside the same run on an empty consumer. */
export async function typeCheckFigures(rounds = 3): Promise<Figure[]> {
  // Inside the repo, so the consumer's import of the package resolves to this package itself.
  await mkdir(path.join(repoRoot, ".tmp"), { recursive: true });
  const dir = await mkdtemp(path.join(repoRoot, ".tmp", "bench-tsc-"));
  try {
    const configs: Record<string, string> = {};
    for (const [name, source] of [
      ["consumer", path.join(repoRoot, "test/fixtures/consumer/consumer.ts")],
      ["empty", path.join(dir, "empty.ts")],
    ] as const) {
      if (name === "empty") await writeFile(source, "export {};\n");
      const config = {
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
        },
        files: [source],
      };
      configs[name] = path.join(dir, `tsconfig.${name}.json`);
      await writeFile(configs[name]!, JSON.stringify(config));
    }
    const times: Record<string, number[]> = { consumer: [], empty: [] };
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 ? ["empty", "consumer"] : ["consumer", "empty"]) {
        const started = performance.now();
        await run(binPath("tsc"), ["-p", configs[name]!], { cwd: repoRoot });
        times[name]!.push(performance.now() - started);
      }
    }
    return [figure("client: consumer tsc --noEmit", median(times.consumer!), "ms", "empty consumer", median(times.empty!), "ratio <= 1.30")];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function clientFigures(): Promise<Figure[]> {
  return [...(await callFigures()), ...(await typeCheckFigures())];
}
