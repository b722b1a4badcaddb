// fast-check arbitraries from the contract's schemas, for the generated pass: valid values with varied data (letters
// beyond ASCII, emoji, quotes, strings as long as their limit, numbers at their edges), and values that break one
// input. An input whose values are ids (format uuid) or free-form objects keeps the valid call's value: varying an id
// only finds that it does not exist. Every case is still checked by the validator before it is sent.
import fc from "fast-check";
import { isObject, type JsonObject } from "../../contract/json.ts";
import { deref } from "../../contract/operations.ts";
import { openEnumValues } from "../../contract/open-enums.ts";

/** The characters of generated text: mostly plain, one in five from the ones servers mishandle. Shrinking goes to the first of each list. */
const PLAIN = [..."abcdefghijklmnopqrstuvwxyz0123456789 -_."];
const AWKWARD = ["é", "ñ", "ü", "ß", "Ω", "漢", "字", "😀", "👍🏽", "'", '"', "\\", "<", ">", "&", "%", "#", "/", "?", "+"];
const TEXT_UNIT = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PLAIN) }, { weight: 1, arbitrary: fc.constantFrom(...AWKWARD) });

/** The longest string made for a field without a limit, and the most items of a list without one. */
const LONGEST_FREE = 40;
const MOST_ITEMS = 4;
const MAX_DEPTH = 3;

/**
 * The shortest text made for a field the contract marks as health data or a secret: verify's outputs remove every such
 * value they meet from free text (src/contract/redact.ts), and a short one ("call") would cut words out of the
 * outputs' own sentences.
 */
const SHORTEST_MARKED = 8;

function isMarked(raw: unknown, schema: JsonObject): boolean {
  const mark = (isObject(raw) ? raw["x-svc-data"] : undefined) ?? schema["x-svc-data"];
  return mark === "phi" || mark === "secret";
}

function textArbitrary(schema: JsonObject, marked: boolean): fc.Arbitrary<string> {
  const limit = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  const declaredMin = typeof schema.minLength === "number" ? schema.minLength : 0;
  const minLength = marked ? Math.max(declaredMin, Math.min(SHORTEST_MARKED, limit ?? SHORTEST_MARKED)) : declaredMin;
  const maxLength = Math.max(minLength, Math.min(limit ?? LONGEST_FREE, LONGEST_FREE));
  const ordinary = fc.string({ unit: TEXT_UNIT, minLength, maxLength });
  if (limit === undefined || limit <= LONGEST_FREE) return ordinary;
  // As long as the limit allows, now and then: a server's column may be shorter than the contract says.
  return fc.oneof(
    { weight: 4, arbitrary: ordinary },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...PLAIN, ...AWKWARD), minLength: Math.max(minLength, limit - 4), maxLength: limit }) },
  );
}

/**
 * A web URL made of pieces drawn from short lists, with a port, a path (some of it percent-encoded) and a query now and
 * then. Not fast-check's webUrl: its percent-encoded characters are drawn from all of Unicode, and the first of them
 * makes fast-check build (and keep for the process's life) a map of every code point, about 90 MB.
 */
function webUrl(schemes: string[]): fc.Arbitrary<string> {
  const word = (letters: string, maxLength: number) => fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength });
  const host = fc
    .tuple(fc.array(word("abcdefghijklmnopqrstuvwxyz0123456789", 12), { minLength: 1, maxLength: 3 }), fc.constantFrom("com", "org", "io", "example"))
    .map(([labels, top]) => [...labels, top].join("."));
  const segment = fc.oneof(
    { weight: 4, arbitrary: word("abcdefghijklmnopqrstuvwxyz0123456789-._~", 16) },
    { weight: 1, arbitrary: fc.constantFrom("%C3%A9", "%20", "caf%C3%A9", "%F0%9F%98%80") },
  );
  return fc
    .tuple(
      fc.constantFrom(...schemes),
      host,
      fc.option(fc.integer({ min: 1, max: 65_535 }), { freq: 4 }),
      fc.array(segment, { maxLength: 3 }),
      fc.option(word("abcdefghijklmnopqrstuvwxyz0123456789", 8), { freq: 3 }),
    )
    .map(
      ([scheme, name, port, path, query]) => `${scheme}://${name}${port === null ? "" : `:${port}`}/${path.join("/")}${query === null ? "" : `?q=${query}`}`,
    );
}

function formatted(schema: JsonObject): fc.Arbitrary<string> | undefined {
  const date = fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true });
  switch (schema.format) {
    case "date":
      return date.map((value) => value.toISOString().slice(0, 10));
    case "date-time":
      return date.map((value) => value.toISOString());
    case "uri":
    case "url":
      return webUrl(typeof schema.pattern === "string" && schema.pattern.includes("https") ? ["https"] : ["https", "http"]);
    case "email":
      return fc.emailAddress();
    default:
      return undefined;
  }
}

/** A valid value of the schema, or undefined when the input keeps the valid call's value. `base` fills lists of objects. */
export function validArbitrary(document: JsonObject, raw: unknown, base: unknown, depth = 0, inMarked = false): fc.Arbitrary<unknown> | undefined {
  const schema = deref(document, raw);
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  // A mark holds for everything inside what it marks, as the redactor reads it.
  const marked = inMarked || isMarked(raw, schema);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(schema[key])) continue;
    const listed = openEnumValues(schema);
    // A non-exhaustive enumeration gets only its listed values: what the service does with another is not documented.
    if (listed !== undefined) return fc.constantFrom(...listed);
    const branches = (schema[key] as unknown[]).map((branch) => {
      const resolved = deref(document, branch);
      return isObject(resolved) && resolved.type === "null" ? fc.constant(null) : validArbitrary(document, branch, base, depth + 1, marked);
    });
    return branches.every((branch) => branch !== undefined) ? fc.oneof(...(branches as fc.Arbitrary<unknown>[])) : undefined;
  }
  const nonNull = types.filter((type) => type !== "null");
  const inner = innerArbitrary(document, { ...schema, type: nonNull[0] }, base, depth, marked);
  if (inner === undefined) return undefined;
  return types.includes("null") ? fc.option(inner, { nil: null, freq: 5 }) : inner;
}

function innerArbitrary(document: JsonObject, schema: JsonObject, base: unknown, depth: number, marked: boolean): fc.Arbitrary<unknown> | undefined {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case "boolean":
      return fc.boolean();
    case "integer":
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum : -1_000_000;
      const max = typeof schema.maximum === "number" ? schema.maximum : 1_000_000;
      const any = schema.type === "integer" ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      return fc.oneof(fc.constantFrom(min, max), any);
    }
    case "string": {
      if (schema.format === "uuid") return undefined;
      if (schema.format !== undefined) return formatted(schema);
      if (typeof schema.pattern === "string")
        return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => typeof schema.maxLength !== "number" || text.length <= schema.maxLength);
      return textArbitrary(schema, marked);
    }
    case "array": {
      const minLength = typeof schema.minItems === "number" ? schema.minItems : 0;
      const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === "number" ? schema.maxItems : MOST_ITEMS, MOST_ITEMS));
      const items = validArbitrary(document, schema.items, Array.isArray(base) ? base[0] : undefined, depth + 1, marked);
      if (items !== undefined) return fc.array(items, { minLength, maxLength });
      // Items verify cannot make (ids, objects of ids): the valid call's own, some of them.
      if (!Array.isArray(base) || base.length === 0) return undefined;
      return fc.array(fc.constantFrom(...(base as unknown[])), { minLength, maxLength });
    }
    case "object": {
      if (!isObject(schema.properties) || !isObject(base)) return undefined;
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(schema.properties)) {
        const made = validArbitrary(document, property, base[name], depth + 1, marked);
        if (made !== undefined) fields[name] = made;
        else if (base[name] !== undefined) fields[name] = fc.constant(base[name]);
      }
      return fc.record(fields, { requiredKeys: Object.keys(fields).filter((name) => required.has(name) || base[name] !== undefined) });
    }
    default:
      return undefined;
  }
}

/** Values that break the schema of one input, to be confirmed by the validator: another type, past a limit, unlisted. */
export function breakingArbitrary(document: JsonObject, raw: unknown): fc.Arbitrary<unknown> {
  const schema = deref(document, raw);
  const breaking: fc.Arbitrary<unknown>[] = [fc.constantFrom<unknown>(12345, "not-a-number", true, { unexpected: "object" })];
  if (isObject(schema)) {
    if (typeof schema.maximum === "number") breaking.push(fc.integer({ min: schema.maximum + 1, max: schema.maximum + 1_000 }));
    if (typeof schema.minimum === "number") breaking.push(fc.integer({ min: schema.minimum - 1_000, max: schema.minimum - 1 }));
    if (typeof schema.maxLength === "number") breaking.push(fc.string({ unit: TEXT_UNIT, minLength: schema.maxLength + 1, maxLength: schema.maxLength + 8 }));
    if (typeof schema.maxItems === "number") breaking.push(fc.array(fc.constant("x"), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 3 }));
    if (Array.isArray(schema.enum)) breaking.push(fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 12 }));
    if (typeof schema.format === "string") breaking.push(fc.string({ unit: TEXT_UNIT, minLength: 1, maxLength: 12 }));
  }
  return fc.oneof(...breaking);
}
