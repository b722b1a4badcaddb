// The mock as a Fetch API handler: the same answers as over HTTP, a body over the limit refused after reading no more
// than the limit, and the statuses and methods a Response may not carry a body with.
import { describe, expect, it } from "vitest";
import { createMockWith, DEFAULT_MOCK_URL } from "../../src/mock/create-mock.ts";
import { contract } from "../support/contract.ts";

const KEY = { "x-svc-api-key": "sk_test_fetch_handler_0001" };

describe("the Fetch handler", () => {
  it("answers a Request for the mock's address, a path, or a URL alike, and a closed mock answers nothing", async () => {
    const mock = createMockWith(contract, {});
    expect(mock.url).toBe(DEFAULT_MOCK_URL);
    for (const input of [
      "/v3/lab_tests/labs",
      `${mock.url}/v3/lab_tests/labs`,
      new URL("/v3/lab_tests/labs", mock.url),
      new Request(`${mock.url}/v3/lab_tests/labs`, { headers: KEY }),
    ]) {
      const response = await mock.fetch(input, input instanceof Request ? undefined : { headers: KEY });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(Array.isArray(await response.json())).toBe(true);
    }
    await mock.close();
    await expect(mock.fetch("/v3/lab_tests/labs", { headers: KEY })).rejects.toThrow(TypeError);
  });

  it("refuses a body over 1 MiB with the declared 413, without reading the rest of it", async () => {
    const mock = createMockWith(contract, {});
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const response = await mock.fetch("/v2/user", {
      method: "POST",
      headers: { ...KEY, "content-type": "application/json" },
      body: endless,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe("payload_too_large");
    expect(pulled).toBeLessThan(2 * (1 << 20));
  });

  it("sends no body for HEAD, a preflight, or a 204", async () => {
    const mock = createMockWith(contract, {});
    const head = await mock.fetch("/v3/lab_tests/labs", { method: "HEAD", headers: KEY });
    expect(head.body).toBeNull();
    const preflight = await mock.fetch("/v3/lab_tests/labs", {
      method: "OPTIONS",
      headers: { origin: "http://app.test", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("http://app.test");
    expect(preflight.body).toBeNull();
  });
});
