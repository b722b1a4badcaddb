// The package's surface as a user's code meets it, for generated/surface.json: the exports map, every entry's exported
// declarations as written (the data they carry as values), the commands and their flags, engines and peerDependencies.
// The review compares it with the base revision's (scripts/commands/review/surface-diff.ts), as it compares the contract.
import { readFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { generatedDir, repoRoot } from "./lib/paths.ts";
import { constData, memberData, type DataValue } from "./surface-data.ts";
import { MOCK_COMMAND_FLAGS } from "../../src/mock/server.ts";
import { VERIFY_COMMAND_FLAGS } from "../../src/verify/run.ts";

/** One exported name of an entry: what it is, and its declaration as the user's editor shows it (comments left out). */
export interface SurfaceExport {
  kind: "function" | "class" | "interface" | "type" | "const" | "enum" | "namespace";
  /** The declaration's text (each overload of a function), whitespace collapsed. */
  text?: string[];
  /** An interface's or a class's members, by name: their text. */
  members?: Record<string, string>;
  /** A type alias of a union: its members' texts, compared as a set (a member added widens it). */
  union?: string[];
  /**
   * The data it carries, by value: a `const`'s value (knownValues, eventKinds), or an interface's members whose types
   * are values (an operation table's routes, statuses and credentials), by name. Compared by value, not as text.
   */
  data?: DataValue;
}

/** One subpath's exported names: its own declarations, and the contract's types it re-exports (their shapes are the
 * contract review's to judge; their names are the surface's, since a user's import of a name removed fails). */
export interface SurfaceEntry {
  declared: Record<string, SurfaceExport>;
  contractTypes: string[];
  /** The package's own types the exported declarations name without exporting them (`TableClient` behind `SvcClient`),
   * each by name: a member removed there is removed from what users hold. */
  referenced: Record<string, SurfaceExport>;
}

export interface Surface {
  /** The exports map: each subpath with its conditions (`import.types`, `require.default`, ...). */
  exports: Record<string, string[]>;
  /** Each subpath with declarations: its exported names. */
  entries: Record<string, SurfaceEntry>;
  /** Each command (package.json's `bin`) with its flags: `--port` → `string`, `--only` → `string, repeatable`. */
  commands: Record<string, Record<string, string>>;
  engines: Record<string, string>;
  peerDependencies: Record<string, { range: string; optional: boolean }>;
}

/** The flags of every command the package ships, by its name in `bin`: a command missing here fails the build. */
const COMMAND_FLAGS: Record<string, Record<string, { type: string; multiple?: boolean }>> = {
  "svc-health-mock": MOCK_COMMAND_FLAGS,
  "svc-health-verify": VERIFY_COMMAND_FLAGS,
};

interface Manifest {
  exports: Record<string, unknown>;
  /** Each subpath's declarations for TypeScript's node10 resolution, which reads no `exports`. */
  typesVersions?: Record<string, Record<string, string[]>>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Whitespace collapsed and comments left out: a reworded doc comment changes nothing a user's code meets. */
const collapse = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** `{import: {types, default}}` → `["import.default", "import.types"]`; a plain string target is the `default` condition. */
function conditions(target: unknown, prefix = ""): string[] {
  if (typeof target === "string") return [prefix || "default"];
  if (target === null || typeof target !== "object") return [];
  return Object.entries(target as Record<string, unknown>).flatMap(([name, inner]) => conditions(inner, prefix ? `${prefix}.${name}` : name));
}

/** The declarations file of an entry for ESM importers (`import.types`, else `types`), relative to the package. */
function typesOf(target: unknown): string | undefined {
  if (target === null || typeof target !== "object") return undefined;
  const record = target as Record<string, unknown>;
  if (typeof record.types === "string") return record.types;
  return typesOf(record.import);
}

/** A TypeScript program over the declarations as just rendered (`rendered`, by name under generated/), the rest from disk. */
function program(roots: string[], rendered: Record<string, string>): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const renderedAt = (file: string) => {
    const relative = path.relative(generatedDir, file);
    return relative.startsWith("..") ? undefined : rendered[relative.split(path.sep).join("/")];
  };
  const { getSourceFile, fileExists, readFile: read } = host;
  host.fileExists = (file) => renderedAt(file) !== undefined || fileExists.call(host, file);
  host.readFile = (file) => renderedAt(file) ?? read.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = renderedAt(file);
    return text !== undefined ? ts.createSourceFile(file, text, language, true) : getSourceFile.call(host, file, language, ...rest);
  };
  return ts.createProgram(roots, options, host);
}

/** A node's text as the snapshot keeps it (comments out, whitespace collapsed). */
const text = (node: ts.Node) => collapse(node.getText());
/** A declaration's text without its `export declare`: the same declaration re-exported elsewhere reads the same. */
const declared = (node: ts.Node) => text(node).replace(/^export (declare )?/, "");

function memberName(member: ts.Node): string {
  const name = (member as { name?: ts.PropertyName }).name;
  return name ? name.getText() : text(member);
}

/** `<T extends X, C>`, or nothing. */
const typeParameters = (node: { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }) =>
  node.typeParameters ? `<${node.typeParameters.map(text).join(", ")}>` : "";

const fromContract = (declaration: ts.Declaration) => path.basename(declaration.getSourceFile().fileName).startsWith("schema.d.");

const isPrivate = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
const isStatic = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);

/** Members by name (a nameless one, a call or index signature, by its text), private ones left out, overloads joined. */
function members(nodes: readonly ts.Node[], key: (name: string) => string = (name) => name): Record<string, string> {
  const found: Record<string, string> = {};
  for (const node of nodes.filter((member) => !isPrivate(member))) {
    const name = key(memberName(node));
    found[name] = found[name] === undefined ? text(node) : `${found[name]} ${text(node)}`;
  }
  return found;
}

/**
 * Every property of an interface or class, inherited ones included (an option of a base interface is an option too):
 * its text, or its value when its type is one (`as const` data); a message's words left out.
 */
function allMembers(checker: ts.TypeChecker, symbol: ts.Symbol): { members: Record<string, string>; data: Record<string, DataValue> } {
  const found = { members: {} as Record<string, string>, data: {} as Record<string, DataValue> };
  for (const property of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
    const declarations = property.declarations ?? [];
    if (declarations.length === 0 || declarations.some(isPrivate)) continue;
    const carried = declarations.length === 1 ? memberData(property.name, declarations[0]!) : undefined;
    if (carried === "message") continue;
    if (carried) found.data[property.name] = carried.data;
    // Every overload of a method, not the first alone: an overload removed is a call that no longer compiles.
    else found.members[property.name] = declarations.map(text).join(" ");
  }
  return found;
}

/** An interface's or a class's members and the data it carries, where it carries any. */
function withMembers(described: SurfaceExport, unnamed: Record<string, string>, all: ReturnType<typeof allMembers>, statics: Record<string, string> = {}) {
  const members = { ...unnamed, ...all.members, ...statics };
  return Object.keys(all.data).length > 0 ? { ...described, members, data: all.data } : { ...described, members };
}

/**
 * One name as declared. A name with declarations of two kinds (a `const` and a `type` of the same name) is described by
 * its first, with the others' text added: each is part of what the name gives.
 */
function describe(checker: ts.TypeChecker, symbol: ts.Symbol): SurfaceExport {
  const described = describeFirst(checker, symbol);
  const first = symbol.declarations![0]!;
  const others = symbol.declarations!.slice(1).filter((d) => d.kind !== first.kind);
  if (others.length === 0) return described;
  const union = others.find(ts.isTypeAliasDeclaration)?.type;
  return {
    ...described,
    text: [...(described.text ?? []), ...others.map(declared)],
    ...(described.union === undefined && union !== undefined && ts.isUnionTypeNode(union) ? { union: union.types.map(text).sort() } : {}),
  };
}

function describeFirst(checker: ts.TypeChecker, symbol: ts.Symbol): SurfaceExport {
  const declarations = symbol.declarations!;
  const first = declarations[0]!;
  if (ts.isInterfaceDeclaration(first)) {
    const heritage = declarations.flatMap((d) => (ts.isInterfaceDeclaration(d) ? (d.heritageClauses ?? []).map(text) : []));
    return withMembers(
      { kind: "interface", text: [`interface ${first.name.text}${typeParameters(first)}${heritage.length ? ` ${heritage.join(" ")}` : ""}`] },
      // Call and index signatures have no name: they are listed by their text.
      members(declarations.filter(ts.isInterfaceDeclaration).flatMap((d) => d.members.filter((m) => !m.name))),
      allMembers(checker, symbol),
    );
  }
  if (ts.isClassDeclaration(first)) {
    const whole = first.getText();
    const head = collapse(whole.slice(0, first.members.pos - first.getStart()).replace(/\{\s*$/, ""));
    return withMembers(
      { kind: "class", text: [head.replace(/^export (declare )?/, "")] },
      members(first.members.filter((m) => !m.name || ts.isConstructorDeclaration(m))),
      allMembers(checker, symbol),
      // Statics are the constructor's, not the instance's: listed apart, each overload's text joined.
      members(first.members.filter(isStatic), (name) => `static ${name}`),
    );
  }
  if (ts.isTypeAliasDeclaration(first)) {
    const alias = [`type ${first.name.text}${typeParameters(first)} = ${text(first.type)}`];
    if (ts.isUnionTypeNode(first.type)) return { kind: "type", text: alias, union: first.type.types.map(text).sort() };
    return { kind: "type", text: alias };
  }
  if (ts.isFunctionDeclaration(first)) return { kind: "function", text: declarations.map(declared) };
  if (ts.isVariableDeclaration(first)) {
    const data = constData(first);
    return data === undefined ? { kind: "const", text: [text(first)] } : { kind: "const", data };
  }
  if (ts.isEnumDeclaration(first)) return { kind: "enum", text: [first.name.text], members: members(first.members) };
  return { kind: "namespace", text: [text(first).slice(0, 200)] };
}

/** The type declarations of the package's own files (not the contract's, not a dependency's) that `nodes` name. */
function namedTypes(checker: ts.TypeChecker, nodes: ts.Node[]): ts.Symbol[] {
  const found = new Set<ts.Symbol>();
  const visit = (node: ts.Node) => {
    const name = ts.isTypeReferenceNode(node)
      ? node.typeName
      : ts.isExpressionWithTypeArguments(node)
        ? node.expression
        : ts.isTypeQueryNode(node)
          ? node.exprName
          : undefined;
    if (name !== undefined) {
      let symbol = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declaration = symbol?.declarations?.[0];
      const file = declaration?.getSourceFile().fileName;
      const types = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class;
      if (symbol && declaration && file?.startsWith(generatedDir) && !fromContract(declaration) && symbol.flags & types) found.add(symbol);
    }
    ts.forEachChild(node, visit);
  };
  for (const node of nodes) visit(node);
  return [...found];
}

/** The exported names of one declarations file, each described as declared (a re-export followed to its source). */
function entryExports(checker: ts.TypeChecker, source: ts.SourceFile): SurfaceEntry {
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`surface: ${source.fileName} is not a module`);
  const found: SurfaceEntry = { declared: {}, contractTypes: [], referenced: {} };
  const exportedSymbols = new Set<ts.Symbol>();
  for (const exported of checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name))) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.declarations ?? [];
    if (declarations.length === 0) throw new Error(`surface: ${exported.name} of ${source.fileName} has no declaration`);
    exportedSymbols.add(symbol);
    if (fromContract(declarations[0]!)) found.contractTypes.push(exported.name);
    else found.declared[exported.name] = describe(checker, symbol);
  }
  // What the exported declarations name, and what those name, until nothing new is named.
  const seen = new Set<ts.Symbol>(exportedSymbols);
  let frontier = [...exportedSymbols].filter((symbol) => !fromContract(symbol.declarations![0]!));
  while (frontier.length > 0) {
    const next = namedTypes(
      checker,
      frontier.flatMap((symbol) => symbol.declarations ?? []),
    ).filter((symbol) => !seen.has(symbol));
    for (const symbol of next) {
      seen.add(symbol);
      const key =
        found.referenced[symbol.name] === undefined ? symbol.name : `${symbol.name} (${path.basename(symbol.declarations![0]!.getSourceFile().fileName)})`;
      found.referenced[key] = describe(checker, symbol);
    }
    frontier = next;
  }
  found.referenced = Object.fromEntries(Object.entries(found.referenced).sort(([a], [b]) => a.localeCompare(b)));
  return found;
}

/** The surface of the package as package.json and the declarations rendered now describe it. */
export async function renderSurface(rendered: Record<string, string>, manifestText?: string): Promise<Record<string, string>> {
  const manifest = JSON.parse(manifestText ?? (await readFile(path.join(repoRoot, "package.json"), "utf8"))) as Manifest;
  // A subpath that typesVersions maps has, for the review, one condition more: node10's, whose removal fails a
  // TypeScript project still on that resolution as a removed condition fails a tool that reads it.
  const node10 = Object.values(manifest.typesVersions ?? {})[0] ?? {};
  const exportsMap = Object.fromEntries(
    Object.entries(manifest.exports).map(([subpath, target]) => [
      subpath,
      [...conditions(target), ...(node10[subpath.replace(/^\.\/?/, "")] ? ["typesVersions (node10)"] : [])].sort(),
    ]),
  );
  const typed = Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    const types = typesOf(target);
    return types ? [[subpath, path.join(repoRoot, types)] as const] : [];
  });
  const built = program(
    typed.map(([, file]) => file),
    rendered,
  );
  const checker = built.getTypeChecker();
  const entries = Object.fromEntries(
    typed.map(([subpath, file]) => {
      const source = built.getSourceFile(file);
      if (!source) throw new Error(`surface: the ${subpath} entry's declarations ${path.relative(repoRoot, file)} were not made`);
      return [subpath, entryExports(checker, source)];
    }),
  );
  const commands = Object.fromEntries(
    Object.keys(manifest.bin ?? {})
      .sort()
      .map((name) => {
        const flags = COMMAND_FLAGS[name];
        if (!flags) throw new Error(`surface: the command ${name} (package.json's bin) has no flag table in scripts/build/surface.ts`);
        return [name, Object.fromEntries(Object.entries(flags).map(([flag, { type, multiple }]) => [`--${flag}`, multiple ? `${type}, repeatable` : type]))];
      }),
  );
  const peers = Object.fromEntries(
    Object.entries(manifest.peerDependencies ?? {}).map(([name, range]) => [
      name,
      { range, optional: manifest.peerDependenciesMeta?.[name]?.optional === true },
    ]),
  );
  const surface: Surface = { exports: exportsMap, entries, commands, engines: manifest.engines ?? {}, peerDependencies: peers };
  return { "surface.json": `${JSON.stringify(surface, null, 2)}\n` };
}
