// The bundled contract states what the interface document states: operations, credentials, enumerations, bounds, deprecations and closed beta.
import { describe, expect, it } from "vitest";
import { deref } from "../scripts/lib/operations.ts";
import { isObject, type JsonObject } from "../scripts/lib/walk.ts";
import { contract, operation, operations } from "./support/contract.ts";

const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;

function schema(name: string): JsonObject {
  const found = schemas[name];
  if (!found) throw new Error(`no schema ${name}`);
  return found;
}

/** The values an enumeration lists, closed or open form. */
function listed(name: string): unknown[] {
  const s = schema(name);
  if (Array.isArray(s.enum)) return s.enum;
  const branch = (s.anyOf as JsonObject[]).find((b) => Array.isArray(b.enum));
  return branch!.enum as unknown[];
}

function property(schemaName: string, field: string): JsonObject {
  return deref(contract, (schema(schemaName).properties as JsonObject)[field]);
}

function parameter(operationId: string, name: string): JsonObject {
  const found = operation(operationId).parameters.find((p) => p.name === name);
  if (!found) throw new Error(`${operationId} has no parameter ${name}`);
  return found;
}

describe("operations (section 4)", () => {
  it("are the 14 of the document, with their methods and paths", () => {
    expect(operations.map((op) => `${op.method} ${op.template}`).sort()).toEqual(
      [
        "POST /v2/user/{user_id}/insurance",
        "GET /v2/user/{user_id}/insurance/latest",
        "GET /v2/user/{user_id}/info/latest",
        "POST /v2/link/bulk_import",
        "POST /v2/link/token",
        "POST /v2/user/{user_id}/sign_in_token",
        "POST /v2/link/provider/password/{provider}/complete_mfa",
        "GET /v3/lab_tests/{lab_test_id}/markers",
        "POST /v3/lab_tests/list_order_set_markers",
        "GET /v3/order/{order_id}/psc/info",
        "GET /v2/providers",
        "GET /v3/order/{order_id}/phlebotomy/appointment",
        "GET /v3/lab_tests/labs",
        "GET /v3/orders",
      ].sort(),
    );
  });

  it("answer /v2/providers with a trailing slash too", () => {
    expect(((contract.paths as JsonObject)["/v2/providers"] as JsonObject)["x-svc-path-aliases"]).toEqual(["/v2/providers/"]);
  });

  it("take the team API key, except complete MFA, which takes the link token (section 5)", () => {
    for (const op of operations) {
      expect([op.operationId, op.securitySchemes]).toEqual([op.operationId, op.operationId === "completeProviderMfa" ? ["LinkToken"] : ["TeamApiKey"]]);
    }
    const schemes = (contract.components as JsonObject).securitySchemes as Record<string, JsonObject>;
    expect(schemes.TeamApiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-svc-api-key" });
    expect(schemes.LinkToken).toMatchObject({ type: "apiKey", in: "header", name: "x-svc-link-token" });
  });

  it("declare 401 everywhere and 404 wherever the path names a resource", () => {
    for (const op of operations) {
      const statuses = Object.keys(op.operation.responses as JsonObject);
      expect(statuses, op.operationId).toContain("401");
      if (/_id\}/.test(op.template)) expect(statuses, op.operationId).toContain("404");
    }
  });

  it("documents both answers of bulk import, 200 and 202 (4.4)", () => {
    expect(Object.keys(operation("bulkImportConnections").operation.responses as JsonObject)).toEqual(expect.arrayContaining(["200", "202"]));
  });
});

describe("closed beta (4.2, 4.3, 4.1 MEDFED/MAIDFED)", () => {
  it("marks the operations and the payor codes, and each declares the 403 refusal", () => {
    const marked = operations.filter((op) => op.operation["x-svc-closed-beta"] === true).map((op) => op.operationId);
    expect(marked.sort()).toEqual(["getLatestInsurance", "getLatestUserInfo"]);
    expect(property("InsuranceCreateRequest", "payor_code")["x-svc-closed-beta"]).toEqual(["MEDFED", "MAIDFED"]);
    for (const id of [...marked, "createInsurance"]) {
      expect(Object.keys(operation(id).operation.responses as JsonObject), id).toContain("403");
    }
  });
});

describe("enumerations", () => {
  const exact: Record<string, unknown[]> = {
    Relationship: ["Self", "Spouse", "Other"],
    Race: ["african_american_or_black", "asian", "indigenous_native_american_alaska_native", "other", "pacific_islander_or_hawaiian", "white_caucasian"],
    Ethnicity: ["hispanic", "non_hispanic", "ashkenazi_jewish", "other"],
    SexualOrientation: ["lesbian_gay_or_homosexual", "heterosexual_or_straight", "bisexual", "dont_know", "other"],
    GenderIdentity: ["male", "female", "female_to_male_ftm_transgender_male_trans_man", "male_to_female_mtf_transgender_female_trans_woman", "genderqueer", "other"],
    LinkResultState: ["success", "error", "pending_provider_mfa"],
    AuthType: ["oauth", "team_oauth", "sdk", "password", "email", "app"],
    CollectionMethod: ["testkit", "walk_in_test", "at_home_phlebotomy", "on_site_collection"],
    SampleType: ["dried_blood_spot", "arm_collector", "serum", "saliva", "urine", "stool"],
    AppointmentType: ["phlebotomy", "patient_service_center"],
    AppointmentStatus: ["confirmed", "pending", "reserved", "in_progress", "completed", "cancelled"],
    AppointmentEventStatus: ["pending", "reserved", "scheduled", "completed", "cancelled", "in_progress"],
    PscCapability: ["stat", "appointment_scheduling_via_svc", "appointment_scheduling_with_lab"],
    Interpretation: ["normal", "abnormal", "critical"],
    LinkErrorType: [
      "invalid_token", "token_expired", "token_not_validated", "token_consumed", "provider_credential_error", "provider_password_expired",
      "provider_api_error", "unsupported_region", "duplicate_connection", "required_scopes_not_granted", "incorrect_mfa_code", "user_cancelled",
    ],
    PscRadius: [10, 20, 25, 50, 100],
    LinkRedirectBehaviour: ["redirect"],
  };
  for (const [name, values] of Object.entries(exact)) {
    it(`${name} lists exactly the document's values`, () => expect(listed(name)).toEqual(values));
  }

  const counted: Record<string, { count: number; includes?: string }> = {
    BulkImportProvider: { count: 16 },
    LinkProvider: { count: 40, includes: "manual" },
    PasswordProvider: { count: 12 },
    AppointmentProvider: { count: 4 },
    LabSlug: { count: 14, includes: "manual" },
    ProviderResource: { count: 69, includes: "hypnogram" },
  };
  for (const [name, { count, includes }] of Object.entries(counted)) {
    it(`${name} has the document's ${count} values${includes ? `, ${includes} among them` : ""}, without repeats`, () => {
      const values = listed(name);
      expect(new Set(values).size).toBe(count);
      expect(values).toHaveLength(count);
      if (includes) expect(values).toContain(includes);
    });
  }

  const nonExhaustive = [
    "Relationship", "Race", "Ethnicity", "SexualOrientation", "GenderIdentity", "ProviderResource", "CollectionMethod", "SampleType",
    "AppointmentProvider", "BulkImportProvider", "LinkProvider", "PasswordProvider", "PscCapability", "LabSlug", "Interpretation", "LinkErrorType",
  ];
  it("marks exactly the enumerations the document calls non-exhaustive (plus provisional ones)", () => {
    const marked = Object.keys(schemas).filter((name) => schemas[name]!["x-svc-non-exhaustive"] === true);
    expect(marked).toEqual(expect.arrayContaining(nonExhaustive));
    for (const name of marked.filter((n) => !nonExhaustive.includes(n))) {
      expect(schemas[name]!["x-svc-provisional"], `${name} is open but the document does not say so`).toBeTruthy();
    }
    for (const name of ["AuthType", "LinkResultState", "AppointmentStatus", "AppointmentEventStatus", "AppointmentType"]) {
      expect(schemas[name]!["x-svc-non-exhaustive"], name).toBeUndefined();
    }
  });
});

describe("limits (section 8)", () => {
  it("bounds page and size on both marker lists", () => {
    for (const id of ["listLabTestMarkers", "listOrderSetMarkers"]) {
      expect(deref(contract, parameter(id, "page").schema)).toMatchObject({ type: "integer", minimum: 1, default: 1 });
      expect(deref(contract, parameter(id, "size").schema)).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 });
    }
  });

  it("offers radius 10, 20, 25, 50 or 100 miles, 25 by default", () => {
    expect(deref(contract, parameter("getOrderPscInfo", "radius").schema)).toMatchObject({ enum: [10, 20, 25, 50, 100], default: 25 });
  });

  it("needs at least one provider in filter_on_providers", () => {
    expect(property("LinkTokenRequest", "filter_on_providers")).toMatchObject({ minItems: 1 });
  });

  it("caps appointment_notes at 1000 characters", () => {
    expect(property("PhlebotomyAppointment", "appointment_notes")).toMatchObject({ maxLength: 1000 });
  });

  it("defaults wait_for_completion to false and is_primary to true", () => {
    expect(property("BulkImportRequest", "wait_for_completion")).toMatchObject({ type: "boolean", default: false });
    expect(property("InsuranceCreateRequest", "is_primary")).toMatchObject({ default: true });
    expect(deref(contract, parameter("getLatestInsurance", "is_primary").schema)).toMatchObject({ type: "boolean", default: true });
  });
});

describe("deprecations (9.3)", () => {
  it("marks the MFA result's provider, connected and provider_id deprecated, still required, each naming its replacement", () => {
    const result = schema("LinkMfaResult");
    for (const field of ["provider", "connected", "provider_id"]) {
      const prop = (result.properties as JsonObject)[field] as JsonObject;
      expect(prop.deprecated, field).toBe(true);
      expect(String(prop.description), field).toMatch(/^Deprecated: /);
    }
    expect(result.required).toEqual(expect.arrayContaining(["state", "provider", "connected", "provider_id"]));
  });
});

describe("addresses (2.3)", () => {
  it("keeps zip on insurance and zip_code on user info and appointments, as the document shows", () => {
    const keys = (name: string) => Object.keys(schema(name).properties as JsonObject);
    expect(keys("Address")).toEqual(expect.arrayContaining(["zip", "country"]));
    expect(keys("UserAddress")).toContain("zip_code");
    expect(keys("UserAddress")).not.toContain("country");
    expect(keys("USAddress")).toEqual(expect.arrayContaining(["zip_code", "unit"]));
    expect(isObject(property("UserInfo", "address"))).toBe(true);
    expect(schema("UserInfo").properties).toMatchObject({ address: { $ref: "#/components/schemas/UserAddress" } });
  });
  it("writes the latest insurance and the medical proxy with zip_code and no country, as the document's samples do", () => {
    const address = (name: string) => String(((schema(name).properties as JsonObject).address as JsonObject).$ref);
    expect(address("PersonDetailsWithZipCode")).toBe("#/components/schemas/UserAddress");
    expect(address("GuarantorDetailsWithZipCode")).toBe("#/components/schemas/UserAddress");
    expect(address("CompanyDetailsWithZipCode")).toBe("#/components/schemas/UserAddress");
    expect(schema("UserInfo").properties).toMatchObject({ medical_proxy: { $ref: "#/components/schemas/GuarantorDetailsWithZipCode" } });
    const latest = operation("getLatestInsurance").operation.responses as JsonObject;
    expect(JSON.stringify(latest["200"])).toContain("#/components/schemas/LatestInsurance");
    expect(JSON.stringify(operation("createInsurance").operation.responses)).toContain("#/components/schemas/Insurance\"");
  });
});

describe("iana_timezone (2.13)", () => {
  const pattern = new RegExp(String(property("PhlebotomyAppointment", "iana_timezone").pattern), "u");
  for (const zone of ["America/New_York", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5", "Etc/GMT-14", "Europe/London"]) {
    it(`accepts ${zone}`, () => expect(pattern.test(zone)).toBe(true));
  }
  for (const zone of ["New York", "+05:00", "", "/UTC", "America/", "America//New_York"]) {
    it(`refuses ${JSON.stringify(zone)}`, () => expect(pattern.test(zone)).toBe(false));
  }
});
