// The README's client example, kept identical by test/readme.test.ts and type-checked by test/typecheck.test.ts.
import { createClient, isApiError } from "@svc/health-api-contract/client";
import { createManagementClient } from "@svc/health-api-contract/management";

const api = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: process.env.SVC_API_KEY, retry: true });

// Every answer is narrowed by its status; each declared status has the body the contract declares for it.
const answer = await api.GET("/v3/lab_tests/{lab_test_id}/markers", {
  params: { path: { lab_test_id: "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b" }, query: { page: 1, size: 50 } },
});
switch (answer.status) {
  case 200:
    console.log(answer.data.markers.map((marker) => marker.name));
    break;
  case 422:
    console.error(answer.error.code, answer.error.details);
    break;
  default:
    // 401, 404, 429, 500 (the error body), or a status the contract does not declare (a proxy's 502): typed as unknown.
    console.error(answer.status, answer.error);
}

// Every marker of a lab test, page after page.
for await (const marker of api.paginate("GET", "/v3/lab_tests/{lab_test_id}/markers", {
  params: { path: { lab_test_id: "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b" } },
})) {
  console.log(marker.slug);
}

// Bulk import says in its type whether it finished (200) or was queued (202).
const imported = await api.POST("/v2/link/bulk_import", {
  body: { provider: "oura", connections: [], wait_for_completion: true },
});
if (imported.status === 202) console.log("queued; follow it with List Bulk Ops");

// Completing provider MFA takes the link token: add it to a copy of the client.
const link = api.withCredentials({ linkToken: "lt_from_createLinkToken" });
const mfa = await link.POST("/v2/link/provider/password/{provider}/complete_mfa", {
  params: { path: { provider: "whoop" } },
  body: { mfa_code: "123456" },
});
if (mfa.ok) console.log(mfa.data.state);

// Or throw instead: only successes come back, and everything else is an ApiError.
const strict = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: process.env.SVC_API_KEY, throwOnError: true });
try {
  const labs = await strict.GET("/v3/lab_tests/labs");
  console.log(labs.data.map((lab) => lab.slug.toUpperCase()));
} catch (error) {
  if (isApiError(error)) console.error(error.status, error.code, error.operation.operationId);
  else throw error; // ApiConnectionError, ApiTimeoutError
}

// The management API is its own client, with the management key (an org's or a team's).
const management = createManagementClient({ baseUrl: "http://127.0.0.1:4010", managementKey: process.env.SVC_MANAGEMENT_KEY });
const teams = await management.GET("/v2/management/teams");
if (teams.ok) console.log(teams.data.map((team) => team.name));
