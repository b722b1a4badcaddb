// Lints the contract with Spectral (sources and bundle, in this process) and Redocly (sources), and returns each finding
// as one line; `npm start` uses it when the contract changed, the lint tests hold the same commands, and the review reads
// the same results for any tree (a fixture repository, or the ruleset with its waivers left out).
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../build/lib/paths.ts";
import { runTool } from "../build/lib/tools.ts";
import { spectralLint, type SpectralResult } from "./spectral-in-process.ts";

export type SpectralFinding = SpectralResult;

export interface RedoclyProblem {
  ruleId: string;
  severity: string;
  message: string;
  location?: { source?: { ref?: string }; pointer?: string }[];
}

function lastLine(text: string): string {
  return (
    text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? "(no output)"
  );
}

/** Which of a tree's documents a lint reads: its split sources, its bundle (when it has one), or both. */
export interface LintTargets {
  sources?: boolean;
  bundle?: boolean;
}

/** Spectral's findings on a tree's sources and, when it has one, its bundle; `ruleset` may be a copy elsewhere. */
export async function spectralFindings({
  root = repoRoot,
  ruleset = ".spectral.yaml",
  sources = true,
  bundle = true,
}: { root?: string; ruleset?: string } & LintTargets = {}): Promise<SpectralFinding[]> {
  const targets = [
    ...(sources ? ["openapi/openapi.yaml"] : []),
    ...(bundle && existsSync(path.join(root, "generated/openapi.json")) ? ["generated/openapi.json"] : []),
  ];
  return targets.length === 0 ? [] : spectralLint(targets, { ruleset, cwd: root });
}

/**
 * The JSON objects a tool printed one after another (Redocly prints one report per API of redocly.yaml), found by
 * counting braces outside strings.
 */
export function concatenatedObjects<T>(text: string): T[] {
  const objects: T[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"' && depth > 0) inString = true;
    else if (char === "{") {
      if (depth++ === 0) start = i;
    } else if (char === "}" && depth > 0 && --depth === 0) objects.push(JSON.parse(text.slice(start, i + 1)) as T);
  }
  return objects;
}

/** Redocly's reports, one per API it lints: `targets` (aliases of redocly.yaml or files), or every API the config lists. */
async function redoclyReports(targets: string[], { root = repoRoot, config }: { root?: string; config?: string } = {}): Promise<RedoclyProblem[][]> {
  const run = await runTool("redocly", ["lint", ...targets, ...(config ? ["--config", config] : []), "--format", "json"], { allowFailure: true, cwd: root });
  const reports = concatenatedObjects<{ problems?: RedoclyProblem[] }>(run.stdout).filter((each) => Array.isArray(each.problems));
  if (reports.length === 0) throw new Error(`redocly lint gave no report: ${lastLine(run.stderr || run.stdout)}`);
  return reports.map((each) => each.problems!);
}

/** Redocly's problems with the tree's redocly.yaml (or another `config`), on every API it lists (sources, workflows) or on `file`. */
export async function redoclyProblems(file?: string, options: { root?: string; config?: string } = {}): Promise<RedoclyProblem[]> {
  return (await redoclyReports(file ? [file] : [], options)).flat();
}

/**
 * Redocly's problems on each of `targets`, in their order, from one Redocly process (it lints them one after another
 * and prints a report for each): what several `redocly lint` runs would find, without starting Redocly for each.
 */
export async function redoclyProblemsEach(targets: string[], options: { root?: string; config?: string } = {}): Promise<RedoclyProblem[][]> {
  const reports = await redoclyReports(targets, options);
  if (reports.length !== targets.length) throw new Error(`redocly lint gave ${reports.length} reports for ${targets.length} targets (${targets.join(", ")})`);
  return reports;
}

/** Every finding of both linters on the sources, the bundle or both (Redocly reads the sources), one line each: the rule, the message, and where. */
export async function lintProblems({ sources = true, bundle = true }: LintTargets = {}): Promise<string[]> {
  const [spectral, redocly] = await Promise.all([spectralFindings({ sources, bundle }), sources ? redoclyProblems() : []]);
  return [
    ...spectral.map((f) => `${f.code}: ${f.message} at ${f.source?.replace(process.cwd(), ".") ?? ""}#/${f.path.join("/")}`),
    ...redocly.map((p) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.source?.ref ?? ""}${p.location?.[0]?.pointer ?? ""}`),
  ];
}
