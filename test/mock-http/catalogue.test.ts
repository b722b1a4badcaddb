// The lab-testing catalogue (4.8, 4.9, 4.13) and the providers (4.11), called through the generated client.
import { describe, expect, it } from "vitest";
import type { OrderSetMarkersRequest } from "../../generated/client/index.js";
import { assertMatchesContract, requestExample, responseExample } from "../support/contract.ts";
import { LAB_TEST_ID } from "../support/calls.ts";
import { client, mockUrl, prefer, TEST_API_KEY } from "../support/mock.ts";

describe("GET /v3/lab_tests/{lab_test_id}/markers", () => {
  it("returns a page of markers with their expected results and LOINC codes", async () => {
    const { data, response } = await client().GET("/v3/lab_tests/{lab_test_id}/markers", {
      params: { path: { lab_test_id: LAB_TEST_ID }, query: { page: 1, size: 100 } },
    });
    expect(response.status).toBe(200);
    // The example is the whole list: asked for pages of 100, the mock says so.
    expect(data).toEqual({ ...(responseExample("listLabTestMarkers", 200, "first_page") as object), size: 100 });
    expect(data?.markers[0]?.expected_results[0]?.loinc.code).toMatch(/^\d+-\d$/);
  });

  it("returns an empty page", async () => {
    const { data } = await client().GET("/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: LAB_TEST_ID } }, ...prefer("example=empty") });
    expect(data?.markers).toEqual([]);
  });
});

describe("POST /v3/lab_tests/list_order_set_markers", () => {
  for (const name of ["by_lab_tests", "with_add_on"]) {
    it(`lists the markers of the order set "${name}"`, async () => {
      const body = requestExample("listOrderSetMarkers", name) as OrderSetMarkersRequest;
      const { data, response } = await client().POST("/v3/lab_tests/list_order_set_markers", { params: { query: { page: 2, size: 1 } }, body });
      expect(response.status).toBe(200);
      assertMatchesContract("listOrderSetMarkers", 200, data);
    });
  }
});

describe("GET /v3/lab_tests/labs", () => {
  it("lists the labs with their collection methods and sample types", async () => {
    const { data, response } = await client().GET("/v3/lab_tests/labs");
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("listLabs", 200, "labs"));
    expect(data?.every((lab) => lab.collection_methods.length > 0)).toBe(true);
  });
});

describe("GET /v2/providers", () => {
  it("lists the providers, filtered by source type", async () => {
    const { data, response } = await client().GET("/v2/providers", { params: { query: { source_type: "app" } } });
    expect(response.status).toBe(200);
    expect(data).toEqual(responseExample("listProviders", 200, "providers"));
  });

  it("answers the same with a trailing slash", async () => {
    const response = await fetch(`${mockUrl}/v2/providers/`, { headers: { "x-svc-api-key": TEST_API_KEY } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(responseExample("listProviders", 200, "providers"));
  });
});
