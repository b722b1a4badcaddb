// Compares a schema of a base bundle with the same schema of the head bundle, and rates each difference for the side that
// sends the value (a request) or the side that reads it (a response or a webhook payload), per openapi/breaking-changes.md.
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { decodePointer, encodePointer } from "./source-map.ts";

export type ChangeKind = "breaking" | "additive" | "deprecated";
/** Who receives the value the schema describes: the service (a request) or the client (a response, a webhook payload). */
export type Direction = "request" | "response";

export interface SchemaChange {
  /** The field, relative to where the comparison started: `["filter_on_providers", "[]"]`. */
  field: string[];
  rule: string;
  kind: ChangeKind;
  message: string;
  /** The pointer that locates it: in the head bundle, or in the base bundle when the head has no such place. */
  pointer: string;
  side: "head" | "base";
}

interface Bundles {
  base: JsonObject;
  head: JsonObject;
}

interface Located {
  node: unknown;
  pointer: string;
}

/**
 * A schema as a value space: references followed (with the keywords beside them), `allOf` parts merged, null branches
 * read as nullability, and the open form of a non-exhaustive enumeration read as a string with listed values.
 */
interface SchemaView {
  /** The keywords that apply, merged from siblings of a `$ref` and `allOf` parts. */
  schema: JsonObject;
  /** Where a change to it is reported. */
  pointer: string;
  /** Names the schema for the cache and for recursion: the same identity is the same value space. */
  identity: string;
  /** Null when the schema allows any type. */
  types: Set<string> | null;
  values: unknown[] | null;
  valuesPointer: string;
  open: boolean;
  properties: Map<string, Located>;
  required: Set<string>;
  items: Located | undefined;
  additional: Located | undefined;
  /** anyOf/oneOf alternatives other than null, when more than one remains. */
  alternatives: (Located & { label: string })[];
  /** No keyword that constrains the value: anything goes. */
  empty: boolean;
}

/** Keywords that say something about a schema without constraining its values. */
const ANNOTATIONS = new Set([
  "title",
  "description",
  "examples",
  "example",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "externalDocs",
  "xml",
  "discriminator",
]);

/** A difference that lets the value be more things (widens) or fewer things (narrows), rated for each direction. */
const WIDENS: Record<Direction, ChangeKind> = { request: "additive", response: "breaking" };
const NARROWS: Record<Direction, ChangeKind> = { request: "breaking", response: "additive" };

/** Follows local references from a node, keeping the pointer of where it ends, so a change can be located there. */
export function followRefs(document: JsonObject, node: unknown, pointer: string): { node: JsonObject; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string" && current.$ref.startsWith("#/") && hops < 32; hops++) {
    at = current.$ref.slice(1);
    current = decodePointer(current.$ref).reduce<unknown>((parent, key) => (isObject(parent) ? parent[key] : undefined), document);
  }
  return { node: isObject(current) ? current : {}, pointer: at };
}

function isNullSchema(node: unknown): boolean {
  if (!isObject(node)) return false;
  if (node.type === "null" || (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === "null")) return true;
  return ("const" in node && node.const === null) || (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** `anyOf: [{type: string, enum: [...]}, {type: string}]`: the shape of an open enumeration, marked or not. */
function listedBranch(branches: unknown[]): number {
  const plain = branches.findIndex((branch) => isObject(branch) && branch.type === "string" && !Array.isArray(branch.enum));
  const listed = branches.findIndex((branch) => isObject(branch) && Array.isArray(branch.enum));
  return plain >= 0 && listed >= 0 && branches.filter((branch) => !isNullSchema(branch)).length === 2 ? listed : -1;
}

function typesOf(schema: JsonObject, values: unknown[] | null, hasProperties: boolean): Set<string> | null {
  if (typeof schema.type === "string") return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if (values !== null) return new Set(values.map(typeOf));
  if (hasProperties) return new Set(["object"]);
  if (isObject(schema.items)) return new Set(["array"]);
  return null;
}

const MAX_DEPTH = 12;

function view(document: JsonObject, node: unknown, pointer: string, depth = 0): SchemaView {
  const followed = followRefs(document, node, pointer);
  // OpenAPI 3.1 lets keywords stand beside a `$ref` (`deprecated`, `x-svc-closed-beta`, a description): they apply here.
  const siblings = isObject(node) && typeof node.$ref === "string" ? Object.entries(node).filter(([key]) => key !== "$ref") : [];
  const own = siblings.length > 0 ? { ...followed.node, ...Object.fromEntries(siblings) } : followed.node;
  const at = siblings.length > 0 ? pointer : followed.pointer;
  let identity = siblings.length > 0 ? `${followed.pointer}+${JSON.stringify(siblings)}` : followed.pointer;

  // allOf parts are merged into one schema: the same value space written with or without allOf compares equal.
  const parts =
    Array.isArray(own.allOf) && depth < MAX_DEPTH ? (own.allOf as unknown[]).map((part, index) => view(document, part, `${at}/allOf/${index}`, depth + 1)) : [];
  const schema: JsonObject = Object.assign({}, ...parts.map((part) => part.schema), own);
  delete schema.allOf;
  if (parts.length > 0) identity = `${identity}&${parts.map((part) => part.identity).join("&")}`;

  const properties = new Map<string, Located>();
  for (const part of parts) for (const [name, property] of part.properties) properties.set(name, property);
  if (isObject(own.properties)) {
    for (const [name, property] of Object.entries(own.properties))
      properties.set(name, { node: property, pointer: `${at}/properties${encodePointer([name])}` });
  }
  const required = new Set<string>([
    ...parts.flatMap((part) => [...part.required]),
    ...(Array.isArray(own.required) ? own.required.filter((name): name is string => typeof name === "string") : []),
  ]);
  const items = isObject(own.items) ? { node: own.items, pointer: `${at}/items` } : parts.find((part) => part.items)?.items;
  const additional = isObject(own.additionalProperties)
    ? { node: own.additionalProperties, pointer: `${at}/additionalProperties` }
    : parts.find((part) => part.additional)?.additional;

  const keyword = Array.isArray(own.anyOf) ? "anyOf" : Array.isArray(own.oneOf) ? "oneOf" : undefined;
  const branches = keyword ? (own[keyword] as unknown[]) : [];
  const nullable = branches.some(isNullSchema);
  const rest = branches.map((branch, index) => ({ branch, index })).filter(({ branch }) => !isNullSchema(branch));
  const base = { schema, pointer: at, identity, properties, required, items, additional, alternatives: [] as SchemaView["alternatives"] };
  const withNull = (types: Set<string> | null) => (types && nullable ? new Set([...types, "null"]) : types);

  const listed = keyword ? listedBranch(branches) : -1;
  if (listed >= 0) {
    const values = ((branches[listed] as JsonObject).enum as unknown[]).filter((value) => value !== null);
    return {
      ...base,
      types: withNull(new Set(["string"])),
      values,
      valuesPointer: `${at}/${keyword}/${listed}/enum`,
      open: own["x-svc-non-exhaustive"] === true,
      empty: false,
    };
  }
  if (keyword && rest.length === 1 && depth < MAX_DEPTH) {
    // `anyOf: [X, {type: 'null'}]`: X, or null; the keywords around the anyOf still apply.
    const inner = view(document, rest[0]!.branch, `${at}/${keyword}/${rest[0]!.index}`, depth + 1);
    const innerSchema = { ...inner.schema, ...Object.fromEntries(Object.entries(own).filter(([key]) => key !== keyword && key !== "allOf")) };
    return { ...inner, schema: innerSchema, identity: `${identity}|${inner.identity}`, types: withNull(inner.types) };
  }

  let values: unknown[] | null = null;
  let valuesPointer = at;
  if ("const" in own) values = [own.const];
  else if (Array.isArray(own.enum)) {
    values = own.enum as unknown[];
    valuesPointer = `${at}/enum`;
  }
  let types = typesOf(schema, values, properties.size > 0 || required.size > 0);
  for (const part of parts) {
    if (part.types === null) continue;
    types =
      types === null ? new Set(part.types) : new Set([...types].filter((type) => part.types!.has(type) || (type === "integer" && part.types!.has("number"))));
  }
  const open = parts.some((part) => part.open) && own["x-svc-non-exhaustive"] !== false;
  if (values === null) {
    const fromPart = parts.find((part) => part.values !== null);
    if (fromPart) {
      values = fromPart.values;
      valuesPointer = fromPart.valuesPointer;
    }
  }
  const alternatives: SchemaView["alternatives"] = [];
  if (keyword && rest.length > 1) {
    for (const { branch, index } of rest) {
      const label =
        isObject(branch) && typeof branch.$ref === "string"
          ? branch.$ref
          : isObject(branch) && typeof branch.title === "string"
            ? `title:${branch.title}`
            : `#${index}`;
      alternatives.push({ node: branch, pointer: `${at}/${keyword}/${index}`, label });
    }
    if (types === null && depth < MAX_DEPTH) {
      const each = alternatives.map((alternative) => view(document, alternative.node, alternative.pointer, depth + 1).types);
      types = each.some((set) => set === null) ? null : new Set(each.flatMap((set) => [...set!]));
    }
    types = withNull(types);
  } else if (nullable) {
    types = types === null ? new Set(["null"]) : withNull(types);
  }
  const empty = Object.keys(schema).every((key) => ANNOTATIONS.has(key) || key.startsWith("x-")) && parts.every((part) => part.empty);
  return { ...base, types, values, valuesPointer, open, alternatives, empty };
}

/** Types of `a` that `b` does not allow; an integer is a number. */
function typesMissing(a: Set<string> | null, b: Set<string> | null): string[] {
  if (b === null) return [];
  if (a === null) return ["any type"];
  return [...a].filter((type) => !b.has(type) && !(type === "integer" && b.has("number")));
}

const show = (value: unknown) => JSON.stringify(value);

/** Numeric bounds: raising a lower bound or lowering an upper bound narrows; a bound added narrows, removed widens. */
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;

export class SchemaDiff {
  private readonly memo = new Map<string, SchemaChange[]>();

  constructor(private readonly bundles: Bundles) {}

  /** Every difference between two schemas, rated for the direction the value travels. */
  compare(baseNode: unknown, basePointer: string, headNode: unknown, headPointer: string, direction: Direction): SchemaChange[] {
    return this.compareAt(baseNode, basePointer, headNode, headPointer, direction, new Set());
  }

  /** How many times a recursion was cut short: a result computed across a cut is not cached, being incomplete. */
  private cuts = 0;

  private compareAt(baseNode: unknown, basePointer: string, headNode: unknown, headPointer: string, direction: Direction, stack: Set<string>): SchemaChange[] {
    const base = view(this.bundles.base, baseNode, basePointer);
    const head = view(this.bundles.head, headNode, headPointer);
    const key = `${direction}|${base.identity}|${head.identity}`;
    const known = this.memo.get(key);
    if (known) return known;
    // A schema that contains itself: its difference is reported where the recursion started.
    if (stack.has(key)) {
      this.cuts++;
      return [];
    }
    const cutsBefore = this.cuts;
    stack.add(key);
    const changes = this.differences(base, head, direction, stack);
    stack.delete(key);
    if (this.cuts === cutsBefore) this.memo.set(key, changes);
    return changes;
  }

  private differences(base: SchemaView, head: SchemaView, direction: Direction, stack: Set<string>): SchemaChange[] {
    const changes: SchemaChange[] = [];
    const here = (rule: string, kind: ChangeKind, message: string, pointer = head.pointer): void => {
      changes.push({ field: [], rule, kind, message, pointer, side: "head" });
    };
    if (head.schema.deprecated === true && base.schema.deprecated !== true) here("deprecated", "deprecated", "deprecated");
    // No schema any more (or none before): one change, not one per keyword that went.
    if (head.empty !== base.empty) {
      if (head.empty) here("schema-removed", WIDENS[direction], "no longer described: any value may appear");
      else here("schema-added", NARROWS[direction], "now described by a schema: values it does not allow are refused");
      return changes;
    }

    const lost = typesMissing(base.types, head.types);
    const gained = typesMissing(head.types, base.types);
    const lostNull = lost.includes("null");
    const gainedNull = gained.includes("null");
    const lostOther = lost.filter((type) => type !== "null");
    const gainedOther = gained.filter((type) => type !== "null");
    if (gainedNull) here(direction === "response" ? "response-made-nullable" : "request-accepts-null", WIDENS[direction], "may now be null");
    if (lostNull) here(direction === "request" ? "request-null-refused" : "response-no-longer-null", NARROWS[direction], "may no longer be null");
    if (lostOther.length > 0 && gainedOther.length > 0) {
      here("type-changed", "breaking", `type changed from ${[...(base.types ?? [])].join(" or ")} to ${[...(head.types ?? [])].join(" or ")}`);
    } else if (lostOther.length > 0) {
      here(direction === "request" ? "request-type-narrowed" : "response-type-narrowed", NARROWS[direction], `no longer ${lostOther.join(" or ")}`);
    } else if (gainedOther.length > 0) {
      here(direction === "response" ? "response-type-widened" : "request-type-widened", WIDENS[direction], `may now be ${gainedOther.join(" or ")}`);
    }

    this.compareValues(base, head, direction, here);
    this.compareBounds(base, head, direction, here);
    this.compareClosedBeta(base, head, direction, here);

    changes.push(...this.compareProperties(base, head, direction, stack));
    const nested = (name: string, before: Located | undefined, after: Located | undefined, missing: string) => {
      if (before && after) {
        for (const change of this.compareAt(before.node, before.pointer, after.node, after.pointer, direction, stack))
          changes.push({ ...change, field: [name, ...change.field] });
      } else if (before && !after) here("constraint-loosened", WIDENS[direction], `${missing} no longer described`);
      else if (!before && after) here("constraint-tightened", NARROWS[direction], `${missing} now described`, after.pointer);
    };
    nested("[]", base.items, head.items, "items");
    nested("*", base.additional, head.additional, "fields it does not list");
    changes.push(...this.compareAlternatives(base, head, direction, stack));
    return changes;
  }

  private compareValues(
    base: SchemaView,
    head: SchemaView,
    direction: Direction,
    report: (rule: string, kind: ChangeKind, message: string, pointer?: string) => void,
  ): void {
    const here = (rule: string, kind: ChangeKind, message: string) => report(rule, kind, message, head.valuesPointer);
    if (base.values === null && head.values === null) return;
    if (base.values === null) {
      here("values-restricted", NARROWS[direction], `now limited to ${head.values!.map(show).join(", ")}`);
      return;
    }
    if (head.values === null) {
      if (!head.open) here("values-unrestricted", WIDENS[direction], "no longer limited to a list of values");
      return;
    }
    const removed = base.values.filter((value) => !head.values!.some((other) => show(other) === show(value)));
    const added = head.values.filter((value) => !base.values!.some((other) => show(other) === show(value)));
    if (removed.length > 0) {
      const rule = direction === "request" ? "request-enum-value-removed" : "response-enum-value-removed";
      here(rule, NARROWS[direction], `${removed.length === 1 ? "value" : "values"} ${removed.map(show).join(", ")} removed`);
    }
    if (added.length > 0) {
      const list = added.map(show).join(", ");
      if (head.open && base.open) {
        here("open-enum-value-added", "additive", `${added.length === 1 ? "value" : "values"} ${list} added to a non-exhaustive enumeration`);
      } else {
        const rule = direction === "response" ? "closed-enum-value-added" : "request-enum-value-added";
        here(rule, WIDENS[direction], `${added.length === 1 ? "value" : "values"} ${list} added to a closed enumeration`);
      }
    }
    if (head.open && !base.open) here("enum-opened", WIDENS[direction], "made non-exhaustive: values it does not list may now appear");
    if (base.open && !head.open) here("enum-closed", NARROWS[direction], "made exhaustive: only the listed values are allowed");
  }

  /** Values newly in closed beta are refused to teams not enabled, so sending them may now fail. */
  private compareClosedBeta(
    base: SchemaView,
    head: SchemaView,
    direction: Direction,
    here: (rule: string, kind: ChangeKind, message: string, pointer?: string) => void,
  ): void {
    const listed = (view: SchemaView) => (Array.isArray(view.schema["x-svc-closed-beta"]) ? (view.schema["x-svc-closed-beta"] as unknown[]).map(show) : []);
    const before = listed(base);
    const after = listed(head);
    const added = after.filter((value) => !before.includes(value));
    const removed = before.filter((value) => !after.includes(value));
    if (added.length > 0) here("closed-beta-values-added", direction === "request" ? "breaking" : "additive", `${added.join(", ")} moved into closed beta`);
    if (removed.length > 0) here("closed-beta-values-removed", "additive", `${removed.join(", ")} out of closed beta`);
  }

  private compareBounds(
    base: SchemaView,
    head: SchemaView,
    direction: Direction,
    here: (rule: string, kind: ChangeKind, message: string, pointer?: string) => void,
  ): void {
    const bound = (name: string, lower: boolean) => {
      const before = base.schema[name];
      const after = head.schema[name];
      if (before === after || (typeof before !== "number" && typeof after !== "number")) return;
      const narrows = typeof before !== "number" ? true : typeof after !== "number" ? false : lower ? after > before : after < before;
      const text =
        typeof after !== "number"
          ? `${name} ${show(before)} removed`
          : typeof before !== "number"
            ? `${name} ${show(after)} added`
            : `${name} changed from ${show(before)} to ${show(after)}`;
      here(narrows ? "constraint-tightened" : "constraint-loosened", narrows ? NARROWS[direction] : WIDENS[direction], text);
    };
    for (const name of LOWER_BOUNDS) bound(name, true);
    for (const name of UPPER_BOUNDS) bound(name, false);
    for (const name of ["pattern", "format", "multipleOf"] as const) {
      const before = base.schema[name];
      const after = head.schema[name];
      if (before === after) continue;
      if (before === undefined) here("constraint-tightened", NARROWS[direction], `${name} ${show(after)} added`);
      else if (after === undefined) here("constraint-loosened", WIDENS[direction], `${name} ${show(before)} removed`);
      else here("constraint-changed", "breaking", `${name} changed from ${show(before)} to ${show(after)}`);
    }
    if (head.schema.uniqueItems === true && base.schema.uniqueItems !== true) here("constraint-tightened", NARROWS[direction], "items must now be unique");
    if (base.schema.uniqueItems === true && head.schema.uniqueItems !== true) here("constraint-loosened", WIDENS[direction], "items need no longer be unique");
    const closedBefore = base.schema.additionalProperties === false;
    const closedAfter = head.schema.additionalProperties === false;
    if (closedBefore && !closedAfter) here("additional-properties-allowed", WIDENS[direction], "now allows fields it does not list");
    if (!closedBefore && closedAfter) here("additional-properties-refused", NARROWS[direction], "no longer allows fields it does not list");
  }

  private compareProperties(base: SchemaView, head: SchemaView, direction: Direction, stack: Set<string>): SchemaChange[] {
    const changes: SchemaChange[] = [];
    const removedAt = isObject(head.schema.properties) ? `${head.pointer}/properties` : head.pointer;
    for (const name of base.properties.keys()) {
      if (head.properties.has(name)) continue;
      const message = direction === "request" ? "field removed: a client that sends it may be refused" : "field removed";
      changes.push({
        field: [name],
        rule: direction === "request" ? "request-field-removed" : "response-field-removed",
        kind: "breaking",
        message,
        pointer: removedAt,
        side: "head",
      });
    }
    for (const [name, property] of head.properties) {
      const before = base.properties.get(name);
      const isRequired = head.required.has(name);
      if (!before) {
        const breaking = isRequired && direction === "request";
        const rule = breaking ? "request-field-added-required" : "field-added";
        changes.push({
          field: [name],
          rule,
          kind: breaking ? "breaking" : "additive",
          message: isRequired ? "required field added" : "optional field added",
          pointer: property.pointer,
          side: "head",
        });
        continue;
      }
      const wasRequired = base.required.has(name);
      if (!wasRequired && isRequired) {
        const rule = direction === "request" ? "request-field-made-required" : "response-field-made-required";
        changes.push({ field: [name], rule, kind: NARROWS[direction], message: "made required", pointer: property.pointer, side: "head" });
      }
      if (wasRequired && !isRequired) {
        const rule = direction === "response" ? "response-field-made-optional" : "request-field-made-optional";
        changes.push({ field: [name], rule, kind: WIDENS[direction], message: "made optional", pointer: property.pointer, side: "head" });
      }
      for (const change of this.compareAt(before.node, before.pointer, property.node, property.pointer, direction, stack)) {
        changes.push({ ...change, field: [name, ...change.field] });
      }
    }
    // A required name with no property of its own still changes what must be sent or read.
    for (const name of head.required) {
      if (head.properties.has(name) || base.properties.has(name) || base.required.has(name)) continue;
      if (direction === "request")
        changes.push({ field: [name], rule: "request-field-made-required", kind: "breaking", message: "made required", pointer: head.pointer, side: "head" });
    }
    for (const name of base.required) {
      if (head.properties.has(name) || base.properties.has(name) || head.required.has(name)) continue;
      if (direction === "response")
        changes.push({ field: [name], rule: "response-field-made-optional", kind: "breaking", message: "made optional", pointer: head.pointer, side: "head" });
    }
    return changes;
  }

  /** anyOf and oneOf alike: an alternative added lets more values through, one removed fewer. */
  private compareAlternatives(base: SchemaView, head: SchemaView, direction: Direction, stack: Set<string>): SchemaChange[] {
    if (base.alternatives.length === 0 || head.alternatives.length === 0) return [];
    const changes: SchemaChange[] = [];
    for (const alternative of head.alternatives) {
      const match = base.alternatives.find((other) => other.label === alternative.label);
      if (!match) {
        changes.push({
          field: [],
          rule: "alternative-added",
          kind: WIDENS[direction],
          message: `alternative ${alternative.label} added`,
          pointer: alternative.pointer,
          side: "head",
        });
        continue;
      }
      changes.push(...this.compareAt(match.node, match.pointer, alternative.node, alternative.pointer, direction, stack));
    }
    for (const alternative of base.alternatives) {
      if (head.alternatives.some((other) => other.label === alternative.label)) continue;
      changes.push({
        field: [],
        rule: "alternative-removed",
        kind: NARROWS[direction],
        message: `alternative ${alternative.label} removed`,
        pointer: head.pointer,
        side: "head",
      });
    }
    return changes;
  }
}

/** A field path as a reader writes it: `markers[].unit`. */
export function fieldName(field: readonly string[]): string {
  return field.reduce((text, part) => (part === "[]" ? `${text}[]` : text ? `${text}.${part}` : part), "");
}
