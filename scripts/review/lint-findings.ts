// Runs Spectral and Redocly lint on a tree's sources and bundle, and locates every finding in a split source file and line.
import { existsSync } from "node:fs";
import path from "node:path";
import { runTool } from "../lib/tools.ts";
import { encodePointer, SourceMap } from "./source-map.ts";

export interface LintFinding {
  tool: "spectral" | "redocly";
  rule: string;
  severity: "error" | "warning" | "notice";
  message: string;
  file: string;
  line: number;
  /** False when the finding is on a part of the bundle the sources do not hold: the nearest source line is given. */
  exact: boolean;
}

interface SpectralResult {
  code: string | number;
  message: string;
  path: (string | number)[];
  severity: number;
  source?: string;
  range?: { start: { line: number } };
}

interface RedoclyProblem {
  ruleId: string;
  severity: string;
  message: string;
  location?: { source?: { ref?: string }; pointer?: string }[];
}

const BUNDLE = "generated/openapi.json";

function lastLine(text: string): string {
  return text.split("\n").map((line) => line.trim()).filter(Boolean).at(-1) ?? "(no output)";
}
const SOURCES = "openapi/openapi.yaml";

/** Spectral's severities (0 error … 3 hint) as annotation levels; `npm run lint` fails on warnings too. */
function spectralSeverity(severity: number): LintFinding["severity"] {
  return severity === 0 ? "error" : severity === 1 ? "warning" : "notice";
}

export async function spectralFindings(root: string, map: SourceMap): Promise<LintFinding[]> {
  const targets = [SOURCES, ...(existsSync(path.join(root, BUNDLE)) ? [BUNDLE] : [])];
  const run = await runTool("spectral", ["lint", "--ruleset", ".spectral.yaml", "--format", "json", "--quiet", "--fail-severity", "hint", ...targets], { allowFailure: true, cwd: root });
  const start = run.stdout.indexOf("[");
  if (start < 0) throw new Error(`spectral gave no report: ${lastLine(run.stderr || run.stdout)}`);
  const results = JSON.parse(run.stdout.slice(start)) as SpectralResult[];
  return results.map((result) => {
    const source = path.relative(root, path.resolve(root, result.source ?? SOURCES)).split(path.sep).join("/");
    const base = { tool: "spectral" as const, rule: String(result.code), severity: spectralSeverity(result.severity), message: result.message };
    if (source === BUNDLE) return { ...base, ...map.locate(encodePointer(result.path.map(String))) };
    return { ...base, file: source, line: (result.range?.start.line ?? 0) + 1, exact: true };
  });
}

export async function redoclyFindings(root: string, map: SourceMap): Promise<LintFinding[]> {
  const run = await runTool("redocly", ["lint", "--format", "json"], { allowFailure: true, cwd: root });
  const start = run.stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly lint gave no report: ${lastLine(run.stderr || run.stdout)}`);
  const problems = (JSON.parse(run.stdout.slice(start)) as { problems: RedoclyProblem[] }).problems;
  return problems.map((problem) => {
    const where = problem.location?.[0];
    const file = where?.source?.ref ?? SOURCES;
    const located = map.locateInFile(path.relative(root, path.resolve(root, file)), where?.pointer ?? "#/");
    const severity = problem.severity === "error" ? "error" : problem.severity === "warn" ? "warning" : "notice";
    return { tool: "redocly" as const, rule: problem.ruleId, severity, message: problem.message, ...located };
  });
}

/** Both linters, findings de-duplicated: a rule that fires on a source and on the bundle is one finding on one line. */
export async function lintFindings(root: string, map: SourceMap): Promise<LintFinding[]> {
  const [spectral, redocly] = await Promise.all([spectralFindings(root, map), redoclyFindings(root, map)]);
  const seen = new Set<string>();
  return [...spectral, ...redocly].filter((finding) => {
    const key = `${finding.tool}|${finding.rule}|${finding.file}|${finding.line}|${finding.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function failsReview(finding: LintFinding): boolean {
  return finding.severity !== "notice";
}
