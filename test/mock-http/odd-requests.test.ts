// Requests no client would send on purpose still get a 4xx with a JSON error body from the mock, never a 5xx.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { ORDER_ID, USER_ID } from "../support/calls.ts";
import { mockUrl, TEST_API_KEY } from "../support/mock.ts";

/** Sends exactly what it is given (fetch would refuse a GET with a body). */
function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; type: string }> {
  const url = new URL(mockUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        // Node does not frame a GET's body on its own; without a length the bytes would read as a second request.
        headers: { "x-svc-api-key": TEST_API_KEY, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, type: String(res.headers["content-type"]) }));
      },
    );
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const json = { "content-type": "application/json" };

const ODD: [string, () => ReturnType<typeof raw>, number][] = [
  ["a GET with a body", () => raw("GET", "/v3/lab_tests/labs", '{"a":1}', json), 200],
  ["a malformed percent-encoding in a path id", () => raw("GET", "/v3/order/%E0%A4%A/psc/info"), 422],
  ["a path no operation has", () => raw("GET", "/v4/everything"), 404],
  ["a method the path does not answer", () => raw("DELETE", "/v3/lab_tests/labs"), 405],
  ["a JSON body that is not an object", () => raw("POST", "/v2/link/token", "[1,2]", json), 422],
  ["a JSON null body", () => raw("POST", "/v2/link/token", "null", json), 422],
  ["a body sent as text/plain", () => raw("POST", "/v2/link/token", JSON.stringify({ user_id: USER_ID }), { "content-type": "text/plain" }), 415],
  ["a body over 1 MiB", () => raw("POST", "/v2/link/token", `{"user_id":"${"x".repeat(1_100_000)}"}`, json), 413],
  ["malformed JSON", () => raw("POST", "/v2/link/token", "{", json), 400],
  ["an Accept header that allows no JSON", () => raw("GET", "/v3/lab_tests/labs", undefined, { accept: "text/html" }), 406],
  ["deeply nested JSON", () => raw("POST", "/v2/link/token", `${"[".repeat(5000)}${"]".repeat(5000)}`, json), 400],
  [
    "JSON nested 10,000 objects deep inside a valid field",
    () => raw("POST", "/v2/link/token", `{"user_id":"${USER_ID}","redirect_url":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`, json),
    400,
  ],
  [
    "a media type in capitals",
    () => raw("POST", "/v2/link/token", JSON.stringify({ user_id: USER_ID }), { "content-type": "APPLICATION/JSON; Charset=UTF-8" }),
    200,
  ],
  ["a repeated scalar query parameter", () => raw("GET", `/v3/order/${ORDER_ID}/psc/info?radius=10&radius=20`), 422],
  ["an empty credential header", () => raw("GET", "/v3/lab_tests/labs", undefined, { "x-svc-api-key": "" }), 401],
];

describe("odd requests", () => {
  for (const [what, send, status] of ODD) {
    it(`answers ${what} with ${status} and JSON`, async () => {
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.type).toMatch(/json/);
      expect(() => JSON.parse(response.body)).not.toThrow();
    });
  }
});
