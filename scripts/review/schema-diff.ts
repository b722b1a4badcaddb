// Compares a schema of a base bundle with the same schema of the head bundle, and rates each difference for the side that
// sends the value (a request) or the side that reads it (a response or a webhook payload), per openapi/breaking-changes.md.
import { isObject, type JsonObject } from "../lib/walk.ts";
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

/** A schema with its references followed and its nullability and open enumeration decoded. */
interface SchemaView {
  schema: JsonObject;
  pointer: string;
  /** Null when the schema allows any type. */
  types: Set<string> | null;
  values: unknown[] | null;
  open: boolean;
}

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
  return isObject(node) && (node.type === "null" || (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === "null"));
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The schema's value space: `anyOf: [X, {type: 'null'}]` is X or null; the open form of a non-exhaustive enumeration is a string. */
function view(document: JsonObject, node: unknown, pointer: string): SchemaView {
  const followed = followRefs(document, node, pointer);
  // OpenAPI 3.1 lets keywords stand beside a `$ref` (`deprecated`, `x-svc-closed-beta`, a description): they apply here.
  const siblings = isObject(node) && typeof node.$ref === "string" ? Object.entries(node).filter(([key]) => key !== "$ref") : [];
  const schema = siblings.length > 0 ? { ...followed.node, ...Object.fromEntries(siblings) } : followed.node;
  const at = siblings.length > 0 ? pointer : followed.pointer;
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null) as unknown[] | null;
  const keyword = Array.isArray(schema.anyOf) ? "anyOf" : "oneOf";
  if (schema["x-svc-non-exhaustive"] === true && branches) {
    const listed = branches.find((branch) => isObject(branch) && Array.isArray(branch.enum)) as JsonObject | undefined;
    return { schema, pointer: at, types: new Set(["string"]), values: (listed?.enum as unknown[]) ?? [], open: true };
  }
  if (branches && branches.length === 2 && branches.some(isNullSchema)) {
    const index = branches.findIndex((branch) => !isNullSchema(branch));
    const inner = view(document, branches[index], `${at}/${keyword}/${index}`);
    return { ...inner, types: inner.types ? new Set([...inner.types, "null"]) : null };
  }
  let types: Set<string> | null = null;
  if (typeof schema.type === "string") types = new Set([schema.type]);
  else if (Array.isArray(schema.type)) types = new Set(schema.type as string[]);
  let values: unknown[] | null = null;
  if ("const" in schema) values = [schema.const];
  else if (Array.isArray(schema.enum)) values = schema.enum as unknown[];
  if (types === null && values !== null) types = new Set(values.map(typeOf));
  if (types === null && (isObject(schema.properties) || Array.isArray(schema.required))) types = new Set(["object"]);
  if (types === null && isObject(schema.items)) types = new Set(["array"]);
  return { schema, pointer: at, types, values, open: false };
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

  private compareAt(baseNode: unknown, basePointer: string, headNode: unknown, headPointer: string, direction: Direction, stack: Set<string>): SchemaChange[] {
    const base = view(this.bundles.base, baseNode, basePointer);
    const head = view(this.bundles.head, headNode, headPointer);
    const key = `${direction}|${base.pointer}|${head.pointer}`;
    const known = this.memo.get(key);
    if (known) return known;
    // A schema that contains itself: its difference is reported where the recursion started.
    if (stack.has(key)) return [];
    stack.add(key);
    const changes = this.differences(base, head, direction, stack);
    stack.delete(key);
    this.memo.set(key, changes);
    return changes;
  }

  private differences(base: SchemaView, head: SchemaView, direction: Direction, stack: Set<string>): SchemaChange[] {
    const changes: SchemaChange[] = [];
    const here = (rule: string, kind: ChangeKind, message: string, field: string[] = []): void => {
      changes.push({ field, rule, kind, message, pointer: head.pointer, side: "head" });
    };

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
    if (head.schema.deprecated === true && base.schema.deprecated !== true) here("deprecated", "deprecated", "deprecated");
    this.compareClosedBeta(base, head, direction, here);

    changes.push(...this.compareProperties(base, head, direction, stack));
    const baseItems = base.schema.items;
    const headItems = head.schema.items;
    if (isObject(baseItems) && isObject(headItems)) {
      for (const change of this.compareAt(baseItems, `${base.pointer}/items`, headItems, `${head.pointer}/items`, direction, stack)) {
        changes.push({ ...change, field: ["[]", ...change.field] });
      }
    }
    changes.push(...this.compareBranches(base, head, direction, stack));
    return changes;
  }

  private compareValues(base: SchemaView, head: SchemaView, direction: Direction, here: (rule: string, kind: ChangeKind, message: string) => void): void {
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
  private compareClosedBeta(base: SchemaView, head: SchemaView, direction: Direction, here: (rule: string, kind: ChangeKind, message: string) => void): void {
    const listed = (view: SchemaView) => (Array.isArray(view.schema["x-svc-closed-beta"]) ? (view.schema["x-svc-closed-beta"] as unknown[]).map(show) : []);
    const before = listed(base);
    const after = listed(head);
    const added = after.filter((value) => !before.includes(value));
    const removed = before.filter((value) => !after.includes(value));
    if (added.length > 0) here("closed-beta-values-added", direction === "request" ? "breaking" : "additive", `${added.join(", ")} moved into closed beta`);
    if (removed.length > 0) here("closed-beta-values-removed", "additive", `${removed.join(", ")} out of closed beta`);
  }

  private compareBounds(base: SchemaView, head: SchemaView, direction: Direction, here: (rule: string, kind: ChangeKind, message: string) => void): void {
    const bound = (name: string, lower: boolean) => {
      const before = base.schema[name];
      const after = head.schema[name];
      if (before === after || (typeof before !== "number" && typeof after !== "number")) return;
      const narrows = typeof before !== "number" ? true : typeof after !== "number" ? false : lower ? after > before : after < before;
      const text = typeof after !== "number" ? `${name} ${show(before)} removed` : typeof before !== "number" ? `${name} ${show(after)} added` : `${name} changed from ${show(before)} to ${show(after)}`;
      here(narrows ? "constraint-tightened" : "constraint-loosened", narrows ? NARROWS[direction] : WIDENS[direction], text);
    };
    for (const name of LOWER_BOUNDS) bound(name, true);
    for (const name of UPPER_BOUNDS) bound(name, false);
    for (const name of ["pattern", "format"] as const) {
      const before = base.schema[name];
      const after = head.schema[name];
      if (before === after) continue;
      if (before === undefined) here("constraint-tightened", NARROWS[direction], `${name} ${show(after)} added`);
      else if (after === undefined) here("constraint-loosened", WIDENS[direction], `${name} ${show(before)} removed`);
      else here("constraint-changed", "breaking", `${name} changed from ${show(before)} to ${show(after)}`);
    }
    const closedBefore = base.schema.additionalProperties === false;
    const closedAfter = head.schema.additionalProperties === false;
    if (closedBefore && !closedAfter) here("additional-properties-allowed", WIDENS[direction], "now allows fields it does not list");
    if (!closedBefore && closedAfter) here("additional-properties-refused", NARROWS[direction], "no longer allows fields it does not list");
  }

  private compareProperties(base: SchemaView, head: SchemaView, direction: Direction, stack: Set<string>): SchemaChange[] {
    const baseProps = isObject(base.schema.properties) ? base.schema.properties : {};
    const headProps = isObject(head.schema.properties) ? head.schema.properties : {};
    const baseRequired = new Set((base.schema.required ?? []) as string[]);
    const headRequired = new Set((head.schema.required ?? []) as string[]);
    const changes: SchemaChange[] = [];
    const at = (pointer: string, name: string) => `${pointer}/properties${encodePointer([name])}`;
    for (const name of Object.keys(baseProps)) {
      if (name in headProps) continue;
      changes.push({
        field: [name],
        rule: direction === "request" ? "request-field-removed" : "response-field-removed",
        kind: "breaking",
        message: direction === "request" ? "field removed: a client that sends it may be refused" : "field removed",
        pointer: head.schema.properties === undefined ? head.pointer : `${head.pointer}/properties`,
        side: "head",
      });
    }
    for (const name of Object.keys(headProps)) {
      const pointer = at(head.pointer, name);
      if (!(name in baseProps)) {
        const required = headRequired.has(name);
        const kind = required && direction === "request" ? "breaking" : "additive";
        const rule = required && direction === "request" ? "request-field-added-required" : "field-added";
        changes.push({ field: [name], rule, kind, message: required ? "required field added" : "optional field added", pointer, side: "head" });
        continue;
      }
      const wasRequired = baseRequired.has(name);
      const isRequired = headRequired.has(name);
      if (!wasRequired && isRequired) {
        const rule = direction === "request" ? "request-field-made-required" : "response-field-made-required";
        changes.push({ field: [name], rule, kind: NARROWS[direction], message: "made required", pointer, side: "head" });
      }
      if (wasRequired && !isRequired) {
        const rule = direction === "response" ? "response-field-made-optional" : "request-field-made-optional";
        changes.push({ field: [name], rule, kind: WIDENS[direction], message: "made optional", pointer, side: "head" });
      }
      for (const change of this.compareAt(baseProps[name], at(base.pointer, name), headProps[name], pointer, direction, stack)) {
        changes.push({ ...change, field: [name, ...change.field] });
      }
    }
    // A required name with no property of its own (allOf composition) still changes what must be sent or read.
    for (const name of headRequired) {
      if (name in headProps || baseRequired.has(name)) continue;
      if (direction === "request") changes.push({ field: [name], rule: "request-field-made-required", kind: "breaking", message: "made required", pointer: head.pointer, side: "head" });
    }
    return changes;
  }

  private compareBranches(base: SchemaView, head: SchemaView, direction: Direction, stack: Set<string>): SchemaChange[] {
    if (base.open || head.open) return [];
    const changes: SchemaChange[] = [];
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const before = base.schema[keyword];
      const after = head.schema[keyword];
      if (!Array.isArray(before) && !Array.isArray(after)) continue;
      // The nullable form was decoded by view(); its non-null branch was compared as the schema itself.
      if ([before, after].some((list) => Array.isArray(list) && list.length === 2 && list.some(isNullSchema))) continue;
      const label = (branch: unknown, index: number) =>
        isObject(branch) && typeof branch.$ref === "string" ? branch.$ref : isObject(branch) && typeof branch.title === "string" ? `title:${branch.title}` : `#${index}`;
      const baseList = (Array.isArray(before) ? before : []) as unknown[];
      const headList = (Array.isArray(after) ? after : []) as unknown[];
      const baseLabels = baseList.map(label);
      const headLabels = headList.map(label);
      headList.forEach((branch, index) => {
        const match = baseLabels.indexOf(headLabels[index]!);
        const pointer = `${head.pointer}/${keyword}/${index}`;
        if (match < 0) {
          // A new allOf part adds constraints (narrows); a new anyOf/oneOf alternative allows more (widens).
          const kind = keyword === "allOf" ? NARROWS[direction] : WIDENS[direction];
          changes.push({ field: [], rule: keyword === "allOf" ? "composition-part-added" : "alternative-added", kind, message: `${keyword} part ${headLabels[index]} added`, pointer, side: "head" });
          return;
        }
        for (const change of this.compareAt(baseList[match], `${base.pointer}/${keyword}/${match}`, branch, pointer, direction, stack)) changes.push(change);
      });
      baseList.forEach((_, index) => {
        if (headLabels.includes(baseLabels[index]!)) return;
        const kind = keyword === "allOf" ? WIDENS[direction] : NARROWS[direction];
        changes.push({ field: [], rule: keyword === "allOf" ? "composition-part-removed" : "alternative-removed", kind, message: `${keyword} part ${baseLabels[index]} removed`, pointer: head.pointer, side: "head" });
      });
    }
    return changes;
  }
}

/** A field path as a reader writes it: `markers[].unit`. */
export function fieldName(field: readonly string[]): string {
  return field.reduce((text, part) => (part === "[]" ? `${text}[]` : text ? `${text}.${part}` : part), "");
}
