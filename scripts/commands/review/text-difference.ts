// Says how two texts of one declaration of the package's surface differ, in at most 300 characters: the parameter, the
// member or the union member added or removed, a parameter made required, else the first differing part with its
// context; never both whole texts (a 5 KB type twice on one line helped no reader).
import type TS from "typescript";
import { ts } from "../../build/lib/typescript-on-demand.ts";
import { parsed } from "../../build/surface-data.ts";
import type { SurfaceExport } from "../../build/surface.ts";

/** The longest message a change of the surface gets. */
export const MESSAGE_LIMIT = 300;
/** Characters of a type or of context that a message quotes at the most. */
const QUOTED = 80;

export function clip(text: string, limit = MESSAGE_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

const code = (text: string) => `\`${clip(text, QUOTED)}\``;
const textOf = (node: TS.Node) => node.getText().replace(/\s+/g, " ");
const nameOf = (node: { name?: TS.Node }) => (node.name ? textOf(node.name) : "");

/** How the declaration texts of an export (one per overload) differ, in a sentence's worth of parts. */
export function declarationDifference(kind: SurfaceExport["kind"], was: string[], now: string[]): string {
  if (was.length !== now.length) return clip(overloadDifference(was, now));
  const parts = was.flatMap((text, index) => (text === now[index] ? [] : statementDifference(kind, text, now[index]!)));
  return clip(parts.join("; "));
}

/** How two texts of one member differ (a method's overloads are one text). */
export function memberDifference(was: string, now: string): string {
  const before = members(was);
  const after = members(now);
  if (!before || !after) return clip(textDifference(was, now));
  if (before.length !== after.length) return clip(overloadDifference(before.map(textOf), after.map(textOf)));
  const parts = before.flatMap((member, index) => memberNodeDifference(member, after[index]!));
  return clip(parts.length > 0 ? parts.join("; ") : textDifference(was, now));
}

function overloadDifference(was: string[], now: string[]): string {
  const removed = was.filter((text) => !now.includes(text)).map((text) => `overload ${code(text)} removed`);
  const added = now.filter((text) => !was.includes(text)).map((text) => `overload ${code(text)} added`);
  return [...removed, ...added].join("; ");
}

/** A snapshot's text read back as the declaration it was cut from. */
function declaration(kind: SurfaceExport["kind"], text: string): TS.Statement | undefined {
  if (kind === "function") return parsed(`declare ${text}`);
  if (kind === "type") return parsed(`${text};`);
  if (kind === "interface") return parsed(`${text} {}`);
  if (kind === "class") return parsed(`declare ${text} {}`);
  if (kind === "const") return parsed(`declare const ${text};`);
  return undefined;
}

/** A member's text read back as the members it holds (each overload one); a static or constructor as a class's. */
function members(text: string): readonly TS.Node[] | undefined {
  const classMember = /^(static |constructor\b|protected |abstract )/.test(text);
  const statement = parsed(classMember ? `declare class _ { ${text} }` : `interface _ { ${text} }`);
  if (statement && (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement))) return statement.members;
  return undefined;
}

function statementDifference(kind: SurfaceExport["kind"], was: string, now: string): string[] {
  const before = declaration(kind, was);
  const after = declaration(kind, now);
  let parts: string[] = [];
  if (before && after && ts.isFunctionDeclaration(before) && ts.isFunctionDeclaration(after)) parts = signatureDifference(before, after);
  else if (before && after && ts.isTypeAliasDeclaration(before) && ts.isTypeAliasDeclaration(after))
    parts = [...typeParameterDifference(before, after), ...typeDifference(before.type, after.type)];
  else if (before && after && (ts.isInterfaceDeclaration(before) || ts.isClassDeclaration(before)) && before.kind === after.kind) {
    const same = after as typeof before;
    parts = [...typeParameterDifference(before, same), ...heritageDifference(before, same)];
  } else if (before && after && ts.isVariableStatement(before) && ts.isVariableStatement(after))
    parts = typeDifference(before.declarationList.declarations[0]?.type, after.declarationList.declarations[0]?.type);
  return parts.length > 0 ? parts : [textDifference(was, now)];
}

function typeParameterDifference(
  was: { typeParameters?: TS.NodeArray<TS.TypeParameterDeclaration> },
  now: { typeParameters?: TS.NodeArray<TS.TypeParameterDeclaration> },
): string[] {
  const list = (node: typeof was) => (node.typeParameters ? `<${node.typeParameters.map(textOf).join(", ")}>` : "none");
  return list(was) === list(now) ? [] : [`type parameters ${code(list(was))} -> ${code(list(now))}`];
}

function heritageDifference(was: TS.InterfaceDeclaration | TS.ClassDeclaration, now: TS.InterfaceDeclaration | TS.ClassDeclaration): string[] {
  const heritage = (node: typeof was) => (node.heritageClauses ?? []).flatMap((clause) => clause.types.map(textOf));
  const [before, after] = [heritage(was), heritage(now)];
  return [
    ...before.filter((type) => !after.includes(type)).map((type) => `no longer extends ${code(type)}`),
    ...after.filter((type) => !before.includes(type)).map((type) => `extends ${code(type)} now`),
  ];
}

const isOptional = (parameter: TS.ParameterDeclaration) => parameter.questionToken !== undefined || parameter.initializer !== undefined;

/** A function's, a method's or a call signature's parameters by name, then its type parameters and return type. */
function signatureDifference(was: TS.SignatureDeclarationBase, now: TS.SignatureDeclarationBase): string[] {
  const parts = typeParameterDifference(was, now);
  const before = new Map(was.parameters.map((parameter) => [nameOf(parameter), parameter]));
  const after = new Map(now.parameters.map((parameter) => [nameOf(parameter), parameter]));
  for (const [name] of before) if (!after.has(name)) parts.push(`parameter ${name} removed`);
  for (const [name, parameter] of after) if (!before.has(name)) parts.push(`parameter ${name} added${isOptional(parameter) ? " (optional)" : ""}`);
  for (const [name, parameter] of after) {
    const previous = before.get(name);
    if (!previous) continue;
    if (isOptional(previous) && !isOptional(parameter)) parts.push(`parameter ${name} became required`);
    if (!isOptional(previous) && isOptional(parameter)) parts.push(`parameter ${name} became optional`);
    if (!previous.dotDotDotToken !== !parameter.dotDotDotToken)
      parts.push(`parameter ${name} ${parameter.dotDotDotToken ? "became" : "is no longer"} a rest parameter`);
    parts.push(...typeDifference(previous.type, parameter.type).map((part) => `parameter ${name}: ${part}`));
  }
  const common = (order: Map<string, unknown>, other: Map<string, unknown>) => [...order.keys()].filter((name) => other.has(name)).join(", ");
  if (common(before, after) !== common(after, before)) parts.push(`parameters reordered: (${common(before, after)}) -> (${common(after, before)})`);
  parts.push(...typeDifference(was.type, now.type).map((part) => `returns: ${part}`));
  return parts;
}

/** A property's optional and readonly marks and its type; a method's signature. */
function memberNodeDifference(was: TS.Node, now: TS.Node): string[] {
  const bothSignatures =
    (ts.isMethodSignature(was) ||
      ts.isMethodDeclaration(was) ||
      ts.isCallSignatureDeclaration(was) ||
      ts.isConstructSignatureDeclaration(was) ||
      ts.isConstructorDeclaration(was)) &&
    was.kind === now.kind;
  if (bothSignatures) return signatureDifference(was as TS.SignatureDeclarationBase, now as TS.SignatureDeclarationBase);
  const property = (node: TS.Node) => (ts.isPropertySignature(node) || ts.isPropertyDeclaration(node) ? node : undefined);
  const [before, after] = [property(was), property(now)];
  if (!before || !after) return textOf(was) === textOf(now) ? [] : [textDifference(textOf(was), textOf(now))];
  const readonly = (node: TS.PropertySignature | TS.PropertyDeclaration) =>
    (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ReadonlyKeyword);
  const parts: string[] = [];
  if (!before.questionToken && after.questionToken) parts.push("became optional");
  if (before.questionToken && !after.questionToken) parts.push("became required");
  if (readonly(before) !== readonly(after)) parts.push(readonly(after) ? "became readonly" : "is no longer readonly");
  return [...parts, ...typeDifference(before.type, after.type)];
}

/** Each member of a type literal by its name (a nameless one, a call or index signature, by its text). */
const typeMembers = (node: TS.TypeLiteralNode) => new Map(node.members.map((member) => [nameOf(member) || textOf(member), member]));

/** How two types differ: a union's members as a set, an object type's members by name, a function's signature. */
function typeDifference(was: TS.TypeNode | undefined, now: TS.TypeNode | undefined): string[] {
  if (!was || !now) return was === now ? [] : [`type ${code(was ? textOf(was) : "none")} -> ${code(now ? textOf(now) : "none")}`];
  if (textOf(was) === textOf(now)) return [];
  if (ts.isUnionTypeNode(was) || ts.isUnionTypeNode(now)) {
    const union = (node: TS.TypeNode) => (ts.isUnionTypeNode(node) ? node.types.map(textOf) : [textOf(node)]);
    const [before, after] = [union(was), union(now)];
    const removed = before.filter((member) => !after.includes(member));
    const added = after.filter((member) => !before.includes(member));
    return [...(removed.length ? [`no longer allows ${code(removed.join(" | "))}`] : []), ...(added.length ? [`also allows ${code(added.join(" | "))}`] : [])];
  }
  if (ts.isTypeLiteralNode(was) && ts.isTypeLiteralNode(now)) {
    const [before, after] = [typeMembers(was), typeMembers(now)];
    return [
      ...[...before.keys()].filter((name) => !after.has(name)).map((name) => `member ${name} removed`),
      ...[...after.keys()].filter((name) => !before.has(name)).map((name) => `member ${name} added`),
      ...[...after].flatMap(([name, member]) =>
        before.has(name) ? memberNodeDifference(before.get(name)!, member).map((part) => `member ${name}: ${part}`) : [],
      ),
    ];
  }
  if ((ts.isFunctionTypeNode(was) || ts.isConstructorTypeNode(was)) && was.kind === now.kind)
    return signatureDifference(was, now as TS.FunctionTypeNode | TS.ConstructorTypeNode);
  if (ts.isArrayTypeNode(was) && ts.isArrayTypeNode(now)) return typeDifference(was.elementType, now.elementType).map((part) => `items: ${part}`);
  return [textDifference(textOf(was), textOf(now))];
}

/**
 * The part of two texts that differs, widened to whole words, with the text before it for context: `after \`…(options?:
 * \`: \`MockOptions\` -> \`Settings\``.
 */
export function textDifference(was: string, now: string): string {
  let start = 0;
  while (start < was.length && start < now.length && was[start] === now[start]) start++;
  let end = 0;
  while (end < was.length - start && end < now.length - start && was[was.length - 1 - end] === now[now.length - 1 - end]) end++;
  while (start > 0 && /\w/.test(was[start - 1]!)) start--;
  while (end > 0 && /\w/.test(was[was.length - end]!)) end--;
  const removed = was.slice(start, was.length - end);
  const added = now.slice(start, now.length - end);
  // What precedes it, from a word's start: enough to find the place.
  const before = start > QUOTED / 2 ? `…${was.slice(start - QUOTED / 2, start).replace(/^\S*\s/, "")}` : was.slice(0, start);
  const context = start > 0 ? `after \`${before}\`: ` : "";
  if (removed === "") return `${context}${code(added)} inserted`;
  if (added === "") return `${context}${code(removed)} taken out`;
  return `${context}${code(removed)} -> ${code(added)}`;
}
