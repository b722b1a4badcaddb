// The contract's form of a non-exhaustive enumeration (`x-svc-non-exhaustive`: anyOf of a listed string enum and any
// string), decoded in one place for the bundle step, the types, the validator and the tests.
import { isObject, walkObjects, type JsonObject } from "./json.ts";

/** The values a non-exhaustive enumeration lists, or undefined when the schema is not one. */
export function openEnumValues(schema: JsonObject): string[] | undefined {
  if (schema["x-svc-non-exhaustive"] !== true || !Array.isArray(schema.anyOf)) return undefined;
  const listed = schema.anyOf.find((branch) => isObject(branch) && Array.isArray(branch.enum));
  return isObject(listed) ? (listed.enum as string[]) : undefined;
}

/**
 * Whether a non-exhaustive enumeration lists values the document does not give: its schema itself carries
 * `x-svc-provisional` (the document gives at most how many values there are), so its listed values are the package's
 * guess, and a real value the list misses must not be refused in a request either.
 */
export function hasGuessedValues(schema: JsonObject): boolean {
  return schema["x-svc-non-exhaustive"] === true && typeof schema["x-svc-provisional"] === "string";
}

/**
 * Requests must use a listed value of a non-exhaustive enumeration whose values the document gives; responses may carry
 * any string. So the request side validates against a copy whose open enumerations keep only their listed branch.
 * An enumeration whose values the document does not give (`hasGuessedValues`) stays open, since a real value the
 * package's list misses would otherwise be refused.
 */
export function closeNonExhaustiveEnums<T>(document: T): T {
  const copy = structuredClone(document);
  walkObjects(copy, (schema) => {
    if (openEnumValues(schema) === undefined || hasGuessedValues(schema)) return;
    schema.anyOf = (schema.anyOf as unknown[]).filter((branch) => isObject(branch) && Array.isArray(branch.enum));
  });
  return copy;
}
