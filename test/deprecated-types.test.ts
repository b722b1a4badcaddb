// Every property the contract marks deprecated is @deprecated in the types an editor reads: TypeScript's own language
// service flags its use (diagnostic 6385), as it would in the user's editor.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { isObject, walkObjects, type JsonObject } from "../src/contract/json.ts";
import { contract } from "./support/contract.ts";

/** Each deprecated property of a named schema: [schema, property]. */
function deprecatedProperties(): [string, string][] {
  const found: [string, string][] = [];
  const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;
  for (const [name, schema] of Object.entries(schemas)) {
    walkObjects(schema, (node) => {
      for (const [property, value] of Object.entries((node.properties ?? {}) as JsonObject)) {
        if (isObject(value) && value.deprecated === true) found.push([name, property]);
      }
    });
  }
  return found;
}

function suggestionsFor(source: string): ts.Diagnostic[] {
  const file = path.join(repoRoot, "test/types/deprecated-probe.ts");
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const text = name === file ? source : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => repoRoot,
    getCompilationSettings: () => ({
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      types: [],
    }),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? source : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host).getSuggestionDiagnostics(file);
}

describe("deprecated fields in the types", () => {
  const properties = deprecatedProperties();

  it("are the ones the interface document deprecates", () => {
    expect(properties).toEqual(
      expect.arrayContaining([
        ["LinkMfaResult", "provider"],
        ["LinkMfaResult", "connected"],
        ["LinkMfaResult", "provider_id"],
        ["Source", "name"],
        ["Source", "logo"],
        ["Source", "slug"],
        ["ProviderConnection", "source"],
      ]),
    );
  });

  it("flag the source of provider.connection.created where a receiver reads it, event.data.source (6, rule 4)", () => {
    const source = [
      `import type { ProviderConnectionCreatedEvent } from "../../generated/client/index.js";`,
      `declare const event: ProviderConnectionCreatedEvent;`,
      `export const old = event.data.source;`,
      `export const current = event.data.provider;`,
    ].join("\n");
    const flagged = suggestionsFor(source)
      .filter((d) => d.code === 6385)
      .map((d) => source.slice(d.start!, d.start! + d.length!));
    expect(flagged).toEqual(["source"]);
  });

  it("are flagged as deprecated where a consumer reads them, and nothing else is", () => {
    const schemas = [...new Set(properties.map(([schema]) => schema))];
    const lines = [
      `import type { ${schemas.join(", ")} } from "../../generated/client/index.js";`,
      ...schemas.map((schema, i) => `declare const value${i}: ${schema};`),
      ...properties.map(([schema, property]) => `export const read_${schema}_${property} = value${schemas.indexOf(schema)}.${property};`),
      // A field that is not deprecated, to show the check tells them apart.
      `export const fine = value${schemas.indexOf("LinkMfaResult")}.state;`,
    ];
    const source = lines.join("\n");
    const flagged = suggestionsFor(source)
      .filter((d) => d.code === 6385)
      .map((d) => source.slice(d.start!, d.start! + d.length!));
    expect(flagged.sort()).toEqual(properties.map(([, property]) => property).sort());
  });
});
