// The generated client sends each operation the credential its contract names, and lets a call's own header win.
import { describe, expect, it } from "vitest";
import { createClient, operationCredentials } from "../generated/client.js";
import { operations } from "./support/contract.ts";

function recordingClient(credentials: { apiKey?: string; linkToken?: string }) {
  const seen: Request[] = [];
  const api = createClient({
    baseUrl: "http://client.invalid",
    ...credentials,
    fetch: async (request: Request) => {
      seen.push(request);
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    },
  });
  return { api, seen };
}

describe("createClient", () => {
  it("knows the credential of every operation of the contract", () => {
    expect(Object.keys(operationCredentials).sort()).toEqual(operations.map((op) => `${op.method} ${op.template}`).sort());
  });

  it("sends x-svc-api-key, and no link token, to a team operation", async () => {
    const { api, seen } = recordingClient({ apiKey: "sk_test_a", linkToken: "lt_test_b" });
    await api.GET("/v3/lab_tests/labs");
    expect(seen[0]!.headers.get("x-svc-api-key")).toBe("sk_test_a");
    expect(seen[0]!.headers.get("x-svc-link-token")).toBeNull();
  });

  it("sends x-svc-link-token, and no API key, to complete MFA", async () => {
    const { api, seen } = recordingClient({ apiKey: "sk_test_a", linkToken: "lt_test_b" });
    await api.POST("/v2/link/provider/password/{provider}/complete_mfa", { params: { path: { provider: "whoop" } }, body: { mfa_code: "1" } });
    expect(seen[0]!.headers.get("x-svc-link-token")).toBe("lt_test_b");
    expect(seen[0]!.headers.get("x-svc-api-key")).toBeNull();
  });

  it("lets a header set on the call override the client's credential", async () => {
    const { api, seen } = recordingClient({ apiKey: "sk_test_a" });
    await api.GET("/v3/lab_tests/labs", { headers: { "x-svc-api-key": "sk_test_other_team" } });
    expect(seen[0]!.headers.get("x-svc-api-key")).toBe("sk_test_other_team");
  });

  it("sends no credential header when it has none", async () => {
    const { api, seen } = recordingClient({});
    await api.GET("/v3/lab_tests/labs");
    expect(seen[0]!.headers.get("x-svc-api-key")).toBeNull();
  });
});
