// Runs `spectral lint` in this process: the function the Spectral CLI itself calls, with the CLI's defaults, so the
// findings are the CLI's without paying for a Node process and Spectral's loading on every lint (the suite lints often).
import { createRequire } from "node:module";
import path from "node:path";
import type { LinterResult } from "@stoplight/spectral-cli/dist/services/linter/linter.js";
import type { ILintConfig } from "@stoplight/spectral-cli/dist/services/config.js";
import { repoRoot } from "../build/lib/paths.ts";

type Lint = (documents: string[], flags: ILintConfig) => Promise<LinterResult>;

// The CLI's own module, loaded once and only when a lint runs: `npm start` with nothing to rebuild never pays for it.
let loaded: Lint | undefined;
function cliLint(): Lint {
  loaded ??= (createRequire(path.join(repoRoot, "package.json"))("@stoplight/spectral-cli/dist/services/linter/linter.js") as { lint: Lint }).lint;
  return loaded;
}

/** What `spectral lint --format json` prints, as objects: one per finding, with the fields its JSON formatter keeps, in its order. */
export interface SpectralResult {
  code: string;
  message: string;
  source?: string;
  path: (string | number)[];
  severity: number;
  range?: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/**
 * `spectral lint --ruleset <ruleset> <files>` run from `cwd`. The CLI resolves the ruleset and the files against its
 * working directory, which a process shares with every test in it: they are made absolute here instead.
 */
export async function spectralLint(files: string[], { ruleset, cwd }: { ruleset: string; cwd: string }): Promise<SpectralResult[]> {
  const { results } = await cliLint()(
    files.map((file) => path.resolve(cwd, file)),
    {
      ruleset: path.resolve(cwd, ruleset),
      encoding: "utf8",
      format: [],
      ignoreUnknownFormat: false,
      failOnUnmatchedGlobs: false,
      showDocumentationUrl: false,
      quiet: true,
    },
  );
  return results.map(({ code, path: where, message, severity, range, source }) => ({ code: String(code), path: where, message, severity, range, source }));
}
