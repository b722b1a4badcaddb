// A front end served from another origin can call the mock from a browser: preflights are answered and every answer allows the origin.
import { describe, expect, it } from "vitest";
import { mockUrl, TEST_API_KEY } from "../support/mock.ts";

const origin = "http://localhost:5173";

describe("CORS", () => {
  it("answers a preflight for a credentialed POST", async () => {
    const response = await fetch(`${mockUrl}/v2/link/token`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-svc-api-key, prefer" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type, x-svc-api-key, prefer");
  });

  it("allows the origin on answers and on errors", async () => {
    const ok = await fetch(`${mockUrl}/v3/lab_tests/labs`, { headers: { origin, "x-svc-api-key": TEST_API_KEY } });
    const refused = await fetch(`${mockUrl}/v3/lab_tests/labs`, { headers: { origin } });
    expect([ok.status, refused.status]).toEqual([200, 401]);
    expect(ok.headers.get("access-control-allow-origin")).toBe(origin);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
  });
});
