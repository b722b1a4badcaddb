// Lints the contract with Spectral (sources and bundle) and Redocly (sources), and returns each finding as one line;
// `npm start` uses it when the contract changed, and the lint tests hold the same commands.
import { runTool } from "./lib/tools.ts";

interface SpectralFinding {
  code: string;
  message: string;
  source?: string;
  path: string[];
}

interface RedoclyProblem {
  ruleId: string;
  message: string;
  location?: { source?: { ref?: string }; pointer?: string }[];
}

export const SPECTRAL_ARGS = ["lint", "--ruleset", ".spectral.yaml", "--format", "json", "--quiet", "--fail-severity", "hint", "openapi/openapi.yaml", "generated/openapi.json"];

export async function spectralFindings(): Promise<SpectralFinding[]> {
  const run = await runTool("spectral", SPECTRAL_ARGS, { allowFailure: true });
  return JSON.parse(run.stdout || "[]") as SpectralFinding[];
}

export async function redoclyProblems(file?: string): Promise<RedoclyProblem[]> {
  const run = await runTool("redocly", ["lint", ...(file ? [file] : []), "--format", "json"], { allowFailure: true });
  return (JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as { problems: RedoclyProblem[] }).problems;
}

/** Every finding of both linters, one line each: the rule, the message, and where. */
export async function lintProblems(): Promise<string[]> {
  const [spectral, redocly] = await Promise.all([spectralFindings(), redoclyProblems()]);
  return [
    ...spectral.map((f) => `${f.code}: ${f.message} at ${f.source?.replace(process.cwd(), ".") ?? ""}#/${f.path.join("/")}`),
    ...redocly.map((p) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.source?.ref ?? ""}${p.location?.[0]?.pointer ?? ""}`),
  ];
}
