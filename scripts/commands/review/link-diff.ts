// Rule 19 of openapi/breaking-changes.md: the links of one response compared between base and head. Tools follow a
// link to reach the next operation with an id; a link removed, or sent elsewhere, or filled otherwise, leaves them
// stranded, so it breaks; a link added only leads them further.
import { isDeepStrictEqual } from "node:util";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { encodePointer } from "./source-map.ts";
import { followRefs as follow, type ChangeKind } from "./schema-diff.ts";

export interface LinkChange {
  kind: ChangeKind;
  rule: "link-removed" | "link-changed" | "link-added";
  /** The link's name in the response's `links`. */
  name: string;
  message: string;
  pointer: string;
}

/** What a link does, as a tool follows it: its target, how it fills the call, and the credential it makes the call with. */
const WHAT_IT_DOES = ["operationId", "operationRef", "parameters", "requestBody", "server", "x-svc-credential"] as const;

/** Where each parameter of the operation with this id goes (`thing_id` → `path`), to read an unqualified link parameter. */
function parameterPlaces(document: JsonObject, operationId: unknown): Map<string, string> {
  const places = new Map<string, string>();
  for (const [template, rawItem] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    const item = follow(document, rawItem, `/paths${encodePointer([template])}`).node;
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || operation.operationId !== operationId) continue;
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]) {
        const parameter = follow(document, raw, "").node;
        if (typeof parameter.name === "string" && typeof parameter.in === "string" && !places.has(parameter.name)) places.set(parameter.name, parameter.in);
      }
    }
  }
  return places;
}

/** A link's parameters with each name qualified (`path.thing_id`), as OpenAPI reads an unqualified one: the same link, written either way. */
function qualified(document: JsonObject, link: JsonObject): unknown {
  if (!isObject(link.parameters)) return link.parameters;
  const places = parameterPlaces(document, link.operationId);
  return Object.fromEntries(
    Object.entries(link.parameters).map(([name, value]) => [
      /^(path|query|header|cookie)\./.test(name) || !places.has(name) ? name : `${places.get(name)}.${name}`,
      value,
    ]),
  );
}

function linksOf(document: JsonObject, response: { node: JsonObject; pointer: string }): Map<string, { node: JsonObject; pointer: string }> {
  const links = isObject(response.node.links) ? response.node.links : {};
  return new Map(Object.entries(links).map(([name, link]) => [name, follow(document, link, `${response.pointer}/links${encodePointer([name])}`)]));
}

/** Each link removed, changed in what it does, or added, between the base's response and the head's. */
export function compareLinks(
  base: JsonObject,
  head: JsonObject,
  oldResponse: { node: JsonObject; pointer: string },
  newResponse: { node: JsonObject; pointer: string },
): LinkChange[] {
  const was = linksOf(base, oldResponse);
  const now = linksOf(head, newResponse);
  const changes: LinkChange[] = [];
  for (const name of was.keys()) {
    if (!now.has(name))
      changes.push({
        kind: "breaking",
        rule: "link-removed",
        name,
        message: "link removed: a tool that follows it no longer reaches its operation",
        pointer: newResponse.pointer,
      });
  }
  for (const [name, link] of now) {
    const before = was.get(name);
    if (before === undefined) {
      changes.push({
        kind: "additive",
        rule: "link-added",
        name,
        message: `link added to ${String(link.node.operationId ?? link.node.operationRef)}`,
        pointer: link.pointer,
      });
      continue;
    }
    const read = (document: JsonObject, node: JsonObject, key: (typeof WHAT_IT_DOES)[number]) => (key === "parameters" ? qualified(document, node) : node[key]);
    const changed = WHAT_IT_DOES.filter((key) => !isDeepStrictEqual(read(base, before.node, key), read(head, link.node, key)));
    if (changed.length > 0)
      changes.push({
        kind: "breaking",
        rule: "link-changed",
        name,
        message: `link's ${changed.join(", ")} changed: a tool that follows it gets another call`,
        pointer: link.pointer,
      });
  }
  return changes;
}
