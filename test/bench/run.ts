// `npm run bench`: prints every benchmark figure beside its baseline from the same run, as a ratio, and writes them as JSON to .tmp/bench/.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { parseArgs } from "node:util";
import { clientFigures, type Figure } from "./client.ts";
import { clientSizeFigures } from "./client-size.ts";
import { mockFigures, proxyFigures, startupFigures } from "./mock.ts";
import { journalFigures } from "./journal.ts";
import { packageFigures } from "./package.ts";
import { referenceFigures } from "./reference.ts";
import { reviewFigures } from "./review.ts";
import { statefulFigures } from "./stateful.ts";
import { suiteFigures } from "./suite.ts";
import { verifyFigures } from "./verify.ts";

const outDir = path.join(repoRoot, ".tmp", "bench");
const latest = path.join(outDir, "latest.json");

function row(figure: Figure, previous: Figure | undefined): string {
  const digits = figure.unit === "bytes" || figure.unit === "req/s" ? 0 : 2;
  const value = `${figure.value.toFixed(digits)} ${figure.unit}`;
  const base = `${figure.baseline.value.toFixed(digits)} ${figure.unit}`;
  const change = previous ? ` (last run ${previous.ratio.toFixed(2)})` : "";
  return `| ${figure.name} | ${value} | ${figure.baseline.name}: ${base} | ${figure.ratio.toFixed(2)}${change} | ${figure.target ?? ""} |`;
}

const previous = JSON.parse(await readFile(latest, "utf8").catch(() => "{}")) as { figures?: Figure[] };
// `npm run bench -- --only mock` (or client, package, startup, journal, stateful, verify, review, reference, suite) runs one group; startup is
// also in mock; suite (the whole of `npm test`, minutes) runs only when asked for.
const { values } = parseArgs({ options: { only: { type: "string" } } });
const figures: Figure[] = [];
const runs = (group: string) => values.only === undefined || values.only === group;
if (runs("client")) figures.push(...(await clientSizeFigures((line) => console.error(`  ${line}`))), ...(await clientFigures()));
if (runs("package")) figures.push(...(await packageFigures((line) => console.error(`  ${line}`))));
if (values.only === "startup") figures.push(...(await startupFigures((line) => console.error(`  ${line}`))));
if (values.only === "proxy") figures.push(...(await proxyFigures((line) => console.error(`  ${line}`))));
if (values.only === "suite") figures.push(...(await suiteFigures((line) => console.error(`  ${line}`))));
if (runs("mock")) figures.push(...(await mockFigures((line) => console.error(`  ${line}`))));
if (runs("journal")) figures.push(...(await journalFigures((line) => console.error(`  ${line}`))));
if (runs("stateful")) figures.push(...(await statefulFigures((line) => console.error(`  ${line}`))));
if (runs("verify")) figures.push(...(await verifyFigures((line) => console.error(`  ${line}`))));
if (runs("review")) figures.push(...(await reviewFigures((line) => console.error(`  ${line}`))));
if (runs("reference")) figures.push(...(await referenceFigures((line) => console.error(`  ${line}`))));
console.log("| figure | value | baseline (same run) | ratio | target |\n|---|---|---|---|---|");
for (const figure of figures) {
  const before = previous.figures?.find((f) => f.name === figure.name && f.baseline.name === figure.baseline.name);
  console.log(row(figure, before));
}
const report = { at: new Date().toISOString(), node: process.version, figures };
await mkdir(outDir, { recursive: true });
await writeFile(latest, `${JSON.stringify(report, null, 2)}\n`);
await writeFile(path.join(outDir, `${report.at.replace(/[:.]/g, "-")}.json`), `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${path.relative(repoRoot, latest)} (and a dated copy); each ratio in brackets is the last run's`);
