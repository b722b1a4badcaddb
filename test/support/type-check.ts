// Type-checks the repository (tsconfig.json, as `tsc -p tsconfig.json` does) and any further files in one TypeScript
// program, in this process: a second program would load and check the libraries, Node's types and generated/ again.
import path from "node:path";
import ts from "typescript";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

/** tsc's own report of the problems in each file: "" where a file has none. */
export interface TypeCheck {
  /** The problems in tsconfig.json's own files, and of the configuration and program as a whole. */
  repository: string;
  /** The problems in the further files, each file's under its path. */
  extra: Map<string, string>;
}

/**
 * The compiler options of a strict consumer of the packed package, as a tsconfig.json gives them (the caller adds its
 * target and module resolution): every declaration of the package is checked, with the strictest flags users turn on.
 */
export const STRICT_CONSUMER = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: false,
  noEmit: true,
  types: ["node"],
  typeRoots: [path.join(repoRoot, "node_modules/@types")],
};

const format: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => repoRoot,
  getNewLine: () => "\n",
};

export function typeCheck(extraFiles: string[] = []): TypeCheck {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(repoRoot, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.formatDiagnostics([diagnostic], format));
      },
    },
  )!;
  const extra = new Set(extraFiles.map((file) => path.resolve(file)));
  const program = ts.createProgram({ rootNames: [...config.fileNames, ...extra], options: config.options, projectReferences: config.projectReferences });
  const all = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  const inExtra = (diagnostic: ts.Diagnostic) => diagnostic.file !== undefined && extra.has(path.resolve(diagnostic.file.fileName));
  return {
    repository: ts.formatDiagnostics(
      all.filter((diagnostic) => !inExtra(diagnostic)),
      format,
    ),
    extra: new Map(
      [...extra].map((file) => [
        file,
        ts.formatDiagnostics(
          all.filter((diagnostic) => diagnostic.file !== undefined && path.resolve(diagnostic.file.fileName) === file),
          format,
        ),
      ]),
    ),
  };
}
