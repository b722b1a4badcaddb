// Derives the reference's badges (x-badges, shown by Redoc in operation titles and navigation entries) from the
// contract's own markings: closed beta, provisional and deprecated, on the operation or on a part it reaches.
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { deref, HTTP_METHODS } from "../../../src/contract/operations.ts";

export interface Badge {
  name: string;
  color: string;
  position: "after";
}

/** Badge backgrounds: light, since Redoc writes badge text in its dark text colour (axe-core checks the contrast in the browser test). */
export const BADGES = {
  closedBeta: { name: "Closed beta", color: "#ead9fb", position: "after" },
  closedBetaValues: { name: "Closed-beta values", color: "#ead9fb", position: "after" },
  provisional: { name: "Provisional", color: "#fbe7b5", position: "after" },
  deprecated: { name: "Deprecated", color: "#fbd3cf", position: "after" },
  deprecatedParts: { name: "Deprecated fields", color: "#fbd3cf", position: "after" },
} as const satisfies Record<string, Badge>;

interface Markings {
  closedBetaValues: boolean;
  deprecatedParts: boolean;
}

/** What the parts an operation reaches (parameters, bodies, schemas, through references) are marked with. */
function markingsOf(document: JsonObject, operation: JsonObject): Markings {
  const found: Markings = { closedBetaValues: false, deprecatedParts: false };
  const seen = new Set<unknown>();
  // Security is left out: the deprecated org key header is marked in the introduction's credentials table.
  const start: JsonObject = { ...operation, security: undefined };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === "string") return visit(deref(document, node));
    if (Array.isArray(node["x-svc-closed-beta"])) found.closedBetaValues = true;
    if (node !== start && node.deprecated === true) found.deprecatedParts = true;
    for (const value of Object.values(node)) visit(value);
  };
  visit(start);
  return found;
}

/** The badges of one operation, in a fixed order. */
export function badgesOf(document: JsonObject, operation: JsonObject): Badge[] {
  const parts = markingsOf(document, operation);
  const badges: Badge[] = [];
  if (operation.deprecated === true) badges.push(BADGES.deprecated);
  if (operation["x-svc-closed-beta"] === true) badges.push(BADGES.closedBeta);
  else if (parts.closedBetaValues) badges.push(BADGES.closedBetaValues);
  if (typeof operation["x-svc-provisional"] === "string") badges.push(BADGES.provisional);
  if (operation.deprecated !== true && parts.deprecatedParts) badges.push(BADGES.deprecatedParts);
  return badges;
}

/** Sets `x-badges` on every operation and webhook operation that has a marking. */
export function addBadges(document: JsonObject): void {
  for (const group of [document.paths, document.webhooks]) {
    for (const pathItem of Object.values((group ?? {}) as JsonObject)) {
      const item = deref(document, pathItem);
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const badges = badgesOf(document, operation);
        if (badges.length > 0) operation["x-badges"] = badges;
      }
    }
  }
}
