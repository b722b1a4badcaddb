// The mock's own paths (/_mock/...) meet any body a caller may send, on the stateful mock and the stateless one alike:
// each is answered with a 2xx or a 4xx in the contract's error body, never a 5xx nor a fault of the mock; each refuses
// a method it does not take, and answers a browser's preflight, with the methods its table row (src/mock/paths.ts) names.
import { describe, expect, it } from "vitest";
import { createMockWith } from "../../src/mock/create-mock.ts";
import { MOCK_ONLY_METHODS, type MockOnlyPath } from "../../src/mock/paths.ts";
import { MOCK_PATHS } from "../../src/shared/mock-paths.ts";
import { contract } from "../support/contract.ts";

const ODD_BODIES = [
  "",
  "{not json",
  "null",
  "[1]",
  "5",
  '"text"',
  "true",
  '{"conditions":null}',
  '{"conditions":[]}',
  '{"settings":5}',
  '{"clock":"soon"}',
  '{"version":"x"}',
  '{"teams":{}}',
];
const METHODS = ["GET", "PUT", "PATCH", "POST", "DELETE"];
const HEADERS: Record<string, string>[] = [{}, { "x-svc-api-key": "sk_test_mock_paths_0001", "content-type": "application/json" }];
const PATHS = Object.values(MOCK_PATHS).filter((where) => where.startsWith("/_mock/"));

describe("the mock's own paths", () => {
  it("cover every /_mock/ path", () => {
    expect(PATHS.sort()).toEqual(["/_mock/data", "/_mock/journal", "/_mock/state"]);
  });

  for (const stateful of [false, true]) {
    it(`refuse a method they do not take with a 405 whose Allow names the ones they do, and answer a preflight with those, ${stateful ? "stateful" : "stateless"}`, async () => {
      const mock = createMockWith(contract, { stateful });
      const answers: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const [name, methods] of Object.entries(MOCK_ONLY_METHODS) as [MockOnlyPath, readonly string[]][]) {
        const where = MOCK_PATHS[name];
        // /_mock/data is the stateful mock's alone: the stateless one answers it 404, whatever the method.
        const refused = !stateful && name === "data" ? 404 : 405;
        for (const method of METHODS.filter((each) => !methods.includes(each))) {
          const response = await mock.fetch(where, { method, body: "{}" });
          answers[`${method} ${where}`] = [response.status, response.headers.get("allow")];
          expected[`${method} ${where}`] = [refused, refused === 405 ? methods.join(", ") : null];
        }
        const preflight = await mock.fetch(where, {
          method: "OPTIONS",
          headers: { origin: "http://app.example", "access-control-request-method": methods[0]! },
        });
        answers[`preflight ${where}`] = [preflight.status === 404 ? 404 : "answered", preflight.headers.get("access-control-allow-methods")];
        expected[`preflight ${where}`] = refused === 404 ? [404, null] : ["answered", methods.join(", ")];
      }
      expect(answers).toEqual(expected);
    });

    it(`answer every method and odd body with a 2xx or a 4xx in the error body, ${stateful ? "stateful" : "stateless"}`, async () => {
      const mock = createMockWith(contract, { stateful });
      const failures: string[] = [];
      for (const where of PATHS) {
        for (const method of METHODS) {
          for (const body of method === "GET" ? [undefined] : ODD_BODIES) {
            for (const headers of HEADERS) {
              const call = `${method} ${where} ${JSON.stringify(body)} ${Object.keys(headers).length > 0 ? "with a key" : "without one"}`;
              try {
                const response = await mock.fetch(where, { method, headers, ...(body === undefined ? {} : { body }) });
                const text = await response.text();
                if (response.status >= 500) failures.push(`${call}: ${response.status} ${text.slice(0, 120)}`);
                else if (response.status >= 400 && typeof (JSON.parse(text) as { code?: unknown }).code !== "string")
                  failures.push(`${call}: ${response.status} without a code`);
              } catch (error) {
                failures.push(`${call}: threw ${(error as Error).message}`);
              }
            }
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
