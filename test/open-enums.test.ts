// A value the service adds to a non-exhaustive enumeration breaks neither the generated types, nor the validation of responses, nor the mock.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderTypes } from "../scripts/build/generate-types.ts";
import { ContractValidator } from "../src/contract/validator.ts";
import { closeNonExhaustiveEnums, hasGuessedValues } from "../src/contract/open-enums.ts";
import { deref } from "../src/contract/operations.ts";
import type { JsonObject } from "../src/contract/json.ts";
import { startMock, type RunningMock } from "../scripts/commands/mock-server.ts";
import { contract, operation, requestExample } from "./support/contract.ts";
import { TEST_API_KEY } from "./support/mock.ts";

const NEW_RESOURCE = "a_resource_added_later";

describe("generated types", () => {
  it("list the known values and accept any other string", async () => {
    const types = await renderTypes(structuredClone(contract));
    expect(types).toContain('Relationship: "Self" | "Spouse" | "Other" | (string & {});');
    expect(types).toMatch(/AppointmentStatus: "confirmed" \| "pending" \| "reserved" \| "in_progress" \| "completed" \| "cancelled";/);
  });
});

describe("the contract validator", () => {
  const validator = new ContractValidator(contract);
  const providers = [{ name: "New", slug: "new", description: "A provider.", logo: null, supported_resources: [NEW_RESOURCE] }];

  it("accepts a new value in a response", () => {
    expect(validator.validateResponse(operation("listProviders"), 200, providers)).toEqual([]);
  });

  it("refuses a new value in a request, where the document lists the values (interpretation, 4.14)", () => {
    const verdict = validator.validateRequest(operation("listOrders"), {
      pathParams: {},
      query: new URLSearchParams({ interpretation: "borderline" }),
      headers: { "x-svc-api-key": TEST_API_KEY },
      body: undefined,
      contentType: undefined,
    });
    expect(verdict.details).toEqual([{ location: "query", field: "interpretation", message: "must be one of: normal, abnormal, critical" }]);
  });

  const linkToken = (provider: string) =>
    validator.validateRequest(operation("createLinkToken"), {
      pathParams: {},
      query: new URLSearchParams(),
      headers: { "x-svc-api-key": TEST_API_KEY },
      body: JSON.stringify({ user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f", provider }),
      contentType: "application/json",
    });

  it("accepts an unlisted value of a list whose values the document does not give (a provider slug, 4.5)", () => {
    expect(linkToken("a_provider_the_list_misses").details).toEqual([]);
    expect(linkToken("oura").details).toEqual([]);
  });

  it("still refuses an unlisted value of a list the document gives, in a body (relationship, 2.1)", () => {
    const verdict = validator.validateRequest(operation("createInsurance"), {
      pathParams: { user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f" },
      query: new URLSearchParams(),
      headers: { "x-svc-api-key": TEST_API_KEY },
      body: JSON.stringify({ ...(requestExample("createInsurance", "commercial_plan") as object), relationship: "Cousin" }),
      contentType: "application/json",
    });
    expect(verdict.details).toEqual([{ location: "body", field: "/relationship", message: "must be one of: Self, Spouse, Other" }]);
  });

  it("keeps open in requests exactly the non-exhaustive enumerations whose own schema is provisional", () => {
    const closed = closeNonExhaustiveEnums(contract);
    const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;
    const closedSchemas = (closed.components as JsonObject).schemas as Record<string, JsonObject>;
    for (const [name, schema] of Object.entries(schemas)) {
      if (schema["x-svc-non-exhaustive"] !== true) continue;
      const branches = (closedSchemas[name]!.anyOf as unknown[]).length;
      expect([name, branches]).toEqual([name, hasGuessedValues(schema) ? 2 : 1]);
    }
    for (const name of ["BulkImportProvider", "LinkProvider", "PasswordProvider", "AppointmentProvider", "LabSlug"]) expect(hasGuessedValues(schemas[name]!), name).toBe(true);
    for (const name of ["Relationship", "Interpretation", "PscCapability", "LinkErrorType", "ProviderResource"]) expect(hasGuessedValues(schemas[name]!), name).toBe(false);
  });

  it("still refuses a wrong value of a closed enumeration in a response", () => {
    const wrong = [{ ...providers[0], supported_resources: [], auth_type: "carrier_pigeon" }];
    expect(validator.validateResponse(operation("listProviders"), 200, wrong)).not.toEqual([]);
  });
});

describe("the mock, serving an example with a value added later", () => {
  let scratch: string;
  let mock: RunningMock;

  beforeAll(async () => {
    const edited = structuredClone(contract);
    const responses = (((edited.paths as JsonObject)["/v2/providers"] as JsonObject).get as JsonObject).responses as JsonObject;
    const media = ((responses["200"] as JsonObject).content as JsonObject)["application/json"] as JsonObject;
    const example = deref(edited, (media.examples as JsonObject).providers);
    ((example.value as JsonObject[])[0]!.supported_resources as string[]).push(NEW_RESOURCE);
    scratch = await mkdtemp(path.join(os.tmpdir(), "svc-open-enum-"));
    const specPath = path.join(scratch, "openapi.json");
    await writeFile(specPath, JSON.stringify(edited));
    mock = await startMock({ port: 0, specPath });
  });

  afterAll(async () => {
    await mock?.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it("answers 200 with the new value and reports no contract violation (Prism runs with --errors)", async () => {
    const response = await fetch(`${mock.url}/v2/providers`, { headers: { "x-svc-api-key": TEST_API_KEY } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-svc-mock-contract-violation")).toBeNull();
    const body = (await response.json()) as { supported_resources: string[] }[];
    expect(body[0]!.supported_resources).toContain(NEW_RESOURCE);
  });
});
