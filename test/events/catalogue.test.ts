// The contract's webhooks: every data resource × kind, the deprecated hypnogram events, the connection event, one shared
// path item per family, and every kind's example payload valid against its schema, with no `is_final` anywhere.
import { describe, expect, it } from "vitest";
import { deref } from "../../src/contract/operations.ts";
import { examplePayloads } from "../../scripts/commands/send-events.ts";
import { createContractAjv, anchorRefs } from "../../src/contract/ajv.ts";
import { walkObjects, type JsonObject } from "../../src/contract/json.ts";
import { contract, webhookKinds } from "../support/contract.ts";

const webhooks = contract.webhooks as Record<string, JsonObject>;
const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;
const providerResources = (schemas.ProviderResource!.anyOf as JsonObject[]).find((b) => Array.isArray(b.enum))!.enum as string[];

/** The resources of 2.9 that have no data events, each for the reason the Events tag gives. */
const WITHOUT_DATA_EVENTS = [
  "connection",
  "order",
  "result",
  "match_review",
  "appointment",
  "device",
  "device_legacy",
  "workout_stream",
  "sleep_stream",
  "note",
  "hypnogram",
];
const DATA_RESOURCES = providerResources.filter((resource) => !WITHOUT_DATA_EVENTS.includes(resource));
const SUMMARIES = ["activity", "body", "meal", "profile", "sleep", "workouts", "sleep_cycle", "menstrual_cycle", "electrocardiogram"];

function family(kind: string): string {
  return String(webhooks[kind]!.$ref).replace("#/components/pathItems/", "");
}

function bodySchema(kind: string): JsonObject {
  const operation = deref(contract, webhooks[kind]).post as JsonObject;
  return ((deref(contract, operation.requestBody).content as JsonObject)["application/json"] as JsonObject).schema as JsonObject;
}

describe("webhooks (section 6)", () => {
  it("leave out only the resources the Events tag says have no data events, all of them real resources", () => {
    expect(providerResources).toEqual(expect.arrayContaining(WITHOUT_DATA_EVENTS));
    const tag = (contract.tags as JsonObject[]).find((t) => t.name === "Events")!;
    for (const resource of WITHOUT_DATA_EVENTS) expect(String(tag.description)).toContain(`\`${resource}\``);
  });

  for (const resource of DATA_RESOURCES) {
    it(`has the three data events of ${resource}, in the ${SUMMARIES.includes(resource) ? "summary" : "timeseries"} family`, () => {
      for (const kind of [`historical.data.${resource}.created`, `daily.data.${resource}.created`, `daily.data.${resource}.updated`]) {
        expect(webhooks[kind], kind).toBeDefined();
        expect(family(kind)).toBe(SUMMARIES.includes(resource) ? "SummaryEvent" : "TimeseriesEvent");
      }
    });
  }

  it("has no other data events", () => {
    const dataKinds = Object.keys(webhooks).filter((kind) => kind.includes(".data."));
    expect(dataKinds.length).toBe(DATA_RESOURCES.length * 3);
  });

  it("marks the hypnogram timeseries events deprecated, naming the sleep cycle events", () => {
    for (const kind of ["historical.timeseries.hypnogram.created", "daily.timeseries.hypnogram.created", "daily.timeseries.hypnogram.updated"]) {
      const operation = deref(contract, webhooks[kind]).post as JsonObject;
      expect(operation.deprecated, kind).toBe(true);
      expect(String(operation.description)).toMatch(/^Deprecated: .*sleep_cycle/s);
    }
  });

  it("has provider.connection.created with provider, and source deprecated", () => {
    const data = deref(contract, (schemas.ProviderConnectionCreatedEvent!.properties as JsonObject).data);
    expect(data.required).toContain("provider");
    expect(deref(contract, (data.properties as JsonObject).source).deprecated).toBe(true);
  });

  it("shares one path item per family: every webhook is a reference to components.pathItems", () => {
    expect(Object.values(webhooks).every((item) => typeof item.$ref === "string" && item.$ref.startsWith("#/components/pathItems/"))).toBe(true);
    expect(new Set(Object.keys(webhooks).map(family))).toEqual(
      new Set(["SummaryEvent", "TimeseriesEvent", "HypnogramEvent", "ProviderConnectionCreatedEvent"]),
    );
  });

  it("gives every event the envelope: event_type, team_id, user_id, client_user_id and data", () => {
    for (const name of [
      "TimeseriesEvent",
      "HypnogramEvent",
      "ProviderConnectionCreatedEvent",
      ...SUMMARIES.map(
        (r) =>
          `${r
            .split("_")
            .map((p) => p[0]!.toUpperCase() + p.slice(1))
            .join("")}Event`,
      ),
    ]) {
      expect(schemas[name]?.required, name).toEqual(["event_type", "team_id", "user_id", "client_user_id", "data"]);
    }
  });

  it("never names is_final, so no schema can require it (rule 5)", () => {
    walkObjects(contract, (node, pointer) => {
      if (Array.isArray(node.required)) expect(node.required, pointer).not.toContain("is_final");
      if (node.properties && typeof node.properties === "object") expect(Object.keys(node.properties), pointer).not.toContain("is_final");
    });
  });

  it("describes the source with provider, type and optional app_id, and name, logo and slug deprecated (rules 2, 3)", () => {
    const source = schemas.Source!;
    expect(source.required).toEqual(["provider", "type"]);
    const properties = source.properties as Record<string, JsonObject>;
    expect(Object.keys(properties)).toContain("app_id");
    for (const field of ["name", "logo", "slug"]) expect(properties[field]!.deprecated, field).toBe(true);
  });

  describe("every kind's example payload", () => {
    const ajv = createContractAjv(contract);
    const payloads = examplePayloads(contract);
    for (const kind of webhookKinds) {
      it(`${kind} validates against its schema`, () => {
        const validate = ajv.compile(anchorRefs(structuredClone(bodySchema(kind))) as object);
        const payload = payloads.get(kind)!;
        expect(payload.event_type).toBe(kind);
        expect(validate(payload) ? [] : validate.errors).toEqual([]);
      });
    }
  });
});
