// Shows each answer's links in the reference, under the answer itself: Redoc does not render OpenAPI `links`, and a
// reader of an operation should see which operations its answer leads to, with which id, as a stateful tester does.
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { responseLinks, type ResponseLink } from "../../../src/contract/links.ts";
import { listOperations } from "../../../src/contract/operations.ts";

/** How a link fills the linked call: each parameter and, for a body, each expression it puts in the body. */
export function linkInputs(link: ResponseLink): string {
  const parameters = Object.entries(link.parameters).map(([name, value]) => `\`${name}\` ← \`${String(value)}\``);
  const body = JSON.stringify(link.requestBody ?? null).match(/"\$[^"]+"/g) ?? [];
  return [...parameters, ...body.map((expression) => `body ← \`${expression.slice(1, -1)}\``)].join(", ");
}

function noteOf(links: ResponseLink[]): string {
  const lines = links.map((link) => {
    const inputs = linkInputs(link);
    const credential = link.credential === undefined ? "" : `, made with \`${link.credential}\` as its credential`;
    const kind = link.state ? "" : " (hands the id on)";
    return `- \`${link.operationId}\`${inputs === "" ? "" : `: ${inputs}`}${credential}${kind}`;
  });
  return ["**Links** (OpenAPI `links`, which stateful testers follow): this answer leads to", ...lines].join("\n");
}

/** Appends the links of each answer declared in place (shared answers carry none) to its description. */
export function addLinkNotes(document: JsonObject): void {
  for (const op of listOperations(document)) {
    const responses = op.operation.responses as JsonObject;
    for (const status of Object.keys(op.responses)) {
      const links = responseLinks(document, op, status);
      const response = responses[status];
      if (links.length === 0 || !isObject(response) || typeof response.$ref === "string") continue;
      response.description = `${String(response.description ?? "").trimEnd()}\n\n${noteOf(links)}`;
    }
  }
}
