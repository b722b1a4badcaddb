// Measures what the request journal costs the mock: the packaged command with the journal on (its default) beside the
// same command with `--journal-size 0`, launched alike, in the same run, over every operation at 50 connections.
import path from "node:path";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { freePort } from "../support/net.ts";
import { operations } from "../support/contract.ts";
import type { Figure } from "./client.ts";
import { launch, load, stop, validRequest } from "./mock.ts";

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function journalFigures(log: (line: string) => void = () => {}): Promise<Figure[]> {
  const all = operations.map((op) => validRequest(op.operationId));
  const command = path.join(repoRoot, "generated/mock/cli.js");
  const [onPort, offPort] = [await freePort(), await freePort()];
  const on = await launch(process.execPath, [command, "--port", String(onPort)], onPort, all[0]!);
  const off = await launch(process.execPath, [command, "--port", String(offPort), "--journal-size", "0"], offPort, all[0]!);
  try {
    const ratios: number[] = [];
    const rps = { on: [] as number[], off: [] as number[] };
    // Five short rounds in turn: the load generator shares the two cores with both servers.
    for (let round = 0; round < 5; round++) {
      const withJournal = await load(onPort, all, { connections: 50, duration: 3 });
      const without = await load(offPort, all, { connections: 50, duration: 3 });
      if (withJournal.errors || without.errors) throw new Error(`journal bench: ${withJournal.errors} and ${without.errors} errors`);
      rps.on.push(withJournal.rps);
      rps.off.push(without.rps);
      ratios.push(withJournal.rps / without.rps);
    }
    log(`journal on ${rps.on.map((v) => v.toFixed(0)).join(", ")} req/s; off ${rps.off.map((v) => v.toFixed(0)).join(", ")} req/s`);
    return [
      {
        name: "mock: throughput with the request journal on, every operation at 50 connections (median of 5)",
        value: median(rps.on),
        unit: "req/s",
        baseline: { name: "the same command with --journal-size 0", value: median(rps.off) },
        ratio: median(ratios),
        target: "ratio >= 0.95",
      },
    ];
  } finally {
    stop(on);
    stop(off);
  }
}
