// Gives each event kind of the reference's document its own thin webhook operation, titled with the kind, so a reader
// finds an event by scanning the navigation or searching for its kind; groups the kinds by family.
import { isDeepStrictEqual } from "node:util";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { deref } from "../../../src/contract/operations.ts";

/** The navigation's tag of each event family (its path item's name in components.pathItems), in reading order. */
export const FAMILY_TAGS: Record<string, string> = {
  ProviderConnectionCreatedEvent: "Connection events",
  SummaryEvent: "Summary events",
  TimeseriesEvent: "Timeseries events",
  HypnogramEvent: "Hypnogram events",
};

/** What a kind means, from the document's table of event kinds (section 6). */
function meaning(kind: string): string {
  const [phase, , resource] = kind.split(".");
  if (kind === "provider.connection.created") return "A provider connection was created.";
  if (phase === "historical") return `Historical pull of \`${resource}\` completed: sent once, after all its data was fetched.`;
  return kind.endsWith(".updated") ? `Ongoing \`${resource}\` data updated.` : `Ongoing \`${resource}\` data created.`;
}

function familyOf(kind: string, entry: unknown): string {
  const ref = isObject(entry) && typeof entry.$ref === "string" ? entry.$ref : "";
  const family = ref.startsWith("#/components/pathItems/") ? ref.slice("#/components/pathItems/".length) : "";
  if (!(family in FAMILY_TAGS)) throw new Error(`reference: webhook ${kind} does not reference one of the event families (${ref || "inline"})`);
  return family;
}

/** The example of a kind: its resource's example of the family (or the family's only one), with `event_type` set to the kind. */
function exampleOf(document: JsonObject, family: JsonObject, kind: string): JsonObject {
  const media = ((family.requestBody as JsonObject).content as JsonObject)["application/json"] as JsonObject;
  const examples = media.examples as Record<string, unknown>;
  const resource = kind.split(".")[2]!;
  const names = Object.keys(examples);
  const name = resource in examples ? resource : names.length === 1 ? names[0]! : undefined;
  if (name === undefined) throw new Error(`reference: event family has no example for ${kind}`);
  const example = deref(document, examples[name]);
  // The shared example where it is already of this kind; a copy with the kind's event_type otherwise.
  if ((example.value as JsonObject).event_type === kind) return { [name]: examples[name] as JsonObject };
  return { [name]: { value: { ...(example.value as JsonObject), event_type: kind } } };
}

/**
 * Moves a family operation's inline responses into components, so every kind's operation references them: one
 * component per status where the families answer alike (`Event200`), one per family where they do not.
 */
function sharedResponses(components: JsonObject, family: string, responses: JsonObject): JsonObject {
  const shared = (components.responses ??= {}) as JsonObject;
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if (isObject(response) && typeof response.$ref === "string") return [status, response];
      const common = `Event${status}`;
      const name = shared[common] === undefined || isDeepStrictEqual(shared[common], response) ? common : `${family}${status}`;
      shared[name] = response;
      return [status, { $ref: `#/components/responses/${name}` }];
    }),
  );
}

/**
 * Replaces each `webhooks` entry (a reference to its family's path item) with an operation of its own: the kind as its
 * summary, what the kind means, the family's tag, and an example with the kind's `event_type`. Parameters, schema and
 * responses stay shared in components; the family path items, no longer referenced, are dropped. The family's own
 * description becomes its tag's, and the Events tag (signing, delivery) is left to the introduction.
 */
export function expandEventOperations(document: JsonObject): void {
  const components = document.components as JsonObject;
  const pathItems = components.pathItems as Record<string, JsonObject>;
  const webhooks = document.webhooks as Record<string, unknown>;
  const families = new Map<string, { operation: JsonObject; responses: JsonObject }>();
  const kinds = Object.entries(webhooks).map(([kind, entry]) => ({ kind, family: familyOf(kind, entry) }));
  const familyOrder = Object.keys(FAMILY_TAGS);
  // By family, then by resource, then historical before daily created before daily updated: a scannable order.
  kinds.sort((a, b) => familyOrder.indexOf(a.family) - familyOrder.indexOf(b.family) || sortKey(a.kind).localeCompare(sortKey(b.kind)));
  const expanded: Record<string, JsonObject> = {};
  for (const { kind, family } of kinds) {
    let shared = families.get(family);
    if (shared === undefined) {
      const operation = pathItems[family]!.post as JsonObject;
      shared = { operation, responses: sharedResponses(components, family, operation.responses as JsonObject) };
      families.set(family, shared);
    }
    const { operation } = shared;
    const content = (operation.requestBody as JsonObject).content as JsonObject;
    expanded[kind] = {
      post: {
        summary: kind,
        description: meaning(kind),
        tags: [FAMILY_TAGS[family]],
        security: [],
        ...(operation.deprecated === true ? { deprecated: true } : {}),
        ...(typeof operation["x-svc-provisional"] === "string" ? { "x-svc-provisional": operation["x-svc-provisional"] } : {}),
        parameters: operation.parameters,
        // The body is required (the family's operation says so); left implicit, as in the ~180 copies it would be.
        requestBody: {
          content: { "application/json": { schema: (content["application/json"] as JsonObject).schema, examples: exampleOf(document, operation, kind) } },
        },
        responses: shared.responses,
      },
    };
  }
  document.webhooks = expanded;
  const eventsTag = ((document.tags ?? []) as JsonObject[]).find((tag) => tag.name === "Events");
  const familyTags = familyOrder.map((family) => {
    const operation = families.get(family)?.operation;
    const description = String(operation?.description ?? "").split("\n\n")[0];
    return { name: FAMILY_TAGS[family]!, description: `${operation?.summary}. ${description}` };
  });
  document.tags = [...((document.tags ?? []) as JsonObject[]).filter((tag) => tag !== eventsTag), ...familyTags];
  for (const family of families.keys()) delete pathItems[family];
  if (Object.keys(pathItems).length === 0) delete components.pathItems;
}

function sortKey(kind: string): string {
  const [phase, , resource, action] = kind.split(".");
  return `${resource} ${phase === "historical" ? 0 : action === "created" ? 1 : 2}`;
}
