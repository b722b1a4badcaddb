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
    const changed = WHAT_IT_DOES.filter((key) => !isDeepStrictEqual(before.node[key], link.node[key]));
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
