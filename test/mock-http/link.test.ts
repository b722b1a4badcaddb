// The link operations (4.4, 4.5, 4.7), called the way an application calls them through the generated client.
import { describe, expect, it } from "vitest";
import type { BulkImportRequest, LinkTokenRequest } from "../../generated/client/index.js";
import { assertMatchesContract, contract, requestExample, responseExample } from "../support/contract.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { USER_ID } from "../support/calls.ts";
import { bareClient, client, expectStatus, prefer, TEST_API_KEY, TEST_LINK_TOKEN } from "../support/mock.ts";

describe("POST /v2/link/token", () => {
  for (const name of ["any_provider", "single_provider", "filtered_with_redirects"]) {
    it(`creates a link token for the request example "${name}"`, async () => {
      const body = requestExample("createLinkToken", name) as LinkTokenRequest;
      const { data, response } = await client().POST("/v2/link/token", { body });
      expect(response.status).toBe(200);
      expect(data).toEqual(responseExample("createLinkToken", 200, "link_token"));
      expect(data?.link_web_url).toMatch(/^https:\/\//);
    });
  }

  it("accepts a provider slug the contract's list misses, since the document gives only their number (4.5)", async () => {
    const answer = await client().POST("/v2/link/token", { body: { user_id: USER_ID, provider: "a_provider_the_list_misses" } });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual(responseExample("createLinkToken", 200, "link_token"));
  });

  it("accepts one provider with redirects on error and close", async () => {
    const { response } = await client().POST("/v2/link/token", {
      body: { user_id: USER_ID, provider: "withings", redirect_url: "https://app.example.com/done", on_error: "redirect", on_close: "redirect" },
    });
    expect(response.status).toBe(200);
  });
});

describe("POST /v2/link/bulk_import", () => {
  const body = requestExample("bulkImportConnections", "oura_two_users") as BulkImportRequest;

  it("answers 202 Accepted at once by default", async () => {
    const { data, response } = await client().POST("/v2/link/bulk_import", { body });
    expect(response.status).toBe(202);
    expect(data).toEqual(responseExample("bulkImportConnections", 202, "accepted"));
  });

  it("answers 200 OK with the outcome when wait_for_completion is true and the work ends within 20 s", async () => {
    const { data, response } = await client().POST("/v2/link/bulk_import", { body: { ...body, wait_for_completion: true } });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("bulkImportConnections", 200, "completed"));
  });

  it("answers 202 when waiting ran past 20 s", async () => {
    const { response } = await client().POST("/v2/link/bulk_import", { body: { ...body, wait_for_completion: true }, ...prefer("code=202") });
    expect(response.status).toBe(202);
  });

  it("refuses a team whose bulk import is not enabled with a JSON error", async () => {
    const answer = await client().POST("/v2/link/bulk_import", { body, ...prefer("code=403") });
    expectStatus(answer, 403);
    const { error } = answer;
    expect(error?.code).toBe("feature_not_enabled");
  });
});

describe("POST /v2/link/provider/password/{provider}/complete_mfa", () => {
  const linkOnly = () => client({ linkToken: TEST_LINK_TOKEN });

  it("takes the link token, not the team API key", async () => {
    const init = { params: { path: { provider: "whoop" } }, body: { mfa_code: "123456" } } as const;
    expect((await linkOnly().POST("/v2/link/provider/password/{provider}/complete_mfa", init)).status).toBe(200);
    // The package's client will not send it with the API key alone; a caller that does gets 401.
    const withApiKey = await bareClient({ "x-svc-api-key": TEST_API_KEY }).POST("/v2/link/provider/password/{provider}/complete_mfa", init);
    expect(withApiKey.response.status).toBe(401);
  });

  for (const [name, state] of [
    ["success", "success"],
    ["pending_provider_mfa", "pending_provider_mfa"],
    ["error_incorrect_mfa_code", "error"],
    ["error_token_expired", "error"],
  ] as const) {
    it(`reports the ${name} branch with state ${state}`, async () => {
      const { data, response } = await linkOnly().POST("/v2/link/provider/password/{provider}/complete_mfa", {
        params: { path: { provider: "peloton" } },
        body: { mfa_code: "000000" },
        ...prefer(`example=${name}`),
      });
      expect(response.status).toBe(200);
      expect(data?.state).toBe(state);
      assertMatchesContract("completeProviderMfa", 200, data);
      if (state === "error") {
        expect(data?.error_type).toBeTruthy();
        expect(data?.error).toBeTruthy();
      } else {
        expect(data?.error_type ?? null).toBeNull();
      }
      if (state === "pending_provider_mfa") expect(data?.provider_mfa?.hint).toBeTruthy();
    });
  }
});

describe("link errors (section 7, rules 1 and 2)", () => {
  const listed = ((contract.components as JsonObject).schemas as Record<string, JsonObject>).LinkErrorType!.anyOf as JsonObject[];
  const errorTypes = listed.find((branch) => Array.isArray(branch.enum))!.enum as string[];

  for (const errorType of errorTypes) {
    it(`reports ${errorType} as state error, with error_type and error filled, by a named example`, async () => {
      const answer = await client({ linkToken: TEST_LINK_TOKEN }).POST("/v2/link/provider/password/{provider}/complete_mfa", {
        params: { path: { provider: "whoop" } },
        body: { mfa_code: "000000" },
        ...prefer(`example=error_${errorType}`),
      });
      expectStatus(answer, 200);
      expect(answer.data).toMatchObject({ state: "error", error_type: errorType });
      expect(answer.data.error).toBeTruthy();
      assertMatchesContract("completeProviderMfa", 200, answer.data);
    });
  }
});
