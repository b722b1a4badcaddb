// Turns the contract's x-svc- extensions into visible notes in descriptions, since Redoc and editors show descriptions but not extensions.
import { isDeepStrictEqual } from "node:util";
import { HTTP_METHODS } from "../../src/contract/operations.ts";
import { isObject, walkObjects, type JsonObject } from "../../src/contract/json.ts";
import { hasGuessedValues, openEnumValues } from "../../src/contract/open-enums.ts";

export const TRANSPORT_RESPONSES = "x-svc-transport-responses";

/**
 * The component reference of each transport-level refusal the root lists. Redocly inlines what a root extension
 * references, so an inlined entry is matched back to the component it was bundled from.
 */
function transportRefs(document: JsonObject): Record<string, string> {
  const listed = document[TRANSPORT_RESPONSES];
  if (!isObject(listed)) return {};
  const components = (isObject(document.components) && isObject(document.components.responses) ? document.components.responses : {}) as JsonObject;
  const refs: Record<string, string> = {};
  for (const [status, entry] of Object.entries(listed)) {
    if (isObject(entry) && typeof entry.$ref === "string") {
      refs[status] = entry.$ref;
      continue;
    }
    const name = Object.keys(components).find((key) => isDeepStrictEqual(components[key], entry));
    if (name === undefined) throw new Error(`${TRANSPORT_RESPONSES} ${status} is not one of components.responses`);
    refs[status] = `#/components/responses/${name}`;
  }
  return refs;
}

/**
 * Adds the transport-level refusals (malformed JSON, method not allowed, ...) to every operation that does not declare
 * that status itself, so every status a server can send is declared, and operations added later get them too.
 */
export function addTransportResponses(document: JsonObject): void {
  const refs = transportRefs(document);
  if (Object.keys(refs).length === 0) return;
  document[TRANSPORT_RESPONSES] = Object.fromEntries(Object.entries(refs).map(([status, ref]) => [status, { $ref: ref }]));
  for (const pathItem of Object.values((document.paths ?? {}) as JsonObject)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const responses = (operation.responses ??= {}) as JsonObject;
      for (const [status, ref] of Object.entries(refs)) responses[status] ??= { $ref: ref };
    }
  }
}

/** Appends a paragraph once, so decorating an already decorated document changes nothing. */
function appendNote(object: JsonObject, note: string): void {
  const description = typeof object.description === "string" ? object.description.trimEnd() : "";
  if (description.includes(note)) return;
  object.description = description ? `${description}\n\n${note}` : note;
}

export function decorateExtensions(document: JsonObject): void {
  addTransportResponses(document);
  walkObjects(document, (object) => {
    const provisional = object["x-svc-provisional"];
    if (typeof provisional === "string") {
      appendNote(object, `**Provisional:** ${provisional}`);
    }
    const closedBeta = object["x-svc-closed-beta"];
    if (closedBeta === true) {
      appendNote(object, "**Closed beta:** only teams the service has enabled may call this; others get `403` `closed_beta_not_enabled`.");
    } else if (Array.isArray(closedBeta)) {
      const values = closedBeta.map((value) => `\`${value}\``).join(", ");
      appendNote(object, `**Closed beta values:** ${values}; a team that is not enabled gets \`403\` \`closed_beta_not_enabled\`.`);
    }
    if ((openEnumValues(object)?.length ?? 0) > 0) {
      appendNote(
        object,
        hasGuessedValues(object)
          ? "**Non-exhaustive, values not documented:** the document does not list these values, so the listed ones are the package's (see Provisional) and the service may use others. Accept any string in responses; in requests a value the list misses is accepted too (the mock answers it with an `x-svc-mock-warning` header; what the service refuses is not documented)."
          : "**Non-exhaustive:** the service may add values; accept any string in responses, and send listed values in requests (the contract accepts others, and the mock answers them with an `x-svc-mock-warning` header; the service may refuse one it does not support).",
      );
    }
  });
}
