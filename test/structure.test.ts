// The bundled contract states what the interface document states: operations, credentials, enumerations, bounds, deprecations and closed beta.
import { describe, expect, it } from "vitest";
import { deref } from "../src/contract/operations.ts";
import { isObject, type JsonObject } from "../src/contract/json.ts";
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

/** The operations the document names only in its change notes (4.14, last paragraph; 3, 7, 8, 9.4), designed here, all provisional. */
const CHANGE_NOTE_OPERATIONS = [
  "POST /v2/user",
  "DELETE /v2/user/{user_id}",
  "POST /v2/user/{user_id}/undo_delete",
  "GET /v2/link/bulk_op",
  "GET /v2/introspect/historical_pull",
  "GET /v2/summary/activity/{user_id}",
  "GET /v2/summary/body/{user_id}",
  "GET /v2/summary/meal/{user_id}",
  "GET /v2/summary/profile/{user_id}",
  "GET /v2/summary/sleep/{user_id}",
  "GET /v2/summary/workouts/{user_id}",
];

/** The management API the document names only in its change notes (4.14, 5, 6 rule 7, 9.4): provisional, under /v2/management. */
const MANAGEMENT_OPERATIONS = [
  "GET /v2/management/org",
  "PATCH /v2/management/org",
  "GET /v2/management/teams",
  "POST /v2/management/teams",
  "GET /v2/management/teams/{team_id}",
  "PATCH /v2/management/teams/{team_id}",
  "DELETE /v2/management/teams/{team_id}",
  "GET /v2/management/teams/{team_id}/api_keys",
  "POST /v2/management/teams/{team_id}/api_keys",
  "DELETE /v2/management/teams/{team_id}/api_keys/{api_key_id}",
  "GET /v2/management/keys",
  "POST /v2/management/keys",
  "DELETE /v2/management/keys/{key_id}",
  "GET /v2/management/teams/{team_id}/brand",
  "PUT /v2/management/teams/{team_id}/brand",
  "POST /v2/management/teams/{team_id}/custom_credentials/prepare",
  "PUT /v2/management/teams/{team_id}/custom_credentials/{provider}",
  "GET /v2/management/teams/{team_id}/webhooks",
  "POST /v2/management/teams/{team_id}/webhooks",
  "GET /v2/management/teams/{team_id}/webhooks/{webhook_id}",
  "PATCH /v2/management/teams/{team_id}/webhooks/{webhook_id}",
  "DELETE /v2/management/teams/{team_id}/webhooks/{webhook_id}",
  "POST /v2/management/teams/{team_id}/webhooks/{webhook_id}/rotate_secret",
  "GET /v2/management/teams/{team_id}/etl_pipelines",
  "POST /v2/management/teams/{team_id}/etl_pipelines",
  "GET /v2/management/teams/{team_id}/etl_pipelines/{pipeline_id}",
  "PATCH /v2/management/teams/{team_id}/etl_pipelines/{pipeline_id}",
  "DELETE /v2/management/teams/{team_id}/etl_pipelines/{pipeline_id}",
];
const isManagement = (op: { template: string }) => op.template.startsWith("/v2/management/");

describe("operations (section 4)", () => {
  /** The 14 operations section 4 gives, with their methods and paths. */
  const DOCUMENT_OPERATIONS = [
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
  ];
  const named = (op: { method: string; template: string }) => `${op.method} ${op.template}`;

  it("include the 14 of the document, the operations of its change notes and the management API, with their methods and paths", () => {
    const present = operations.map(named);
    expect(present).toEqual(expect.arrayContaining([...DOCUMENT_OPERATIONS, ...CHANGE_NOTE_OPERATIONS]));
    expect(operations.filter(isManagement).map(named)).toEqual(expect.arrayContaining(MANAGEMENT_OPERATIONS));
    expect(DOCUMENT_OPERATIONS.filter((op) => op.includes("/v2/management/"))).toEqual([]);
  });

  it("add only provisional operations beyond those of section 4, each citing the section that implies it", () => {
    for (const op of operations.filter((o) => !DOCUMENT_OPERATIONS.includes(named(o)))) {
      expect(String(op.operation["x-svc-provisional"]), op.operationId).toMatch(/\(sections? \d/);
    }
  });

  it("answer /v2/providers with a trailing slash too", () => {
    expect(((contract.paths as JsonObject)["/v2/providers"] as JsonObject)["x-svc-path-aliases"]).toEqual(["/v2/providers/"]);
  });

  it("take the team API key, except complete MFA, which takes the link token (section 5)", () => {
    for (const op of operations.filter((o) => !isManagement(o))) {
      expect([op.operationId, op.securityAlternatives]).toEqual([op.operationId, [op.operationId === "completeProviderMfa" ? ["LinkToken"] : ["TeamApiKey"]]]);
    }
    const schemes = (contract.components as JsonObject).securitySchemes as Record<string, JsonObject>;
    expect(schemes.TeamApiKey).toMatchObject({ type: "apiKey", in: "header", name: "x-svc-api-key" });
    expect(String(schemes.TeamApiKey!.description)).toMatch(/management API \(every operation under `\/v2\/management\/`\)\s+refuses it/);
    expect(schemes.LinkToken).toMatchObject({ type: "apiKey", in: "header", name: "x-svc-link-token" });
  });

  it("take the management key, or the deprecated org key in its place, never the team API key, on the management API (section 5)", () => {
    for (const op of operations.filter(isManagement)) {
      expect([op.operationId, op.securityAlternatives]).toEqual([op.operationId, [["ManagementKey"], ["OrgKey"]]]);
      expect(op.operation.tags, op.operationId).toEqual(["Management"]);
      expect(String(op.operation["x-svc-provisional"]), op.operationId).toMatch(/not shown/);
      expect(String(op.operation.description), op.operationId).toMatch(/X-Management-Key[\s\S]*X-Svc-Org-Key[\s\S]*never a team API key/);
    }
    const schemes = (contract.components as JsonObject).securitySchemes as Record<string, JsonObject>;
    expect(schemes.ManagementKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Management-Key" });
    expect(schemes.OrgKey).toMatchObject({ type: "apiKey", in: "header", name: "X-Svc-Org-Key" });
    expect(String(schemes.OrgKey!.description)).toMatch(/^Deprecated: /);
  });

  it("answer a team management key 403 on org-level operations and on teams it is not bound to (section 5, rule 1)", () => {
    const refusal = (id: string) => {
      const examples = (((operation(id).operation.responses as JsonObject)["403"] as JsonObject | undefined) ?? {}) as JsonObject;
      const body = deref(contract, examples);
      const named = (((body.content as JsonObject)?.["application/json"] as JsonObject)?.examples ?? {}) as JsonObject;
      return Object.values(named).map((example) => (deref(contract, example).value as JsonObject).code);
    };
    const orgLevel = ["getOrg", "updateOrg", "createTeam", "deleteTeam", "listManagementKeys", "createManagementKey", "deleteManagementKey"];
    for (const id of orgLevel) expect(refusal(id), id).toEqual(["org_key_required"]);
    const teamLevel = operations.filter((o) => isManagement(o) && o.template.includes("{team_id}") && !orgLevel.includes(o.operationId));
    expect(teamLevel.length).toBeGreaterThanOrEqual(20);
    for (const op of teamLevel) {
      expect(refusal(op.operationId), op.operationId).toEqual(["team_not_in_key_scope"]);
    }
    expect(Object.keys(operation("listTeams").operation.responses as JsonObject)).not.toContain("403");
  });

  it("create a team management key for several teams only through Create Management Key (section 5, rule 3)", () => {
    expect(String(operation("createManagementKey").operation.description)).toMatch(
      /two or more\s+teams\s+can\s+be\s+created\s+only\s+here,\s+not\s+in\s+the\s+dashboard/,
    );
    expect(schema("TeamManagementKeyCreateRequest").required).toEqual(expect.arrayContaining(["kind", "team_ids"]));
    expect(property("TeamManagementKeyCreateRequest", "team_ids")).toMatchObject({ type: "array", minItems: 1 });
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

describe("operations named only in the change notes (4.14; 3, 7, 8, 9.4)", () => {
  const named = operations.filter((op) => CHANGE_NOTE_OPERATIONS.includes(`${op.method} ${op.template}`));

  it("are provisional, citing a section, and say they take the team API key, never a management key", () => {
    expect(named).toHaveLength(CHANGE_NOTE_OPERATIONS.length);
    for (const op of named) {
      expect(String(op.operation["x-svc-provisional"]), op.operationId).toMatch(/\(sections? \d/);
      expect(op.securitySchemes, op.operationId).toEqual(["TeamApiKey"]);
      expect(String(op.operation.description), op.operationId).toMatch(/team API key \(`x-svc-api-key`\); a management key is refused/);
    }
  });

  it("answer a user creation whose client_user_id is taken with 400 naming the existing user (7.3)", () => {
    const responses = operation("createUser").operation.responses as JsonObject;
    expect(responses["400"]).toEqual({ $ref: "#/components/responses/UserAlreadyExists" });
    const conflict = deref(contract, (deref(contract, responses["400"]).content as JsonObject)["application/json"]).schema as JsonObject;
    // The same status also answers malformed JSON with the plain error body, as every operation's 400 does.
    expect(conflict).toEqual({ anyOf: [{ $ref: "#/components/schemas/UserConflictError" }, { $ref: "#/components/schemas/ErrorBody" }] });
    const parts = schema("UserConflictError").allOf as JsonObject[];
    expect(parts[0]).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    expect(parts[1]).toMatchObject({ required: ["user_id", "created_on"] });
    expect(listed("ErrorCode")).toEqual(expect.arrayContaining(["user_already_exists", "deletion_grace_period_over"]));
  });

  it("keep a deleted user for a 7-day grace period, then refuse the undo with 410 (3, 8)", () => {
    expect(String(operation("deleteUser").operation.description)).toMatch(/7-day grace period/);
    expect(Object.keys(operation("undoUserDeletion").operation.responses as JsonObject)).toEqual(expect.arrayContaining(["200", "404", "410"]));
    expect(schema("UserDeletion").required).toEqual(expect.arrayContaining(["deletion_takes_effect_at"]));
    expect(schema("UserDeletedError").allOf).toContainEqual({ $ref: "#/components/schemas/ErrorBody" });
  });

  it("report the Retrying historical pull state, spelt as the document spells it, only after 9 May (3)", () => {
    expect(listed("HistoricalPullStatus")).toContain("Retrying");
    expect(schema("HistoricalPullStatus")["x-svc-non-exhaustive"]).toBe(true);
    expect(String(operation("getHistoricalPullIntrospection").operation.description)).toMatch(
      /`Retrying` appears only for connections established after 9 May 2025/,
    );
  });

  it("list bulk import operations with open statuses and their counts (4.4, rule 3)", () => {
    expect(schema("BulkOpStatus")["x-svc-non-exhaustive"]).toBe(true);
    expect(schema("BulkOpCounts").required).toEqual(["submitted", "imported", "failed", "pending"]);
    expect(schema("BulkOp").required).toEqual(
      expect.arrayContaining(["provider", "status", "user_ids_imported", "user_ids_failed", "created_at", "updated_at"]),
    );
  });

  const summaries: Record<string, string> = {
    activity: "ActivitySummary",
    body: "BodySummary",
    meal: "MealSummary",
    profile: "ProfileSummary",
    sleep: "SleepSummary",
    workouts: "WorkoutSummary",
  };
  for (const [resource, name] of Object.entries(summaries)) {
    it(`answer /v2/summary/${resource}/{user_id} with { ${resource}: [${name}] }, each with the redefined source (4.14, 6.3)`, () => {
      const op = operations.find((o) => o.template === `/v2/summary/${resource}/{user_id}`)!;
      expect(parameter(op.operationId, "start_date")).toMatchObject({ required: true, schema: { type: "string", format: "date" } });
      expect(parameter(op.operationId, "end_date").required).toBe(false);
      expect(parameter(op.operationId, "provider").required).toBe(false);
      const list = schema(`${name}List`);
      expect(list.required).toEqual([resource]);
      expect(((list.properties as JsonObject)[resource] as JsonObject).items).toEqual({ $ref: `#/components/schemas/${name}` });
      // The source says where the data came from, not who it is about: marked as holding no health data.
      expect((schema(name).properties as JsonObject).source).toEqual({ $ref: "#/components/schemas/Source", "x-svc-data": "none" });
      expect(schema(name).required).toContain("source");
    });
  }

  it("deprecate the source's name, logo and slug in favour of provider (6.2, 9.3)", () => {
    for (const field of ["name", "logo", "slug"]) {
      const prop = property("Source", field);
      expect(prop.deprecated, field).toBe(true);
      expect(String(prop.description), field).toMatch(/^Deprecated: /);
    }
    expect(schema("Source").required).toEqual(["provider", "type"]);
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

  it("marks the state inference of MEDFED/MAIDFED provisional alike on the request and on both records (2.1)", () => {
    const note = property("InsuranceCreateRequest", "payor_code")["x-svc-provisional"];
    expect(String(note)).toMatch(/Which address is the patient's is not shown \(section 2\.1\)/);
    for (const name of ["Insurance", "LatestInsurance"]) {
      const payor = property(name, "payor_code");
      expect(String(payor["x-svc-provisional"]), name).toMatch(/Which address is the patient's is not shown \(section 2\.1\)/);
      expect(String(payor.description), name).toMatch(/`MAIDFED` \(values in closed beta\)/);
    }
  });
});

describe("enumerations", () => {
  const exact: Record<string, unknown[]> = {
    Relationship: ["Self", "Spouse", "Other"],
    Race: ["african_american_or_black", "asian", "indigenous_native_american_alaska_native", "other", "pacific_islander_or_hawaiian", "white_caucasian"],
    Ethnicity: ["hispanic", "non_hispanic", "ashkenazi_jewish", "other"],
    SexualOrientation: ["lesbian_gay_or_homosexual", "heterosexual_or_straight", "bisexual", "dont_know", "other"],
    GenderIdentity: [
      "male",
      "female",
      "female_to_male_ftm_transgender_male_trans_man",
      "male_to_female_mtf_transgender_female_trans_woman",
      "genderqueer",
      "other",
    ],
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
      "invalid_token",
      "token_expired",
      "token_not_validated",
      "token_consumed",
      "provider_credential_error",
      "provider_password_expired",
      "provider_api_error",
      "unsupported_region",
      "duplicate_connection",
      "required_scopes_not_granted",
      "incorrect_mfa_code",
      "user_cancelled",
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

  // The document gives only how many of these there are: the listed values are the package's, so the schema itself is
  // provisional, which also keeps the mock from refusing a real value the list misses (openapi/extensions.md).
  const guessed: Record<string, string> = {
    BulkImportProvider: "4.4",
    LinkProvider: "4.5",
    PasswordProvider: "4.7",
    AppointmentProvider: "2.13",
    LabSlug: "4.10",
  };
  for (const [name, section] of Object.entries(guessed)) {
    it(`${name} says on itself that its values are the package's, the document giving only their number (${section})`, () => {
      const note = String(schema(name)["x-svc-provisional"]);
      expect(note).toMatch(/gives only the number/);
      expect(note).toMatch(new RegExp(`\\(sections? [^)]*${section.replace(".", "\\.")}\\b`));
      expect(note).toMatch(/the package's own/);
    });
  }
  it("carries no provisional mark on an enumeration whose values the document lists", () => {
    for (const name of Object.keys(exact)) expect(schema(name)["x-svc-provisional"], name).toBeUndefined();
    expect(schema("ProviderResource")["x-svc-provisional"]).toBeUndefined();
  });

  const nonExhaustive = [
    "Relationship",
    "Race",
    "Ethnicity",
    "SexualOrientation",
    "GenderIdentity",
    "ProviderResource",
    "CollectionMethod",
    "SampleType",
    "AppointmentProvider",
    "BulkImportProvider",
    "LinkProvider",
    "PasswordProvider",
    "PscCapability",
    "LabSlug",
    "Interpretation",
    "LinkErrorType",
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

describe('what the document types "or null" but HTTP cannot carry as null', () => {
  const orNull: [string, string, string][] = [
    ["listLabTestMarkers", "lab_account_id", "4.8"],
    ["getOrderPscInfo", "capabilities", "4.10"],
    ["listProviders", "source_type", "4.11"],
    ["listOrders", "interpretation", "4.14"],
  ];
  for (const [id, name, section] of orNull) {
    it(`${name} (${section}) is optional, and says that leaving it out is the null`, () => {
      const p = parameter(id, name);
      expect(p.required).not.toBe(true);
      expect(String(p["x-svc-provisional"])).toMatch(
        new RegExp(`or null"? \\(section ${section.replace(".", "\\.")}\\)[\\s\\S]*leaving the parameter out is the null`),
      );
    });
  }

  it('the link token header, typed "string or null" (4.7, 5), is mandatory, and says why', () => {
    const scheme = ((contract.components as JsonObject).securitySchemes as Record<string, JsonObject>).LinkToken!;
    expect(String(scheme["x-svc-provisional"])).toMatch(/"string or null" \(sections 4\.7 and 5\)[\s\S]*401/);
    expect(operation("completeProviderMfa").securityAlternatives).toEqual([["LinkToken"]]);
  });
});

describe("events (section 6)", () => {
  it("are provisional on each event schema itself, and on the envelope's id fields (rules 1, 8)", () => {
    const events = Object.keys(schemas).filter((name) => /Event$/.test(name) && name !== "AppointmentEvent");
    expect(events.length).toBeGreaterThanOrEqual(13);
    for (const name of events) expect(String(schema(name)["x-svc-provisional"]), name).toMatch(/\(section 6, rules? [0-9]/);
    for (const name of ["EventTeamId", "EventUserId", "EventClientUserId"])
      expect(String(schema(name)["x-svc-provisional"]), name).toMatch(/\(section 6, rule 1\)/);
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
    expect(JSON.stringify(operation("createInsurance").operation.responses)).toContain('#/components/schemas/Insurance"');
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
