// A value the service adds to a non-exhaustive enumeration breaks neither the generated types, nor the validation of
// responses or requests (where the contract model finds it, for the mock's warning), nor the mock.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderTypes } from "../scripts/build/generate-types.ts";
import { ContractValidator, type RequestInput, type UnlistedValue } from "../src/contract/validator.ts";
import { hasGuessedValues } from "../src/contract/open-enums.ts";
import { deref } from "../src/contract/operations.ts";
import type { JsonObject } from "../src/contract/json.ts";
import { startMock, type RunningMock } from "../scripts/commands/mock-server.ts";
import { contract, operation, requestExample } from "./support/contract.ts";
import { TEST_API_KEY } from "./support/mock.ts";

const NEW_RESOURCE = "a_resource_added_later";
const USER = "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f";

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

  const request = (input: Partial<RequestInput>): RequestInput => ({
    pathParams: {},
    query: new URLSearchParams(),
    headers: { "x-svc-api-key": TEST_API_KEY },
    body: undefined,
    contentType: "application/json",
    ...input,
  });
  const insurance = (relationship: unknown) =>
    request({ pathParams: { user_id: USER }, body: JSON.stringify({ ...(requestExample("createInsurance", "commercial_plan") as object), relationship }) });
  const linkToken = (body: object) => request({ body: JSON.stringify({ user_id: USER, ...body }) });
  const etlPipeline = (type: unknown) => {
    const body = requestExample("createEtlPipeline", "event_hub_routing") as { destination: { type: unknown } };
    body.destination.type = type;
    return request({ pathParams: { team_id: USER }, body: JSON.stringify(body) });
  };
  /** The details of a request's validation, and the unlisted values found in it. */
  const judge = (operationId: string, input: RequestInput) => {
    const verdict = validator.validateRequest(operation(operationId), input);
    return { details: verdict.details, unlisted: validator.unlistedValues(operation(operationId), input, verdict.body) };
  };

  it("accepts an unlisted value in a request, as the published schema does, and finds it wherever it is", () => {
    const cases: [string, RequestInput, Omit<UnlistedValue, "listed">][] = [
      [
        "completeProviderMfa",
        request({ pathParams: { provider: "ouraa" }, body: '{"mfa_code":"482913"}' }),
        { location: "path", field: "provider", value: "ouraa" },
      ],
      [
        "listOrders",
        request({ query: new URLSearchParams({ interpretation: "borderline" }) }),
        { location: "query", field: "interpretation", value: "borderline" },
      ],
      [
        "getOrderPscInfo",
        request({ pathParams: { order_id: USER }, query: new URLSearchParams("capabilities=stat&capabilities=drive_through") }),
        { location: "query", field: "capabilities", value: "drive_through" },
      ],
      ["createInsurance", insurance("Cousin"), { location: "body", field: "/relationship", value: "Cousin" }],
      ["createEtlPipeline", etlPipeline("kafka"), { location: "body", field: "/destination/type", value: "kafka" }],
      [
        "createLinkToken",
        linkToken({ provider: null, filter_on_providers: ["oura", "ouraa"] }),
        { location: "body", field: "/filter_on_providers/1", value: "ouraa" },
      ],
    ];
    for (const [operationId, input, found] of cases) {
      expect([operationId, judge(operationId, input)]).toEqual([operationId, { details: [], unlisted: [{ ...found, listed: expect.any(Array) }] }]);
    }
    expect(judge("createInsurance", insurance("Cousin")).unlisted[0]!.listed).toEqual(["Self", "Spouse", "Other"]);
  });

  it("finds nothing unlisted in a request of listed values, an absent one, or null", () => {
    expect(judge("createInsurance", insurance("Spouse"))).toEqual({ details: [], unlisted: [] });
    expect(judge("createLinkToken", linkToken({ provider: "oura", filter_on_providers: ["fitbit"] }))).toEqual({ details: [], unlisted: [] });
    expect(judge("createLinkToken", linkToken({ provider: null }))).toEqual({ details: [], unlisted: [] });
    expect(judge("listOrders", request({ query: new URLSearchParams({ interpretation: "abnormal" }) }))).toEqual({ details: [], unlisted: [] });
  });

  it("still refuses a value of another type than the enumeration's strings, saying so", () => {
    expect(judge("createInsurance", insurance(42)).details).toEqual([{ location: "body", field: "/relationship", message: "must be string" }]);
    expect(judge("createEtlPipeline", etlPipeline(7)).details).toEqual([{ location: "body", field: "/destination/type", message: "must be string" }]);
    expect(judge("createLinkToken", linkToken({ provider: ["oura"] })).details).toEqual([{ location: "body", field: "/provider", message: "must be string" }]);
  });

  it("tells which non-exhaustive enumerations list the package's guess, not the document's values", () => {
    const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;
    for (const name of ["BulkImportProvider", "LinkProvider", "PasswordProvider", "AppointmentProvider", "LabSlug"])
      expect(hasGuessedValues(schemas[name]!), name).toBe(true);
    for (const name of ["Relationship", "Interpretation", "PscCapability", "LinkErrorType", "ProviderResource"])
      expect(hasGuessedValues(schemas[name]!), name).toBe(false);
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
