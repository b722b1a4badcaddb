// Parsed JSON: telling an object from the rest, visiting every object with its JSON Pointer (for the scripts that read or
// decorate the bundle), and reading a text as JSON without throwing.
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function walkObjects(node: unknown, visit: (object: JsonObject, pointer: string) => void, pointer = ""): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => walkObjects(item, visit, `${pointer}/${index}`));
  } else if (isObject(node)) {
    visit(node, pointer);
    for (const [key, value] of Object.entries(node)) {
      walkObjects(value, visit, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  }
}

/** A text read as JSON, or undefined when it is empty or not JSON (a writer then says what it was instead). */
export function readJson(text: string | undefined): { value: unknown } | undefined {
  if (text === undefined || text === "") return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}
