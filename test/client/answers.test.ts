// Every answer is a value narrowed by its status, or, with throwOnError, an ApiError; a declared status without its JSON body always throws.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, isApiError } from "../../generated/client/index.js";
import { startStub, type StubServer } from "../support/stub-server.ts";
import { client, expectStatus, prefer } from "../support/mock.ts";
import { requestExample, responseExample } from "../support/contract.ts";
import type { BulkImportRequest } from "../../generated/client/index.js";

const LABS = responseExample("listLabs", 200, "labs");
const ERROR_401 = { code: "unauthorized", message: "x-svc-api-key is missing." };

let stub: StubServer;
/** What the stub answers next: status, body text and content type. */
let next: { status: number; body: string; type?: string } = { status: 200, body: JSON.stringify(LABS) };

beforeAll(async () => {
  stub = await startStub((_, res) => {
    res.writeHead(next.status, { "content-type": next.type ?? "application/json" });
    res.end(next.body);
  });
});
afterAll(() => stub.close());

const api = () => createClient({ baseUrl: stub.url, apiKey: "sk_test_a" });
const strict = () => createClient({ baseUrl: stub.url, apiKey: "sk_test_a", throwOnError: true });

describe("answers as values", () => {
  it("gives a declared success as ok with its data", async () => {
    next = { status: 200, body: JSON.stringify(LABS) };
    const answer = await api().GET("/v3/lab_tests/labs");
    expectStatus(answer, 200);
    expect(answer.ok).toBe(true);
    expect(answer.data).toEqual(LABS);
    expect(answer.error).toBeUndefined();
  });

  it("gives a declared error with its typed body", async () => {
    next = { status: 401, body: JSON.stringify(ERROR_401) };
    const answer = await api().GET("/v3/lab_tests/labs");
    expectStatus(answer, 401);
    expect(answer.ok).toBe(false);
    expect(answer.error.code).toBe("unauthorized");
    expect(answer.data).toBeUndefined();
  });

  for (const [status, body, type, expected] of [
    [409, JSON.stringify({ code: "conflict" }), "application/json", { code: "conflict" }],
    [502, "<html>Bad gateway</html>", "text/html", "<html>Bad gateway</html>"],
    [503, "", "text/plain", ""],
    [299, "not json", "text/plain", "not json"],
  ] as const) {
    it(`gives an undeclared ${status} as a failure whose error is the body as it came (${type})`, async () => {
      next = { status, body, type };
      const answer = await api().GET("/v3/lab_tests/labs");
      expect(answer.status).toBe(status);
      expect(answer.ok).toBe(false);
      expect(answer.error).toEqual(expected);
    });
  }

  for (const [what, status, body, type] of [
    ["a 200 whose body is not JSON", 200, "<html>login</html>", "text/html"],
    ["a 200 with an empty body", 200, "", "application/json"],
    ["a 200 cut short", 200, '[{"id": 1', "application/json"],
    ["a declared 401 whose body is not JSON", 401, "Unauthorized", "text/plain"],
  ] as const) {
    it(`throws ApiError for ${what}, even without throwOnError`, async () => {
      next = { status, body, type };
      const error = await api()
        .GET("/v3/lab_tests/labs")
        .catch((e: unknown) => e);
      expect(isApiError(error)).toBe(true);
      expect((error as ApiError).status).toBe(status);
      expect((error as ApiError).message).toContain("without the JSON body the contract declares");
      expect((error as ApiError).operation).toEqual({ method: "GET", path: "/v3/lab_tests/labs", operationId: "listLabs" });
    });
  }
});

describe("throwOnError", () => {
  it("returns declared successes", async () => {
    next = { status: 200, body: JSON.stringify(LABS) };
    const answer = await strict().GET("/v3/lab_tests/labs");
    expect(answer.data).toEqual(LABS);
  });

  it("throws ApiError with status, code, details, the body and the operation for a declared error; its message quotes nothing of the body", async () => {
    const body = { code: "invalid_request", message: "The request is invalid.", details: [{ location: "query", field: "size", message: "must be <= 100" }] };
    next = { status: 422, body: JSON.stringify(body) };
    const error = await strict()
      .GET("/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b" } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: "ApiError", status: 422, code: "invalid_request", details: body.details, body });
    // An error message reaches logs; the body can carry health data, so it stays in `body` for the caller to read.
    expect((error as ApiError).message).toBe("GET /v3/lab_tests/{lab_test_id}/markers answered 422");
    expect((error as ApiError).operation.operationId).toBe("listLabTestMarkers");
    expect((error as ApiError).response.status).toBe(422);
  });

  it("throws ApiError for an undeclared status, with no code when the body has none", async () => {
    next = { status: 502, body: "Bad gateway", type: "text/plain" };
    const error = await strict()
      .GET("/v3/lab_tests/labs")
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: undefined, body: "Bad gateway", details: [] });
  });
});

describe("isApiError", () => {
  it("recognises an ApiError from the CommonJS copy, where instanceof cannot", async () => {
    const require = createRequire(import.meta.url);
    const cjs = require("../../generated/client/index.cjs") as typeof import("../../generated/client/index.js");
    next = { status: 401, body: JSON.stringify(ERROR_401) };
    const error = await cjs
      .createClient({ baseUrl: stub.url, apiKey: "sk_test_a", throwOnError: true })
      .GET("/v3/lab_tests/labs")
      .catch((e: unknown) => e);
    expect(error instanceof ApiError).toBe(false);
    expect(isApiError(error)).toBe(true);
    expect(cjs.isApiError(new ApiError({ status: 400, body: {}, operation: { method: "GET", path: "/", operationId: "x" }, response: new Response() }))).toBe(
      true,
    );
  });

  it("says no to other errors and values", () => {
    for (const value of [new Error("x"), { status: 400, code: "x" }, null, undefined, "ApiError"]) expect(isApiError(value)).toBe(false);
  });
});

describe("POST /v2/link/bulk_import against the mock", () => {
  const body = requestExample("bulkImportConnections", "oura_two_users") as BulkImportRequest;

  it("says in the answer's status that the import was queued (202)", async () => {
    const answer = await client().POST("/v2/link/bulk_import", { body });
    expectStatus(answer, 202);
    expect(answer.data).toEqual(responseExample("bulkImportConnections", 202, "accepted"));
  });

  it("says in the answer's status that the import finished (200)", async () => {
    const answer = await client().POST("/v2/link/bulk_import", { body: { ...body, wait_for_completion: true } });
    expectStatus(answer, 200);
    expect(answer.data).toEqual(responseExample("bulkImportConnections", 200, "completed"));
  });

  it("gives the closed feature's 403 its typed error body", async () => {
    const answer = await client().POST("/v2/link/bulk_import", { body, ...prefer("code=403") });
    expectStatus(answer, 403);
    expect(answer.error.code).toBe("feature_not_enabled");
  });
});
