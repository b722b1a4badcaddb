// Shows the contract's x-svc-data marks to a reader: a note on each property, parameter and header marked phi or secret,
// in the reader's document only (the published bundle keeps the mark as it is, with no prose added).
import { isObject, walkObjects, type JsonObject } from "../../../src/contract/json.ts";
import { deref } from "../../../src/contract/operations.ts";
import { DATA_MARK, REMOVED, type DataKind } from "../../../src/contract/redact.ts";

export { DATA_MARK, REMOVED, type DataKind };

/** How a reader sees each kind named: the note's bold opening, and the introduction's words for it. */
export const DATA_LABELS: Record<DataKind, string> = { phi: "Health data (PHI)", secret: "Secret" };

export const DATA_NOTES: Record<DataKind, string> = {
  phi: `**${DATA_LABELS.phi}.** An end user's identity or health data: keep it out of logs and reports.`,
  secret: `**${DATA_LABELS.secret}.** It grants access: keep it out of logs and reports.`,
};

export interface MarkedNode {
  pointer: string;
  kind: DataKind;
  node: JsonObject;
}

/** Every node marked phi or secret, with its JSON Pointer. Example values are data, not schemas, and are not read. */
export function markedNodes(document: JsonObject): MarkedNode[] {
  const found: MarkedNode[] = [];
  walkObjects(document, (node, pointer) => {
    const kind = node[DATA_MARK];
    if ((kind === "phi" || kind === "secret") && !/\/(examples|example)\//.test(pointer)) found.push({ pointer, kind, node });
  });
  return found;
}

/** A node's own description; beside a `$ref`, Redoc lays the siblings over the target, so the target's when it has none. */
function ownDescription(document: JsonObject, node: JsonObject): string {
  if (typeof node.description === "string") return node.description;
  const target = typeof node.$ref === "string" ? deref(document, node) : undefined;
  return isObject(target) && typeof target.description === "string" ? target.description : "";
}

/**
 * The alternatives Redoc shows in place of a node's own description: for a node with `anyOf` or `oneOf` it shows the
 * selected alternative's (the first, until the reader picks another), never the node's. `null` has nothing to note.
 */
function alternatives(node: JsonObject): JsonObject[] {
  const listed = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : [];
  return listed.filter((alternative): alternative is JsonObject => isObject(alternative) && alternative.type !== "null");
}

/** The description Redoc shows for a node as the page opens. */
export function shownDescription(document: JsonObject, node: JsonObject): string {
  const [selected] = alternatives(node);
  return ownDescription(document, selected ?? node);
}

/**
 * Adds each marked node's note to the descriptions a reader sees: its own, and each alternative's when it has `anyOf` or
 * `oneOf`. A `$ref` without a description of its own gets its target's before the note, so the note does not hide what
 * the target says.
 */
export function addDataNotes(document: JsonObject): void {
  for (const { kind, node } of markedNodes(document)) {
    for (const shown of [node, ...alternatives(node)]) {
      const description = ownDescription(document, shown).trimEnd();
      if (description.includes(DATA_NOTES[kind])) continue;
      shown.description = description ? `${description}\n\n${DATA_NOTES[kind]}` : DATA_NOTES[kind];
    }
  }
}

/** A marked schema node's name as a reader writes it (`Schema.field`, `Schema.list[].field`, `Schema.*` for any key); other nodes keep their pointer. */
export function markedName(pointer: string): string {
  const match = /^\/components\/schemas\/([^/]+)((?:\/.*)?)$/.exec(pointer);
  if (match === null) return pointer;
  const steps = (match[2] ?? "").split("/").slice(1);
  let name = match[1]!;
  for (let i = 0; i < steps.length; i++) {
    if (steps[i] === "properties" && i + 1 < steps.length) name += `.${steps[++i]}`;
    else if (steps[i] === "items") name += "[]";
    else if (steps[i] === "additionalProperties") name += ".*";
    else name += `/${steps[i]}`;
  }
  return name.replaceAll("~1", "/").replaceAll("~0", "~");
}
