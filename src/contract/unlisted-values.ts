// The values a valid request gives a non-exhaustive enumeration that it does not list: the contract accepts any string
// there (the service may add values), so they are not errors, but a caller may want to know, as the mock tells it.
import type { ErrorDetail } from "./error-details.ts";
import { isObject, type JsonObject } from "./json.ts";
import { openEnumValues } from "./open-enums.ts";
import { deref, type ContractOperation } from "./operations.ts";
import type { RequestInput } from "./request-validation.ts";

export interface UnlistedValue {
  location: ErrorDetail["location"];
  /** Named as a refusal's detail names it: the parameter, or the value's place in the body (`/destination/type`). */
  field: string;
  value: string;
  /** What the enumeration lists. */
  listed: string[];
}

/** What the schemas reached at one place of the request say about the value there. */
interface Place {
  value: unknown;
  /** The first non-exhaustive enumeration's listed values, when one is reached. */
  open: string[] | undefined;
  /** Every value any schema reached there lists (`enum`, `const`): a value another branch lists is not unlisted. */
  listed: Set<unknown>;
  visited: Set<JsonObject>;
}

/**
 * Walks the schemas the value meets (references, compositions, properties, items), by the value's own shape so a
 * recursive schema ends with the value. Every branch of a composition is walked: the request is already valid, and a
 * value only counts as unlisted where no schema reached at its place lists it.
 */
function visit(document: JsonObject, raw: unknown, value: unknown, pointer: string, places: Map<string, Place>): void {
  const schema = deref(document, raw);
  if (!isObject(schema)) return;
  let place = places.get(pointer);
  if (place === undefined) places.set(pointer, (place = { value, open: undefined, listed: new Set(), visited: new Set() }));
  if (place.visited.has(schema)) return;
  place.visited.add(schema);
  place.open ??= openEnumValues(schema);
  if (Array.isArray(schema.enum)) for (const listed of schema.enum) place.listed.add(listed);
  if ("const" in schema) place.listed.add(schema.const);
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) visit(document, branch, value, pointer, places);
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => visit(document, schema.items, item, `${pointer}/${index}`, places));
  } else if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [key, item] of Object.entries(value)) {
      // The key is the request's: `constructor` is a property the schema may not declare, never Object's own.
      visit(
        document,
        Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties,
        item,
        `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`,
        places,
      );
    }
  }
}

function unlistedIn(
  document: JsonObject,
  schema: unknown,
  value: unknown,
  location: ErrorDetail["location"],
  fieldOf: (pointer: string) => string,
): UnlistedValue[] {
  const places = new Map<string, Place>();
  visit(document, schema, value, "", places);
  return [...places]
    .filter(([, place]) => place.open !== undefined && typeof place.value === "string" && !place.listed.has(place.value))
    .map(([pointer, place]) => ({ location, field: fieldOf(pointer), value: place.value as string, listed: place.open! }));
}

/** The unlisted values of a request that its operation's schemas accept, parameters first, then the body. */
export function unlistedValues(document: JsonObject, operation: ContractOperation, input: RequestInput, body: unknown): UnlistedValue[] {
  const found: UnlistedValue[] = [];
  for (const parameter of operation.parameters) {
    const name = String(parameter.name);
    const location = parameter.in as ErrorDetail["location"];
    let value: string | string[] | undefined;
    if (location === "path") value = input.pathParams[name];
    else if (location === "query") value = deref(document, parameter.schema).type === "array" ? input.query.getAll(name) : (input.query.get(name) ?? undefined);
    else if (location === "header") value = input.headers[name.toLowerCase()];
    // A parameter is named as a whole, the item of a list parameter too: the caller wrote it as `name=value`.
    if (value !== undefined) found.push(...unlistedIn(document, parameter.schema, value, location, () => name));
  }
  const schema = (operation.requestBody?.content as JsonObject | undefined)?.["application/json"];
  if (body !== undefined && isObject(schema)) found.push(...unlistedIn(document, schema.schema, body, "body", (pointer) => pointer));
  return found;
}
