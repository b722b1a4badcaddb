// The contract's form of a non-exhaustive enumeration (`x-svc-non-exhaustive`: anyOf of a listed string enum and any
// string), decoded in one place for the bundle step, the types, the unlisted values of a request and the tests.
import { isObject, type JsonObject } from "./json.ts";

/** The values a non-exhaustive enumeration lists, or undefined when the schema is not one. */
export function openEnumValues(schema: JsonObject): string[] | undefined {
  if (schema["x-svc-non-exhaustive"] !== true || !Array.isArray(schema.anyOf)) return undefined;
  const listed = schema.anyOf.find((branch) => isObject(branch) && Array.isArray(branch.enum));
  return isObject(listed) ? (listed.enum as string[]) : undefined;
}

/**
 * Whether a non-exhaustive enumeration lists values the document does not give: its schema itself carries
 * `x-svc-provisional` (the document gives at most how many values there are), so its listed values are the package's
 * guess, which the reference's note on it says.
 */
export function hasGuessedValues(schema: JsonObject): boolean {
  return schema["x-svc-non-exhaustive"] === true && typeof schema["x-svc-provisional"] === "string";
}
