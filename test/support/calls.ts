// One valid call per operation, made through the generated clients, so generic tests can reach every operation and branch.
import type { SvcClient } from "../../generated/client/index.js";
import type { ManagementClient } from "../../generated/management/index.js";
import type { bareClient } from "./mock.ts";
import { operation, requestExample } from "./contract.ts";

export const USER_ID = "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f";
/** The second user of the examples' story (patient-0002), whose deletion they follow. */
export const SECOND_USER_ID = "8d2e4f6a-1b3c-4d5e-9f7a-2b4c6d8e0f1a";
export const ORDER_ID = "7a1d9c3b-2e4f-4a6b-8c0d-1e2f3a4b5c6d";
export const LAB_TEST_ID = "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b";
export const TEAM_ID = "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";
export const SECOND_TEAM_ID = "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b";
export const API_KEY_ID = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f";
export const MANAGEMENT_KEY_ID = "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
export const WEBHOOK_ID = "1e2d3c4b-5a69-4788-9a0b-c1d2e3f4a5b6";
export const PIPELINE_ID = "8f7e6d5c-4b3a-4291-8a0b-1c2d3e4f5a6b";

const team = { team_id: TEAM_ID };

/** The six summary operations of 4.14, one per resource. */
export const SUMMARY_OPERATIONS = [
  "listActivitySummaries",
  "listBodySummaries",
  "listMealSummaries",
  "listProfileSummaries",
  "listSleepSummaries",
  "listWorkoutSummaries",
] as const;

export interface CallInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
}

/** A valid request for every operation of the contract, keyed by operationId. */
export const VALID_CALLS: Record<string, CallInit> = {
  createLinkToken: { body: requestExample("createLinkToken", "any_provider") },
  bulkImportConnections: { body: requestExample("bulkImportConnections", "oura_two_users") },
  completeProviderMfa: { params: { path: { provider: "whoop" } }, body: requestExample("completeProviderMfa", "mfa_code") },
  createInsurance: { params: { path: { user_id: USER_ID } }, body: requestExample("createInsurance", "commercial_plan") },
  getLatestInsurance: { params: { path: { user_id: USER_ID } } },
  getLatestUserInfo: { params: { path: { user_id: USER_ID } } },
  createSignInToken: { params: { path: { user_id: USER_ID } } },
  listProviders: {},
  listLabTestMarkers: { params: { path: { lab_test_id: LAB_TEST_ID } } },
  listOrderSetMarkers: { body: requestExample("listOrderSetMarkers", "by_lab_tests") },
  listLabs: {},
  getOrderPscInfo: { params: { path: { order_id: ORDER_ID } } },
  getOrderPhlebotomyAppointment: { params: { path: { order_id: ORDER_ID } } },
  listOrders: {},
  createUser: { body: requestExample("createUser", "new_user") },
  deleteUser: { params: { path: { user_id: SECOND_USER_ID } } },
  undoUserDeletion: { params: { path: { user_id: SECOND_USER_ID } } },
  listBulkOps: {},
  getHistoricalPullIntrospection: {},
  ...Object.fromEntries(
    SUMMARY_OPERATIONS.map((operationId) => [operationId, { params: { path: { user_id: USER_ID }, query: { start_date: "2026-03-01", end_date: "2026-03-02" } } }]),
  ),
  getOrg: {},
  updateOrg: { body: requestExample("updateOrg", "rename") },
  listTeams: {},
  createTeam: { body: requestExample("createTeam", "research") },
  getTeam: { params: { path: team } },
  updateTeam: { params: { path: team }, body: requestExample("updateTeam", "rename") },
  deleteTeam: { params: { path: { team_id: SECOND_TEAM_ID } } },
  listTeamApiKeys: { params: { path: team } },
  createTeamApiKey: { params: { path: team }, body: requestExample("createTeamApiKey", "backend") },
  deleteTeamApiKey: { params: { path: { ...team, api_key_id: API_KEY_ID } } },
  listManagementKeys: {},
  createManagementKey: { body: requestExample("createManagementKey", "team_two_teams") },
  deleteManagementKey: { params: { path: { key_id: MANAGEMENT_KEY_ID } } },
  getTeamBrand: { params: { path: team } },
  setTeamBrand: { params: { path: team }, body: requestExample("setTeamBrand", "northwind") },
  prepareTeamCustomCredentials: { params: { path: team }, body: requestExample("prepareTeamCustomCredentials", "oura") },
  setTeamCustomCredential: { params: { path: { ...team, provider: "oura" } }, body: requestExample("setTeamCustomCredential", "oura") },
  listWebhookEndpoints: { params: { path: team } },
  createWebhookEndpoint: { params: { path: team }, body: requestExample("createWebhookEndpoint", "daily_data") },
  getWebhookEndpoint: { params: { path: { ...team, webhook_id: WEBHOOK_ID } } },
  updateWebhookEndpoint: { params: { path: { ...team, webhook_id: WEBHOOK_ID } }, body: requestExample("updateWebhookEndpoint", "disable") },
  deleteWebhookEndpoint: { params: { path: { ...team, webhook_id: WEBHOOK_ID } } },
  rotateWebhookEndpointSecret: { params: { path: { ...team, webhook_id: WEBHOOK_ID } } },
  listEtlPipelines: { params: { path: team } },
  createEtlPipeline: { params: { path: team }, body: requestExample("createEtlPipeline", "event_hub_routing") },
  getEtlPipeline: { params: { path: { ...team, pipeline_id: PIPELINE_ID } } },
  updateEtlPipeline: { params: { path: { ...team, pipeline_id: PIPELINE_ID } }, body: requestExample("updateEtlPipeline", "disable") },
  deleteEtlPipeline: { params: { path: { ...team, pipeline_id: PIPELINE_ID } } },
};

export interface CallResult {
  status: number;
  data: unknown;
  error: unknown;
  response: Response;
}

/** Calls an operation by its id through a package client (or bare openapi-fetch), with its valid call merged with `init`. */
export async function callOperation(api: SvcClient | ManagementClient | ReturnType<typeof bareClient>, operationId: string, init: CallInit = {}): Promise<CallResult> {
  const { method, template } = operation(operationId);
  const base = VALID_CALLS[operationId] ?? {};
  const merged = {
    params: { path: { ...base.params?.path, ...init.params?.path }, query: { ...base.params?.query, ...init.params?.query } },
    ...("body" in init ? { body: init.body } : "body" in base ? { body: base.body } : {}),
    headers: { ...base.headers, ...init.headers },
  };
  // The table is keyed by operationId at run time; the client's per-path types cannot follow that.
  const send = (api as unknown as Record<string, (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>>)[method];
  const { data, error, response } = await send!(template, merged);
  return { status: response.status, data, error, response };
}
