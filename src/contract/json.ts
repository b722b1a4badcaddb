// Visits every object in a parsed JSON document, with its JSON Pointer, for the scripts that read or decorate the bundle.
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
