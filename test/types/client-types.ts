// Compiled by `npm run typecheck` (test/typecheck.test.ts): what a strict consumer of the client may write, and what it may not.
import { createClient } from "../../generated/client/index.js";
import type {
  ErrorBody,
  HttpStatus,
  InsuranceCreateRequest,
  Lab,
  LinkMfaResult,
  Marker,
  Order,
  PhlebotomyAppointment,
  Provider,
  PscInfo,
} from "../../generated/client/index.js";
import { createManagementClient } from "../../generated/management/index.js";
import type { ManagementClient, Team } from "../../generated/management/index.js";

const api = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "sk_test_example" });
const ORDER = "7a1d9c3b-2e4f-4a6b-8c0d-1e2f3a4b5c6d";

export async function answersAreTheExportedTypes(): Promise<void> {
  const labs = await api.GET("/v3/lab_tests/labs");
  if (labs.status === 200) {
    const lab: Lab = labs.data[0]!;
    // An open enumeration is a string: known values autocomplete, and string methods work.
    lab.collection_methods[0]?.toUpperCase();
    const all: Lab[] = labs.data;
    void all;
  }

  const psc = await api.GET("/v3/order/{order_id}/psc/info", { params: { path: { order_id: ORDER } } });
  if (psc.ok) {
    const info: PscInfo = psc.data;
    const slug: string = info.slug;
    slug.toUpperCase();
  }

  const appointment = await api.GET("/v3/order/{order_id}/phlebotomy/appointment", { params: { path: { order_id: ORDER } } });
  if (appointment.ok) {
    const value: PhlebotomyAppointment = appointment.data;
    void value;
  }

  const providers = await api.GET("/v2/providers");
  if (providers.ok) {
    const provider: Provider | undefined = providers.data[0];
    void provider;
  }

  const orders = await api.GET("/v3/orders");
  if (orders.ok) {
    const order: Order | undefined = orders.data.orders[0];
    void order;
  }

  // Error bodies are the contract's: no casts.
  const missing = await api.POST("/v2/user/{user_id}/sign_in_token", { params: { path: { user_id: ORDER } } });
  if (missing.status === 404) {
    const body: ErrorBody = missing.error;
    body.code.toUpperCase();
  } else if (!missing.ok && missing.status !== 401) {
    // A status the contract does not declare: the body is there, but unknown.
    const body: unknown = missing.error;
    // @ts-expect-error an undeclared status's body is not typed
    void body.code;
    void missing.error;
  }

  const mfa = await api.withCredentials({ linkToken: "lt_test" }).POST("/v2/link/provider/password/{provider}/complete_mfa", {
    params: { path: { provider: "whoop" } },
    body: { mfa_code: "123456" },
  });
  if (mfa.ok) {
    const result: LinkMfaResult = mfa.data;
    void result;
  }
}

export function aValueAddedLaterStillFits(): PscInfo {
  // A response may carry a value the service added after this package was built.
  return { lab_id: 1, slug: "a_lab_added_next_year", patient_service_centers: [] };
}

export async function bulkImportSaysWhichSuccess(): Promise<200 | 202 | undefined> {
  const answer = await api.POST("/v2/link/bulk_import", { body: { provider: "oura", connections: [] } });
  if (!answer.ok) return undefined;
  const status: 200 | 202 = answer.status;
  // @ts-expect-error bulk import declares no 201
  if (answer.status === 201) return undefined;
  return status;
}

export async function pagingYieldsItems(): Promise<void> {
  for await (const marker of api.paginate("GET", "/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: ORDER } } })) {
    const item: Marker = marker;
    void item;
  }
  for await (const order of api.paginate("GET", "/v3/orders")) {
    const item: Order = order;
    void item;
  }
}

export async function throwOnErrorReturnsSuccesses(): Promise<Lab[]> {
  const strict = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "sk_test_example", throwOnError: true });
  const answer = await strict.GET("/v3/lab_tests/labs");
  const status: 200 = answer.status;
  void status;
  return answer.data;
}

export async function credentialsAreCheckedAtCompileTime(): Promise<void> {
  // @ts-expect-error this client has no link token, which completing provider MFA takes
  await api.POST("/v2/link/provider/password/{provider}/complete_mfa", { params: { path: { provider: "whoop" } }, body: { mfa_code: "1" } });
  const linkOnly = createClient({ baseUrl: "http://127.0.0.1:4010", linkToken: "lt_test" });
  // @ts-expect-error this client has no team API key
  await linkOnly.GET("/v3/lab_tests/labs");
  // A key from the environment may be undefined at run time: the types allow it, and the call checks it.
  const fromEnv = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: process.env.SVC_API_KEY });
  await fromEnv.GET("/v3/lab_tests/labs");
  // The management API takes the management key, and the regular API does not (section 5, rule 2): each is its own entry.
  // @ts-expect-error the management API is not createClient's, whatever its credentials
  await api.GET("/v2/management/org");
  // @ts-expect-error nor is its key
  createClient({ baseUrl: "http://127.0.0.1:4010", managementKey: "mk_test_example" });
  const management = createManagementClient({ baseUrl: "http://127.0.0.1:4010", managementKey: "mk_test_example" });
  // @ts-expect-error the regular API is not createManagementClient's
  await management.GET("/v3/lab_tests/labs");
  await management.DELETE("/v2/management/teams/{team_id}", { params: { path: { team_id: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b" } } });
  const keyless = createManagementClient({ baseUrl: "http://127.0.0.1:4010" });
  // @ts-expect-error this management client has no management key
  await keyless.GET("/v2/management/org");
  // A per-call header may stand in for it at run time; the types ask for it through withCredentials.
  await keyless.withCredentials({ managementKey: "mk_test_example" }).GET("/v2/management/org");
}

export async function managementAnswersAreTyped(): Promise<ManagementClient<"managementKey", true>> {
  const management = createManagementClient({ baseUrl: "http://127.0.0.1:4010", managementKey: "mk_test_example" });
  const team = "6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b";
  const created = await management.POST("/v2/management/keys", { body: { kind: "team", label: "Ops", team_ids: [team] } });
  if (created.status === 201) void created.data.management_key.length;
  if (created.status === 403) void created.error.code;
  const endpoint = await management.PATCH("/v2/management/teams/{team_id}/webhooks/{webhook_id}", {
    params: { path: { team_id: team, webhook_id: "1e2d3c4b-5a69-4788-9a0b-c1d2e3f4a5b6" } },
    body: { enabled: false },
  });
  // @ts-expect-error a webhook endpoint read back carries no secret
  if (endpoint.status === 200) void endpoint.data.secret;
  // @ts-expect-error a team management key needs team_ids
  await management.POST("/v2/management/keys", { body: { kind: "team", label: "Ops" } });
  await management.PUT("/v2/management/teams/{team_id}/brand", {
    params: { path: { team_id: team } },
    body: { display_name: "Northwind Health", logo_url: null, primary_color: "#0B5FFF", accent_color: null, support_url: null },
  });
  const strict = createManagementClient({ baseUrl: "http://127.0.0.1:4010", managementKey: "mk_test_example", throwOnError: true });
  const teams = await strict.GET("/v2/management/teams");
  const listed: Team[] = teams.data;
  void listed;
  return strict;
}

export async function requestsAreChecked(): Promise<void> {
  // @ts-expect-error the path parameter is required
  await api.GET("/v3/order/{order_id}/psc/info");
  // @ts-expect-error the body is required
  await api.POST("/v2/link/token");
  // @ts-expect-error radius is one of 10, 20, 25, 50, 100
  await api.GET("/v3/order/{order_id}/psc/info", { params: { path: { order_id: ORDER }, query: { radius: 30 } } });
  // @ts-expect-error not a path of the contract
  await api.GET("/v3/lab_tests/lab");
  // An open enumeration takes a value added later in a request too.
  await api.POST("/v2/link/token", { body: { user_id: ORDER, provider: "a_provider_added_next_year" } });
  // access_notes appears in responses only (2.3): the insurance request's addresses have none.
  const address = { first_line: "1 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US" };
  const insured = { first_name: "A", last_name: "B", gender: "female", dob: "1990-01-01", email: "a@example.com", phone_number: "+14155550100" };
  await api.POST("/v2/user/{user_id}/insurance", {
    params: { path: { user_id: ORDER } },
    // @ts-expect-error access_notes is not part of a request's address
    body: { payor_code: "ACMEHP", member_id: "1", relationship: "Self", insured: { ...insured, address: { ...address, access_notes: "Ring." } } },
  });
  const read: InsuranceCreateRequest["insured"]["address"] = address;
  void read;
}

export function baseUrlIsRequired(): void {
  // @ts-expect-error baseUrl is required
  createClient({ apiKey: "sk_test_example" });
}

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type Spelt = `${2 | 3 | 4 | 5}${Digit}${Digit}` extends infer S ? (S extends `${infer N extends number}` ? N : never) : never;
/** Whether two unions hold the same members. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export function everyStatusIsAnHttpStatus(): void {
  // HttpStatus is written out by decade (src/client/types.ts): it is exactly 200 to 599, none left out or doubled.
  const exact: Same<HttpStatus, Spelt> = true;
  void exact;
  // @ts-expect-error 600 is no status a fetch Response carries
  const high: HttpStatus = 600;
  // @ts-expect-error nor is 199
  const low: HttpStatus = 199;
  void [high, low];
}
