// The values at the edges of a schema, from its keywords alone: each limit it states (minimum and maximum, shortest and
// longest, fewest and most items) with the value just past it, every value of a closed enumeration and one it does
// not list, the listed values of a non-exhaustive one, null where it is nullable, both booleans. Whether each really
// is valid is the validator's to say: the coverage pass sends only what it confirms.
import { isObject, type JsonObject } from "../../contract/json.ts";
import { deref } from "../../contract/operations.ts";
import { openEnumValues } from "../../contract/open-enums.ts";

export interface Boundary {
  value: unknown;
  /** What the value is, for the check's name: `its maximum`, `one past its maximum`, `null`. */
  label: string;
  /** What the schema says of it: on its valid side or just past. */
  valid: boolean;
}

/** Listed values of a non-exhaustive enumeration sent, at most: each is only a value, and there may be dozens. */
const OPEN_VALUES = 3;
/** A string made longer than this to reach a limit is not worth the bytes (a 10,000-character limit is not a boundary a server gets wrong differently). */
const LONGEST_MADE = 5_000;

/** A schema's branches that are not `null`, and whether one is: `type: [string, null]` and `anyOf: [..., {type: null}]` alike. */
function nullable(document: JsonObject, schema: JsonObject): { nullable: boolean; schema: JsonObject } {
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((type) => type !== "null");
    return { nullable: true, schema: { ...schema, type: types.length === 1 ? types[0] : types } };
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const isNull = (branch: unknown) => isObject(deref(document, branch)) && (deref(document, branch) as JsonObject).type === "null";
    if (!branches.some(isNull)) continue;
    const rest = branches.filter((branch) => !isNull(branch));
    return { nullable: true, schema: rest.length === 1 ? (deref(document, rest[0]) as JsonObject) : { ...schema, [key]: rest } };
  }
  return { nullable: false, schema };
}

/** A string of `length` characters shaped like the given one where it can be (its first character repeated), else `x`s. */
function stringOf(length: number, like: unknown): string {
  const unit = typeof like === "string" && like.length > 0 ? like[0]! : "x";
  return unit.repeat(length);
}

/** `base` is the value the valid call sends, if any: arrays are filled with its items, strings with its first letter. */
export function boundaryValues(document: JsonObject, raw: unknown, base: unknown): Boundary[] {
  const resolved = deref(document, raw);
  if (!isObject(resolved)) return [];
  const { nullable: takesNull, schema } = nullable(document, resolved);
  const found: Boundary[] = takesNull ? [{ value: null, label: "null", valid: true }] : [];
  const listed = openEnumValues(schema);
  if (listed !== undefined) return [...found, ...listed.slice(0, OPEN_VALUES).map((value) => ({ value, label: "a listed value", valid: true }))];
  if (Array.isArray(schema.enum)) {
    found.push(...schema.enum.map((value) => ({ value, label: "a listed value", valid: true })));
    const numbers = schema.enum.filter((item): item is number => typeof item === "number");
    found.push({ value: numbers.length > 0 ? Math.max(...numbers) + 1 : "not_a_listed_value", label: "a value it does not list", valid: false });
    return found;
  }
  const type = schema.type;
  if (type === "integer" || type === "number") {
    if (typeof schema.minimum === "number")
      found.push({ value: schema.minimum, label: "its minimum", valid: true }, { value: schema.minimum - 1, label: "one below its minimum", valid: false });
    if (typeof schema.maximum === "number")
      found.push({ value: schema.maximum, label: "its maximum", valid: true }, { value: schema.maximum + 1, label: "one above its maximum", valid: false });
  } else if (type === "boolean") {
    found.push({ value: true, label: "true", valid: true }, { value: false, label: "false", valid: true });
  } else if (type === "string" && schema.format === undefined && schema.pattern === undefined) {
    const { minLength, maxLength } = schema;
    if (typeof minLength === "number" && minLength > 0)
      found.push(
        { value: stringOf(minLength, base), label: "its shortest", valid: true },
        { value: stringOf(minLength - 1, base), label: "one shorter than its shortest", valid: false },
      );
    if (typeof maxLength === "number" && maxLength < LONGEST_MADE)
      found.push(
        { value: stringOf(maxLength, base), label: "its longest", valid: true },
        { value: stringOf(maxLength + 1, base), label: "one longer than its longest", valid: false },
      );
  } else if (type === "array") {
    const item = Array.isArray(base) && base.length > 0 ? base[0] : undefined;
    const fill = (count: number) => Array.from({ length: count }, () => structuredClone(item));
    const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
    if (minItems === 0) found.push({ value: [], label: "empty", valid: true });
    else {
      if (item !== undefined) found.push({ value: fill(minItems), label: "its fewest items", valid: true });
      found.push({ value: item === undefined ? [] : fill(minItems - 1), label: "one item fewer than its fewest", valid: false });
    }
    if (typeof schema.maxItems === "number" && item !== undefined && schema.maxItems <= 100) {
      found.push(
        { value: fill(schema.maxItems), label: "its most items", valid: true },
        { value: fill(schema.maxItems + 1), label: "one item more than its most", valid: false },
      );
    }
  }
  return found;
}

/** A value to send for an optional input the valid call leaves out: its example, its default, its first listed value, or a boundary. */
export function someValue(document: JsonObject, raw: unknown): unknown {
  const resolved = deref(document, raw);
  if (!isObject(resolved)) return undefined;
  if (resolved.example !== undefined) return resolved.example;
  if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return resolved.examples[0];
  if (resolved.default !== undefined) return resolved.default;
  return boundaryValues(document, resolved, undefined).find((boundary) => boundary.valid && boundary.value !== null)?.value;
}
