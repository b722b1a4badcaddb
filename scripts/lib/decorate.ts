// Turns the contract's x-svc- extensions into visible notes in descriptions, since Redoc and editors show descriptions but not extensions.
import { isObject, walkObjects, type JsonObject } from "./walk.ts";

/** Appends a paragraph once, so decorating an already decorated document changes nothing. */
function appendNote(object: JsonObject, note: string): void {
  const description = typeof object.description === "string" ? object.description.trimEnd() : "";
  if (description.includes(note)) return;
  object.description = description ? `${description}\n\n${note}` : note;
}

function listedValues(schema: JsonObject): string[] {
  const anyOf = Array.isArray(schema.anyOf) ? schema.anyOf : [];
  const closed = anyOf.find((branch) => isObject(branch) && Array.isArray(branch.enum));
  return isObject(closed) ? (closed.enum as string[]) : [];
}

export function decorateExtensions(document: JsonObject): void {
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
    if (object["x-svc-non-exhaustive"] === true && listedValues(object).length > 0) {
      appendNote(object, "**Non-exhaustive:** the service may add values; accept any string in responses, send only listed values in requests.");
    }
  });
}
