// The data a declaration of the package's surface carries, as the JSON value its type spells: what `as const` writes
// (knownValues, eventKinds, an operation table's routes, statuses and credentials), for surface.ts to record by value
// and the review to compare by value (rule 17 of openapi/breaking-changes.md).
import type TS from "typescript";
import { ts } from "./lib/typescript-on-demand.ts";

/** A value as `as const` spells it in a declaration: a literal, a readonly tuple, an object of readonly properties. */
export type DataValue = string | number | boolean | null | DataValue[] | { [key: string]: DataValue };

/**
 * Literal members that hold a message's words, not data a caller's code reads: an operation table's `unknown` was the
 * tail of the error an unknown route is told (the tables have lost it: the words are the lazily loaded hint's now, which
 * no entry exports). Left out of the surface, so that a base revision's surface.json that still has it compares clean.
 */
const MESSAGE_TEXT = new Set(["unknown"]);

const isReadonly = (node: TS.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword);

function propertyKey(name: TS.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

function literalOf(literal: TS.LiteralTypeNode["literal"]): DataValue | undefined {
  if (ts.isStringLiteral(literal)) return literal.text;
  if (ts.isNumericLiteral(literal)) return Number(literal.text);
  if (ts.isPrefixUnaryExpression(literal) && literal.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(literal.operand))
    return -Number(literal.operand.text);
  if (literal.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (literal.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (literal.kind === ts.SyntaxKind.NullKeyword) return null;
  return undefined;
}

/** The value a type spells, or undefined when it is a type and not a value (anything `as const` does not write). */
export function literalValue(type: TS.TypeNode): DataValue | undefined {
  if (ts.isLiteralTypeNode(type)) return literalOf(type.literal);
  if (ts.isTypeOperatorNode(type) && type.operator === ts.SyntaxKind.ReadonlyKeyword && ts.isTupleTypeNode(type.type)) {
    const values = type.type.elements.map(literalValue);
    return values.every((value) => value !== undefined) ? values : undefined;
  }
  if (ts.isTypeLiteralNode(type)) {
    const found: Record<string, DataValue> = {};
    for (const member of type.members) {
      const value = memberValue(member);
      const key = ts.isPropertySignature(member) ? propertyKey(member.name) : undefined;
      if (value === undefined || key === undefined) return undefined;
      found[key] = value;
    }
    return found;
  }
  return undefined;
}

/** A readonly, required property whose type is a value: its value. */
function memberValue(member: TS.Node): DataValue | undefined {
  if (!(ts.isPropertySignature(member) || ts.isPropertyDeclaration(member))) return undefined;
  if (!isReadonly(member) || member.questionToken || !member.type) return undefined;
  return literalValue(member.type);
}

/**
 * What a member of an interface or a class gives: data (its value), a message's words (left out), or a member to
 * compare as text.
 */
export function memberData(name: string, member: TS.Node): { data: DataValue } | "message" | undefined {
  const value = memberValue(member);
  if (value === undefined) return undefined;
  return typeof value === "string" && MESSAGE_TEXT.has(name) ? "message" : { data: value };
}

/** A `const` whose type is a value: its value. */
export function constData(declaration: TS.VariableDeclaration): DataValue | undefined {
  return declaration.type ? literalValue(declaration.type) : undefined;
}

/** The first statement of `source` parsed as a declarations file: how a snapshot's text is read back. */
export function parsed(source: string): TS.Statement | undefined {
  return ts.createSourceFile("surface.d.ts", source, ts.ScriptTarget.Latest, true).statements[0];
}
