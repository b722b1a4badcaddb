// No name the package exports, value or type, shadows a global of JavaScript, the DOM or Node: importing it must not hide `Error` or `Response`.
// The mock's two entries give the same types: a user of `./mock/msw` finds every type `./mock` documents.
import path from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { generatedDir, repoRoot } from "../scripts/build/lib/paths.ts";
import type { Surface } from "../scripts/build/surface.ts";

const ENTRIES = ["generated/client/index.d.ts", "generated/management/index.d.ts", "generated/types/index.d.ts", "generated/webhooks/index.d.ts"];

/** Each entry's exported names, and the consumer's globals: one program for all four, the libraries loaded once. */
function exportedNames(entries: string[]): { names: Map<string, string[]>; globals: Set<string> } {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    noEmit: true,
  };
  // A script file (not a module) of the consumer's, whose scope is exactly the globals.
  const probe = path.join(repoRoot, "test", "globals-probe.ts");
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => (name === probe ? "const probe = 1;\n" : readFile(name));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === probe || fileExists(name);
  const program = ts.createProgram([...entries, probe], options, host);
  const checker = program.getTypeChecker();
  const names = new Map(
    entries.map((entry) => [entry, checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!).map((symbol) => symbol.name)]),
  );
  const probeFile = program.getSourceFile(probe)!;
  const scope = checker.getSymbolsInScope(probeFile.statements[0]!, ts.SymbolFlags.Value | ts.SymbolFlags.Type | ts.SymbolFlags.Namespace);
  const globals = new Set(scope.map((symbol) => symbol.name).filter((name) => name !== "probe"));
  return { names, globals };
}

describe("exported names", () => {
  let exported: ReturnType<typeof exportedNames>;
  beforeAll(() => {
    exported = exportedNames(ENTRIES.map((entry) => path.join(repoRoot, entry)));
  });

  for (const entry of ENTRIES) {
    it(`${entry} shadows no global`, () => {
      const globals = exported.globals;
      const names = exported.names.get(path.join(repoRoot, entry))!;
      expect(globals.has("Error") && globals.has("Response") && globals.has("Buffer")).toBe(true);
      expect(names.length).toBeGreaterThan(10);
      expect(names.filter((name) => globals.has(name))).toEqual([]);
    });
  }
});

describe("the mock's two entries", () => {
  it("./mock/msw exports every type ./mock exports (their declared names in generated/surface.json)", () => {
    const surface = JSON.parse(readFileSync(path.join(generatedDir, "surface.json"), "utf8")) as Surface;
    const typesOf = (entry: string) =>
      Object.entries(surface.entries[entry]!.declared)
        .filter(([, declared]) => declared.kind === "interface" || declared.kind === "type")
        .map(([name]) => name);
    const mockTypes = typesOf("./mock");
    expect(mockTypes).toEqual(expect.arrayContaining(["MockOptions", "MockSeedData", "MockTeamSettings", "OperationId"]));
    expect(mockTypes.filter((name) => !typesOf("./mock/msw").includes(name))).toEqual([]);
  });
});
