// The user operations (4.1, 4.2, 4.3, 4.6), called the way an application calls them through the generated client.
import { describe, expect, it } from "vitest";
import type { InsuranceCreateRequest } from "../../generated/client/index.js";
import { assertMatchesContract, contract, requestExample, responseExample } from "../support/contract.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { USER_ID } from "../support/calls.ts";
import { client, expectStatus, prefer } from "../support/mock.ts";

const path = { user_id: USER_ID };
const schemaOf = (name: string) => ((contract.components as JsonObject).schemas as Record<string, JsonObject>)[name]!;

describe("POST /v2/user/{user_id}/insurance", () => {
  it("creates an insurance record with the insurer's company", async () => {
    const body = requestExample("createInsurance", "commercial_plan") as InsuranceCreateRequest;
    const { data, response } = await client().POST("/v2/user/{user_id}/insurance", { params: { path }, body });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("createInsurance", 200, "commercial_plan"));
    expect(data?.company.name).toBeTruthy();
    expect(data?.payor_code).toBe(body.payor_code);
  });

  for (const payor of ["MEDFED", "MAIDFED"]) {
    it(`replaces ${payor} with the plan of the insured person's state`, async () => {
      const body = { ...(requestExample("createInsurance", "medicare_inferred_from_state") as InsuranceCreateRequest), payor_code: payor };
      const { data, response } = await client().POST("/v2/user/{user_id}/insurance", { params: { path }, body });
      expect(response.status).toBe(200);
      expect(data).toEqual(responseExample("createInsurance", 200, "medicare_inferred_from_state"));
      expect(data?.payor_code).not.toBe(payor);
    });
  }

  it("takes addresses without access_notes, which appears in responses only (2.3), and ignores one sent anyway", async () => {
    const body = requestExample("createInsurance", "commercial_plan") as InsuranceCreateRequest;
    for (const name of ["PersonDetailsInput", "GuarantorDetailsInput"]) {
      expect(JSON.stringify(schemaOf(name))).toContain("#/components/schemas/AddressInput");
    }
    expect(Object.keys(schemaOf("AddressInput").properties as object)).not.toContain("access_notes");
    expect(schemaOf("Address").properties).toMatchObject({ access_notes: { type: "string" } });
    const sent = { ...body, insured: { ...body.insured, address: { ...body.insured.address, access_notes: "Ring the side door." } } };
    const { data, response } = await client().POST("/v2/user/{user_id}/insurance", { params: { path }, body: sent as InsuranceCreateRequest });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("createInsurance", 200, "commercial_plan"));
  });

  it("refuses MEDFED for a team outside the closed beta with a JSON error", async () => {
    const body = requestExample("createInsurance", "medicare_inferred_from_state") as InsuranceCreateRequest;
    const answer = await client().POST("/v2/user/{user_id}/insurance", { params: { path }, body, ...prefer("code=403") });
    expectStatus(answer, 403);
    const { error, response } = answer;
    expect(response.headers.get("content-type")).toMatch(/json/);
    expect(error?.code).toBe("closed_beta_not_enabled");
  });
});

describe("GET /v2/user/{user_id}/insurance/latest (closed beta)", () => {
  it("returns the latest primary insurance", async () => {
    const { data, response } = await client().GET("/v2/user/{user_id}/insurance/latest", { params: { path, query: { is_primary: true } } });
    expect(response.status).toBe(200);
    assertMatchesContract("getLatestInsurance", 200, data);
    expect(data?.company).toBeDefined();
  });

  it("refuses a team that is not enabled", async () => {
    const answer = await client().GET("/v2/user/{user_id}/insurance/latest", { params: { path }, ...prefer("code=403") });
    expectStatus(answer, 403);
    const { error } = answer;
    expect(error?.code).toBe("closed_beta_not_enabled");
  });
});

describe("GET /v2/user/{user_id}/info/latest (closed beta)", () => {
  it("returns the user info with its demographic enumerations", async () => {
    const { data, response } = await client().GET("/v2/user/{user_id}/info/latest", { params: { path } });
    expect(response.status).toBe(200);
    assertMatchesContract("getLatestUserInfo", 200, data);
    expect(data?.address.zip_code).toBeTruthy();
  });

  it("returns a minimal record whose enumerations are null", async () => {
    const { data } = await client().GET("/v2/user/{user_id}/info/latest", { params: { path }, ...prefer("example=minimal") });
    expect(data?.race).toBeNull();
    expect(data?.gender_identity).toBeNull();
  });
});

describe("POST /v2/user/{user_id}/sign_in_token", () => {
  it("returns a sign-in token for the user", async () => {
    const { data, response } = await client().POST("/v2/user/{user_id}/sign_in_token", { params: { path } });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("createSignInToken", 200, "sign_in_token"));
  });

  it("says 404 for an unknown user", async () => {
    const answer = await client().POST("/v2/user/{user_id}/sign_in_token", { params: { path }, ...prefer("code=404") });
    expectStatus(answer, 404);
    const { error } = answer;
    expect(error?.code).toBe("not_found");
  });
});
