// The README's client example, kept identical by test/readme.test.ts and type-checked by test/typecheck.test.ts.
import { createClient } from "@svc/health-api-contract/client";

const api = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: process.env.SVC_API_KEY });

const { data, error, response } = await api.GET("/v3/lab_tests/{lab_test_id}/markers", {
  params: { path: { lab_test_id: "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b" }, query: { page: 1, size: 50 } },
});
if (error) {
  // Every error has the same typed body: error.code ("invalid_request", "not_found", ...),
  // error.message, and error.details for invalid input.
  console.error(response.status, error.code, error.details);
} else {
  console.log(data.markers.map((marker) => marker.name));
}

// Completing provider MFA takes the link token instead of the API key.
const link = createClient({ baseUrl: "http://127.0.0.1:4010", linkToken: "lt_from_createLinkToken" });
await link.POST("/v2/link/provider/password/{provider}/complete_mfa", {
  params: { path: { provider: "whoop" } },
  body: { mfa_code: "123456" },
});
