// Runs Spectral and Redocly lint on a tree's sources and bundle, and locates every finding in a split source file and line.
import path from "node:path";
import { redoclyProblems, spectralFindings } from "../lint.ts";
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

const BUNDLE = "generated/openapi.json";

/** Spectral's severities (0 error … 3 hint) as annotation levels; `npm run lint` fails on warnings too. */
function spectralSeverity(severity: number): LintFinding["severity"] {
  return severity === 0 ? "error" : severity === 1 ? "warning" : "notice";
}

export async function spectralLocated(root: string, map: SourceMap): Promise<LintFinding[]> {
  return (await spectralFindings({ root })).map((result) => {
    const source = path
      .relative(root, path.resolve(root, result.source ?? "openapi/openapi.yaml"))
      .split(path.sep)
      .join("/");
    const base = { tool: "spectral" as const, rule: String(result.code), severity: spectralSeverity(result.severity), message: result.message };
    if (source === BUNDLE) return { ...base, ...map.locate(encodePointer(result.path.map(String))) };
    return { ...base, file: source, line: (result.range?.start.line ?? 0) + 1, exact: true };
  });
}

export async function redoclyLocated(root: string, map: SourceMap): Promise<LintFinding[]> {
  return (await redoclyProblems(undefined, { root })).map((problem) => {
    const where = problem.location?.[0];
    const file = where?.source?.ref ?? "openapi/openapi.yaml";
    const located = map.locateInFile(path.relative(root, path.resolve(root, file)), where?.pointer ?? "#/");
    const severity = problem.severity === "error" ? "error" : problem.severity === "warn" ? "warning" : "notice";
    return { tool: "redocly" as const, rule: problem.ruleId, severity, message: problem.message, ...located };
  });
}

/** Both linters, findings de-duplicated: a rule that fires on a source and on the bundle is one finding on one line. */
export async function lintFindings(root: string, map: SourceMap): Promise<LintFinding[]> {
  const [spectral, redocly] = await Promise.all([spectralLocated(root, map), redoclyLocated(root, map)]);
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
