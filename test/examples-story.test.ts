// The examples tell one story: lab slugs are listed LabSlugs, the PSC answer's lab is in the lab list, an appointment comes after its order, and no uuid names two kinds of thing.
import { describe, expect, it } from "vitest";
import { contract } from "./support/contract.ts";
import { isObject, type JsonObject } from "../src/contract/json.ts";

const components = contract.components as JsonObject;
/** Every named example of the bundle, by component name (`<Schema>_<case>`). */
const examples = Object.fromEntries(Object.entries(components.examples as JsonObject).map(([name, example]) => [name, (example as JsonObject).value]));
const parameters = Object.values(components.parameters as JsonObject) as JsonObject[];
const named = (prefix: string) => Object.entries(examples).filter(([name]) => name.startsWith(prefix));

const ANY_DELETED = "any deleted resource";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a uuid under this key names. `id` names the thing the example is: an order in an order page, an appointment. */
const KIND_BY_KEY: Record<string, string> = {
  user_id: "user",
  user_ids_imported: "user",
  user_ids_failed: "user",
  order_id: "order",
  lab_test_id: "lab test",
  lab_test_ids: "lab test",
  lab_account_id: "lab account",
  order_transaction_id: "order transaction",
  team_id: "team",
  team_ids: "team",
  org_id: "org",
  webhook_id: "webhook endpoint",
  sleep_id: "sleep summary",
  api_key_id: "team api key",
  key_id: "management key",
  pipeline_id: "etl pipeline",
};
const KIND_OF_ID_BY_EXAMPLE: Record<string, string> = {
  OrderPage: "order",
  PhlebotomyAppointment: "appointment",
  BulkOpPage: "bulk op",
  Org: "org",
  Team: "team",
  Teams: "team",
  TeamApiKeyCreated: "team api key",
  TeamApiKeys: "team api key",
  ManagementKeyCreated: "management key",
  ManagementKeys: "management key",
  WebhookEndpoint: "webhook endpoint",
  WebhookEndpointCreated: "webhook endpoint",
  WebhookEndpoints: "webhook endpoint",
  EtlPipeline: "etl pipeline",
  EtlPipelines: "etl pipeline",
  ActivitySummaryList: "activity summary",
  BodySummaryList: "body summary",
  MealSummaryList: "meal summary",
  ProfileSummaryList: "profile summary",
  SleepSummaryList: "sleep summary",
  WorkoutSummaryList: "workouts summary",
  // A deletion answers with the id of whatever it deleted (a team, a key, a webhook endpoint, a pipeline).
  Deletion: ANY_DELETED,
};

/** The kind of an `id` in an event example: what its data is (`SummaryEvent_activity` carries an activity summary). */
function eventDataKind(example: string): string | undefined {
  const resource = /^SummaryEvent_(.+)$/.exec(example)?.[1];
  if (resource === undefined) return undefined;
  return ["activity", "body", "meal", "profile", "sleep", "workouts"].includes(resource) ? `${resource} summary` : resource.replaceAll("_", " ");
}

/** The ids the project's examples share (the brief's story): each must keep its kind wherever it appears. */
const STORY: Record<string, string> = {
  "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f": "user",
  "8d2e4f6a-1b3c-4d5e-9f7a-2b4c6d8e0f1a": "user",
  "7a1d9c3b-2e4f-4a6b-8c0d-1e2f3a4b5c6d": "order",
  "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b": "lab test",
};

interface Use {
  uuid: string;
  kind: string;
  where: string;
}

function uuidUses(value: unknown, where: string, schema: string, key = ""): Use[] {
  if (typeof value === "string") {
    if (!UUID.test(value)) return [];
    const kind = key === "id" ? (KIND_OF_ID_BY_EXAMPLE[schema] ?? eventDataKind(where.split("/")[0]!)) : KIND_BY_KEY[key];
    return [{ uuid: value.toLowerCase(), kind: kind ?? `unclassified (${key || "top level"})`, where }];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => uuidUses(item, `${where}/${index}`, schema, key));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => uuidUses(v, `${where}/${k}`, schema, k));
  return [];
}

const uses: Use[] = [
  ...Object.entries(examples).flatMap(([name, value]) => uuidUses(value, name, name.split("_")[0]!)),
  ...parameters.flatMap((parameter) => uuidUses(parameter.example, `parameter ${String(parameter.name)}`, "", String(parameter.name))),
];

const labSlugs = (((components.schemas as JsonObject).LabSlug as JsonObject).anyOf as JsonObject[]).find((branch) => Array.isArray(branch.enum))!
  .enum as string[];
const labs = named("Labs_").flatMap(([, value]) => value as JsonObject[]);
const orders = new Map<string, JsonObject>();
for (const [, page] of named("OrderPage_")) for (const order of (page as JsonObject).orders as JsonObject[]) orders.set(String(order.id), order);

describe("the examples' story", () => {
  it("classifies every uuid of every example by what it names", () => {
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.filter((use) => use.kind.startsWith("unclassified"))).toEqual([]);
  });

  it("uses no uuid for two different kinds of thing", () => {
    const kinds = new Map<string, Set<string>>();
    for (const use of uses.filter((u) => u.kind !== ANY_DELETED)) kinds.set(use.uuid, (kinds.get(use.uuid) ?? new Set()).add(use.kind));
    const reused = [...kinds].filter(([, set]) => set.size > 1).map(([uuid, set]) => `${uuid}: ${[...set].join(", ")}`);
    expect(reused).toEqual([]);
  });

  it("keeps the shared ids (users, the order, the lab test) as what they are", () => {
    for (const use of uses.filter((u) => u.uuid in STORY)) expect(use.kind, use.where).toBe(STORY[use.uuid]);
    for (const uuid of Object.keys(STORY))
      expect(
        uses.some((use) => use.uuid === uuid),
        `${uuid} appears in no example`,
      ).toBe(true);
  });

  it("names only listed LabSlug values as lab slugs", () => {
    const slugs = [...labs.map((lab) => lab.slug), ...named("PscInfo_").map(([, info]) => (info as JsonObject).slug)];
    expect(slugs.length).toBeGreaterThan(0);
    for (const slug of slugs) expect(labSlugs, String(slug)).toContain(slug);
  });

  it("answers patient service centers for a lab of the lab list", () => {
    for (const [name, info] of named("PscInfo_")) {
      const { lab_id, slug } = info as JsonObject;
      expect(
        labs.some((lab) => lab.id === lab_id && lab.slug === slug),
        `${name}: lab ${String(lab_id)} ${String(slug)}`,
      ).toBe(true);
    }
  });

  it("dates every appointment and its events after its order was created, for the order's user", () => {
    const appointments = named("PhlebotomyAppointment_");
    expect(appointments.length).toBeGreaterThan(0);
    for (const [name, value] of appointments) {
      const appointment = value as JsonObject;
      const order = orders.get(String(appointment.order_id));
      expect(order, `${name}: order ${String(appointment.order_id)} is in no order example`).toBeDefined();
      expect(appointment.user_id, name).toBe(order!.user_id);
      const created = Date.parse(String(order!.created_at));
      const times = [appointment.start_at, appointment.end_at, ...(appointment.events as JsonObject[]).map((event) => event.created_at)].filter(
        (time): time is string => typeof time === "string",
      );
      for (const time of times) expect(Date.parse(time), `${name}: ${time} is not after ${String(order!.created_at)}`).toBeGreaterThan(created);
    }
  });
});
