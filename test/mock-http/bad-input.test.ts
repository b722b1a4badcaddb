// Bad input gets a typed JSON error from the mock through the generated client: 401 without a credential, 422 with details otherwise, never 5xx.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, contract, operation, operations, requestExample } from "../support/contract.ts";
import { callOperation, SUMMARY_OPERATIONS, type CallInit } from "../support/calls.ts";
import { bareClient, clientFor, TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY } from "../support/mock.ts";

const NOT_A_UUID = "not-a-uuid";
const malformedTeamId = { what: "a malformed team_id", init: { params: { path: { team_id: NOT_A_UUID } } }, names: { location: "path", field: "team_id" } };

interface BadInput {
  what: string;
  init: CallInit;
  /** The error detail the response must name: location and field. */
  names: { location: string; field: string };
}

function bodyWith(operationId: string, example: string, change: (body: Record<string, unknown>) => void): unknown {
  const body = structuredClone(requestExample(operationId, example)) as Record<string, unknown>;
  change(body);
  return body;
}

/** For each operation that takes input, the invalid inputs it must refuse. */
const BAD_INPUTS: Record<string, BadInput[]> = {
  createInsurance: [
    {
      what: "a missing required body field",
      init: { body: bodyWith("createInsurance", "commercial_plan", (b) => delete b.member_id) },
      names: { location: "body", field: "/member_id" },
    },
    // An unlisted relationship is accepted (the enumeration is non-exhaustive; unlisted-values.test.ts); a non-string is not.
    {
      what: "a relationship that is not a string",
      init: { body: bodyWith("createInsurance", "commercial_plan", (b) => (b.relationship = 42)) },
      names: { location: "body", field: "/relationship" },
    },
    {
      what: "a malformed date",
      init: { body: bodyWith("createInsurance", "commercial_plan", (b) => ((b.insured as Record<string, unknown>).dob = "01/02/1990")) },
      names: { location: "body", field: "/insured/dob" },
    },
  ],
  getLatestInsurance: [
    { what: "a non-boolean is_primary", init: { params: { query: { is_primary: "maybe" } } }, names: { location: "query", field: "is_primary" } },
  ],
  createSignInToken: [{ what: "a malformed uuid", init: { params: { path: { user_id: NOT_A_UUID } } }, names: { location: "path", field: "user_id" } }],
  listLabTestMarkers: [
    { what: "a malformed uuid", init: { params: { path: { lab_test_id: NOT_A_UUID } } }, names: { location: "path", field: "lab_test_id" } },
    { what: "page 0", init: { params: { query: { page: 0 } } }, names: { location: "query", field: "page" } },
    { what: "size 101", init: { params: { query: { size: 101 } } }, names: { location: "query", field: "size" } },
    { what: "size 0", init: { params: { query: { size: 0 } } }, names: { location: "query", field: "size" } },
    { what: "a malformed lab_account_id", init: { params: { query: { lab_account_id: NOT_A_UUID } } }, names: { location: "query", field: "lab_account_id" } },
  ],
  listOrderSetMarkers: [
    { what: "page 0", init: { params: { query: { page: 0 } } }, names: { location: "query", field: "page" } },
    { what: "size 101", init: { params: { query: { size: 101 } } }, names: { location: "query", field: "size" } },
    { what: "a malformed uuid in lab_test_ids", init: { body: { lab_test_ids: [NOT_A_UUID] } }, names: { location: "body", field: "/lab_test_ids/0" } },
    { what: "an add_on without provider_ids", init: { body: { add_on: {} } }, names: { location: "body", field: "/add_on/provider_ids" } },
  ],
  getOrderPscInfo: [
    { what: "a malformed uuid", init: { params: { path: { order_id: NOT_A_UUID } } }, names: { location: "path", field: "order_id" } },
    { what: "a radius that is not one of the allowed miles", init: { params: { query: { radius: 30 } } }, names: { location: "query", field: "radius" } },
  ],
  getOrderPhlebotomyAppointment: [
    { what: "a malformed uuid", init: { params: { path: { order_id: NOT_A_UUID } } }, names: { location: "path", field: "order_id" } },
  ],
  listOrders: [{ what: "page 0", init: { params: { query: { page: 0 } } }, names: { location: "query", field: "page" } }],
  createLinkToken: [
    {
      what: "an empty filter_on_providers",
      init: { body: bodyWith("createLinkToken", "any_provider", (b) => (b.filter_on_providers = [])) },
      names: { location: "body", field: "/filter_on_providers" },
    },
    // The provider slugs are the package's guess (only their number is shown, 4.5), so an unlisted slug is accepted; a non-string is not.
    {
      what: "a provider that is not a string",
      init: { body: bodyWith("createLinkToken", "any_provider", (b) => (b.provider = 42)) },
      names: { location: "body", field: "/provider" },
    },
    {
      what: "a malformed user_id",
      init: { body: bodyWith("createLinkToken", "any_provider", (b) => (b.user_id = NOT_A_UUID)) },
      names: { location: "body", field: "/user_id" },
    },
    {
      what: "a missing user_id",
      init: { body: bodyWith("createLinkToken", "any_provider", (b) => delete b.user_id) },
      names: { location: "body", field: "/user_id" },
    },
    {
      what: "an on_close other than redirect",
      init: { body: bodyWith("createLinkToken", "any_provider", (b) => (b.on_close = "close")) },
      names: { location: "body", field: "/on_close" },
    },
  ],
  bulkImportConnections: [
    {
      what: "a provider that is not a string",
      init: { body: bodyWith("bulkImportConnections", "oura_two_users", (b) => (b.provider = ["oura"])) },
      names: { location: "body", field: "/provider" },
    },
    {
      what: "a missing connections field",
      init: { body: bodyWith("bulkImportConnections", "oura_two_users", (b) => delete b.connections) },
      names: { location: "body", field: "/connections" },
    },
    {
      what: "a malformed user_id in a connection",
      init: { body: bodyWith("bulkImportConnections", "oura_two_users", (b) => ((b.connections as Record<string, unknown>[])[0]!.user_id = NOT_A_UUID)) },
      names: { location: "body", field: "/connections/0/user_id" },
    },
  ],
  // The client would send an array as the parameter repeated; the contract takes one source type.
  listProviders: [
    { what: "a repeated source_type", init: { params: { query: { source_type: ["app", "device"] } } }, names: { location: "query", field: "source_type" } },
  ],
  completeProviderMfa: [{ what: "a missing mfa_code", init: { body: {} }, names: { location: "body", field: "/mfa_code" } }],
  createUser: [
    { what: "a missing client_user_id", init: { body: {} }, names: { location: "body", field: "/client_user_id" } },
    { what: "an empty client_user_id", init: { body: { client_user_id: "" } }, names: { location: "body", field: "/client_user_id" } },
    { what: "a client_user_id that is not a string", init: { body: { client_user_id: 1 } }, names: { location: "body", field: "/client_user_id" } },
  ],
  deleteUser: [{ what: "a malformed uuid", init: { params: { path: { user_id: NOT_A_UUID } } }, names: { location: "path", field: "user_id" } }],
  undoUserDeletion: [{ what: "a malformed uuid", init: { params: { path: { user_id: NOT_A_UUID } } }, names: { location: "path", field: "user_id" } }],
  listBulkOps: [
    { what: "page 0", init: { params: { query: { page: 0 } } }, names: { location: "query", field: "page" } },
    { what: "size 101", init: { params: { query: { size: 101 } } }, names: { location: "query", field: "size" } },
  ],
  getHistoricalPullIntrospection: [
    { what: "a malformed user_id", init: { params: { query: { user_id: NOT_A_UUID } } }, names: { location: "query", field: "user_id" } },
    { what: "a provider that is not a slug", init: { params: { query: { provider: "Oura Ring" } } }, names: { location: "query", field: "provider" } },
    { what: "size 0", init: { params: { query: { size: 0 } } }, names: { location: "query", field: "size" } },
  ],
  ...Object.fromEntries(
    SUMMARY_OPERATIONS.map((operationId): [string, BadInput[]] => [
      operationId,
      [
        { what: "no start_date", init: { params: { query: { start_date: undefined } } }, names: { location: "query", field: "start_date" } },
        {
          what: "a start_date that is not YYYY-MM-DD",
          init: { params: { query: { start_date: "03/01/2026" } } },
          names: { location: "query", field: "start_date" },
        },
        { what: "an end_date that is not a date", init: { params: { query: { end_date: "yesterday" } } }, names: { location: "query", field: "end_date" } },
        { what: "a malformed user_id", init: { params: { path: { user_id: NOT_A_UUID } } }, names: { location: "path", field: "user_id" } },
        { what: "a provider that is not a slug", init: { params: { query: { provider: "Oura Ring" } } }, names: { location: "query", field: "provider" } },
      ],
    ]),
  ),
  // The management API (provisional shapes).
  updateOrg: [
    { what: "an empty name", init: { body: { name: "" } }, names: { location: "body", field: "/name" } },
    { what: "a body that changes nothing", init: { body: {} }, names: { location: "body", field: "" } },
  ],
  createTeam: [{ what: "a missing name", init: { body: {} }, names: { location: "body", field: "/name" } }],
  getTeam: [malformedTeamId],
  updateTeam: [malformedTeamId, { what: "a name over 200 characters", init: { body: { name: "n".repeat(201) } }, names: { location: "body", field: "/name" } }],
  deleteTeam: [malformedTeamId],
  listTeamApiKeys: [malformedTeamId],
  createTeamApiKey: [malformedTeamId, { what: "a missing label", init: { body: {} }, names: { location: "body", field: "/label" } }],
  deleteTeamApiKey: [
    { what: "a malformed api_key_id", init: { params: { path: { api_key_id: NOT_A_UUID } } }, names: { location: "path", field: "api_key_id" } },
  ],
  createManagementKey: [
    { what: "a team key without team_ids", init: { body: { kind: "team", label: "No teams" } }, names: { location: "body", field: "/team_ids" } },
    {
      what: "a team key with an empty team_ids",
      init: { body: { kind: "team", label: "No teams", team_ids: [] } },
      names: { location: "body", field: "/team_ids" },
    },
    { what: "an unknown kind", init: { body: { kind: "admin", label: "Admin" } }, names: { location: "body", field: "/kind" } },
    { what: "a malformed team id", init: { body: { kind: "team", label: "Bad", team_ids: [NOT_A_UUID] } }, names: { location: "body", field: "/team_ids/0" } },
  ],
  deleteManagementKey: [{ what: "a malformed key_id", init: { params: { path: { key_id: NOT_A_UUID } } }, names: { location: "path", field: "key_id" } }],
  getTeamBrand: [malformedTeamId],
  setTeamBrand: [
    {
      what: "a colour that is not #RRGGBB",
      init: { body: bodyWith("setTeamBrand", "northwind", (b) => (b.primary_color = "blue")) },
      names: { location: "body", field: "/primary_color" },
    },
    {
      what: "a missing display_name",
      init: { body: bodyWith("setTeamBrand", "northwind", (b) => delete b.display_name) },
      names: { location: "body", field: "/display_name" },
    },
  ],
  prepareTeamCustomCredentials: [
    malformedTeamId,
    { what: "a provider that is not a string", init: { body: { provider: 1 } }, names: { location: "body", field: "/provider" } },
  ],
  setTeamCustomCredential: [
    { what: "a missing client_secret", init: { body: { client_id: "northwind-oura-client-0001" } }, names: { location: "body", field: "/client_secret" } },
  ],
  listWebhookEndpoints: [malformedTeamId],
  createWebhookEndpoint: [
    {
      what: "a url that is not https",
      init: { body: bodyWith("createWebhookEndpoint", "daily_data", (b) => (b.url = "http://hooks.northwind.example/svc/events")) },
      names: { location: "body", field: "/url" },
    },
    {
      what: "an empty event_types",
      init: { body: bodyWith("createWebhookEndpoint", "daily_data", (b) => (b.event_types = [])) },
      names: { location: "body", field: "/event_types" },
    },
    {
      what: "a custom header that replaces the signature",
      init: { body: bodyWith("createWebhookEndpoint", "daily_data", (b) => (b.headers = { "webhook-signature": "v1,forged" })) },
      names: { location: "body", field: "/headers" },
    },
  ],
  getWebhookEndpoint: [
    { what: "a malformed webhook_id", init: { params: { path: { webhook_id: NOT_A_UUID } } }, names: { location: "path", field: "webhook_id" } },
  ],
  updateWebhookEndpoint: [
    { what: "a body that changes nothing", init: { body: {} }, names: { location: "body", field: "" } },
    { what: "a non-boolean enabled", init: { body: { enabled: "no" } }, names: { location: "body", field: "/enabled" } },
  ],
  deleteWebhookEndpoint: [
    { what: "a malformed webhook_id", init: { params: { path: { webhook_id: NOT_A_UUID } } }, names: { location: "path", field: "webhook_id" } },
  ],
  rotateWebhookEndpointSecret: [
    { what: "a malformed webhook_id", init: { params: { path: { webhook_id: NOT_A_UUID } } }, names: { location: "path", field: "webhook_id" } },
  ],
  listEtlPipelines: [malformedTeamId],
  createEtlPipeline: [
    {
      what: "a destination without its shared access key",
      init: { body: bodyWith("createEtlPipeline", "event_hub_routing", (b) => delete (b.destination as Record<string, unknown>).shared_access_key) },
      names: { location: "body", field: "/destination/shared_access_key" },
    },
    {
      what: "a destination type that is not a string",
      init: { body: bodyWith("createEtlPipeline", "event_hub_routing", (b) => ((b.destination as Record<string, unknown>).type = null)) },
      names: { location: "body", field: "/destination/type" },
    },
  ],
  getEtlPipeline: [
    { what: "a malformed pipeline_id", init: { params: { path: { pipeline_id: NOT_A_UUID } } }, names: { location: "path", field: "pipeline_id" } },
  ],
  updateEtlPipeline: [
    {
      what: "a route with an empty prefix",
      init: { body: { routes: [{ event_type_prefix: "", event_hub: "daily-data" }] } },
      names: { location: "body", field: "/routes/0/event_type_prefix" },
    },
  ],
  deleteEtlPipeline: [
    { what: "a malformed pipeline_id", init: { params: { path: { pipeline_id: NOT_A_UUID } } }, names: { location: "path", field: "pipeline_id" } },
  ],
};

// The package's client refuses these before sending; bare openapi-fetch sends them as a careless caller would.
describe("no credential", () => {
  for (const op of operations) {
    it(`${op.method} ${op.template} answers 401 with a JSON error body`, async () => {
      const result = await callOperation(bareClient(), op.operationId);
      expect(result.status).toBe(401);
      expect(result.error).toMatchObject({ code: "unauthorized" });
      assertMatchesContract(op.operationId, 401, result.error);
    });
  }

  it("refuses the team API key where only the link token is accepted", async () => {
    const result = await callOperation(bareClient({ "x-svc-api-key": TEST_API_KEY }), "completeProviderMfa");
    expect(result.status).toBe(401);
    expect(String((result.error as { message: string }).message)).toContain("x-svc-link-token");
  });

  // Each kind of credential, by scheme: an operation refuses every header that none of its security alternatives names.
  const schemes = (contract.components as { securitySchemes: Record<string, { name: string }> }).securitySchemes;
  const CREDENTIAL_VALUES: Record<string, string> = {
    TeamApiKey: TEST_API_KEY,
    LinkToken: TEST_LINK_TOKEN,
    ManagementKey: TEST_MANAGEMENT_KEY,
    OrgKey: TEST_MANAGEMENT_KEY,
  };
  for (const op of operations) {
    const accepted = new Set(op.securityAlternatives.flat());
    const others = Object.fromEntries(
      Object.entries(schemes)
        .filter(([name]) => !accepted.has(name))
        .map(([name, scheme]) => [scheme.name, CREDENTIAL_VALUES[name]!]),
    );
    const wanted = schemes[op.securitySchemes[0]!]!.name.toLowerCase();
    it(`${op.method} ${op.template} refuses every other kind of credential with 401 naming ${wanted}`, async () => {
      const result = await callOperation(bareClient(others), op.operationId);
      expect(result.status).toBe(401);
      expect(result.error).toMatchObject({ code: "unauthorized" });
      expect(String((result.error as { message: string }).message)).toContain(wanted);
      assertMatchesContract(op.operationId, 401, result.error);
    });
  }

  it("refuses the link token where the team API key is needed", async () => {
    const result = await callOperation(bareClient({ "x-svc-link-token": TEST_LINK_TOKEN }), "createLinkToken");
    expect(result.status).toBe(401);
    expect(String((result.error as { message: string }).message)).toContain("x-svc-api-key");
  });
});

describe("invalid input", () => {
  it("has bad inputs for every operation that declares 422", () => {
    const declaring = operations.filter((op) => "422" in (op.operation.responses as object)).map((op) => op.operationId);
    expect(Object.keys(BAD_INPUTS).sort()).toEqual(declaring.sort());
  });

  for (const [operationId, cases] of Object.entries(BAD_INPUTS)) {
    const op = operation(operationId);
    for (const bad of cases) {
      it(`${op.method} ${op.template} refuses ${bad.what} with 422 naming ${bad.names.location} ${bad.names.field}`, async () => {
        const result = await callOperation(clientFor(op.template), operationId, bad.init);
        expect(result.status).toBe(422);
        assertMatchesContract(operationId, 422, result.error);
        expect(result.error).toMatchObject({ code: "invalid_request" });
        expect((result.error as { details: unknown[] }).details).toContainEqual(expect.objectContaining(bad.names));
      });
    }
  }
});
