// Makes the document the reference is built from, out of the bundled contract: the contract plus what only a reader
// needs (introduction, badges, health-data and secret notes, each answer's links, request samples, one operation per event kind, navigation
// groups). The published contract (generated/openapi.*) stays without these.
import type { JsonObject } from "../../../src/contract/json.ts";
import { addBadges } from "./badges.ts";
import { addCodeSamples, serviceBaseUrl } from "./code-samples.ts";
import { addDataNotes } from "./data-notes.ts";
import { expandEventOperations, FAMILY_TAGS } from "./event-operations.ts";
import { writeIntroduction } from "./introduction.ts";
import { addLinkNotes } from "./link-notes.ts";
import { unwrapDescriptions } from "./prose.ts";

const MANAGEMENT_TAGS = new Set(["Management"]);

/** Navigation groups: the API a team calls with its key, the management API, and the events it receives. */
function tagGroups(document: JsonObject): JsonObject[] {
  const names = ((document.tags ?? []) as JsonObject[]).map((tag) => String(tag.name));
  const events = new Set(Object.values(FAMILY_TAGS));
  return [
    { name: "API", tags: names.filter((name) => !MANAGEMENT_TAGS.has(name) && !events.has(name)) },
    { name: "Management API", tags: names.filter((name) => MANAGEMENT_TAGS.has(name)) },
    { name: "Events", tags: names.filter((name) => events.has(name)) },
  ];
}

export function referenceDocument(contract: JsonObject): JsonObject {
  const document = structuredClone(contract);
  writeIntroduction(document);
  addCodeSamples(document);
  expandEventOperations(document);
  addBadges(document);
  addDataNotes(document);
  addLinkNotes(document);
  // A server variable would hide the base URL behind "Show 1 variable"; the introduction says to replace it per region.
  const servers = (document.servers ?? []) as JsonObject[];
  if (servers[0] !== undefined) servers[0] = { url: serviceBaseUrl(document), description: servers[0].description };
  document["x-tagGroups"] = tagGroups(document);
  unwrapDescriptions(document);
  return document;
}
