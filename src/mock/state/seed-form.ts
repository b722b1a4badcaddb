// The form of the stateful mock's seed data (`--data`, `PUT /_mock/data`, createMock's `data`): its types, and its JSON
// Schema, whose records are the contract's own components, so a seeded record is one the API could have answered.
import type { MockSeedData, MockSeedOrg, MockSeedOrgTeam, MockSeedTeam, MockSeedTeamContent, MockSeedUser } from "../public-types.ts";
import { CONTRACT_ID } from "../../contract/ajv.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import { MAX_CLOCK_MOVE_S, SETTING_BOUNDS } from "./model.ts";

export const SEED_VERSION: MockSeedData["version"] = 1;

// The seed's types are the mock entry's public ones (public-types.ts), under the names the state's code uses.
export type SeedUser = MockSeedUser;
export type SeedTeamContent = MockSeedTeamContent;
export type SeedTeam = MockSeedTeam;
export type SeedOrgTeam = MockSeedOrgTeam;
export type SeedOrg = MockSeedOrg;
export type SeedData = MockSeedData;

const component = (name: string) => ({ $ref: `${CONTRACT_ID}#/components/schemas/${name}` });
const property = (name: string, field: string) => ({ $ref: `${CONTRACT_ID}#/components/schemas/${name}/properties/${field}` });
const list = (items: object) => ({ type: "array", items });

/**
 * A record as a component gives it, plus the seed's own fields, with the request's limits where the API would have
 * refused the value (a webhook's `https://` url, a name's length). Any other field is refused: the state keeps only
 * the component's fields, and a misspelt one would otherwise be dropped without a word.
 */
function record(document: JsonObject, name: string, stricter: Record<string, object>, own: Record<string, object> = {}) {
  const schema = ((document.components as JsonObject).schemas as JsonObject)[name];
  const fields = isObject(schema) && isObject(schema.properties) ? Object.keys(schema.properties) : [];
  return {
    allOf: [component(name), { properties: stricter }],
    properties: { ...Object.fromEntries(fields.map((field) => [field, true])), ...own },
    additionalProperties: false,
  };
}

const settings = {
  type: "object",
  additionalProperties: false,
  properties: Object.fromEntries(
    Object.entries(SETTING_BOUNDS).map(([key, bounds]) => [
      key,
      bounds === "boolean" ? { type: "boolean" } : { type: "integer", minimum: bounds[0], maximum: bounds[1] },
    ]),
  ),
};

/** The seed form's JSON Schema over a contract (the stateful mock's copy, whose webhook urls may be loopback http). */
export function seedSchema(document: JsonObject): object {
  const user = record(
    document,
    "User",
    { client_user_id: property("UserCreateRequest", "client_user_id") },
    {
      deletion_requested_at: property("UserDeletion", "deletion_requested_at"),
      insurance: list(component("Insurance")),
      connections: list({ type: "object", required: ["provider"], properties: { provider: component("LinkProvider") }, additionalProperties: false }),
    },
  );
  const content = {
    settings,
    clock_offset_ms: { type: "integer", minimum: -MAX_CLOCK_MOVE_S * 1000, maximum: MAX_CLOCK_MOVE_S * 1000 },
    users: list(user),
    webhook_endpoints: list(record(document, "WebhookEndpointCreated", { url: property("WebhookEndpointCreateRequest", "url") })),
  };
  const orgTeam = record(
    document,
    "Team",
    { name: property("TeamCreateRequest", "name") },
    {
      ...content,
      api_keys: list(record(document, "TeamApiKeyCreated", { label: property("TeamApiKeyCreateRequest", "label") })),
      custom_credentials: { type: "array", uniqueItems: true, items: component("BulkImportProvider") },
      brand: { anyOf: [record(document, "TeamBrand", {}), { type: "null" }] },
      etl_pipelines: list(record(document, "EtlPipeline", { name: property("EtlPipelineCreateRequest", "name") })),
    },
  );
  return {
    type: "object",
    required: ["version"],
    additionalProperties: false,
    properties: {
      version: { const: SEED_VERSION },
      teams: list({
        type: "object",
        required: ["api_key"],
        additionalProperties: false,
        properties: {
          api_key: { type: "string", minLength: 1 },
          id: property("Team", "id"),
          name: property("TeamCreateRequest", "name"),
          created_at: property("Team", "created_at"),
          ...content,
        },
      }),
      orgs: list({
        type: "object",
        required: ["management_key"],
        additionalProperties: false,
        properties: {
          management_key: { type: "string", minLength: 1 },
          id: property("Org", "id"),
          name: property("OrgUpdateRequest", "name"),
          created_at: property("Org", "created_at"),
          teams: list(orgTeam),
          management_keys: list(record(document, "ManagementKeyCreated", { label: property("OrgManagementKeyCreateRequest", "label") })),
        },
      }),
    },
  };
}
