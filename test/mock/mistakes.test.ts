// A mistake of the first hour answered with its fix, in one set of words for the library and the command: an unknown
// option or flag named with the nearest known one, a value out of range with its range, a fetch to another address
// refused naming both addresses (src/mock/option-checks.ts, command-options.ts, create-mock.ts).
import { describe, expect, it } from "vitest";
import { readMockOptions } from "../../src/mock/command-options.ts";
import { createMockWith } from "../../src/mock/create-mock.ts";
import { handlersFrom } from "../../src/mock/msw-handlers.ts";
import type { MockOptions } from "../../src/mock/public-types.ts";
import { contract } from "../support/contract.ts";

const fail = (line: string): never => {
  throw new Error(line);
};
const flags = (...args: string[]) => readMockOptions("usage", "see --help", fail, args);
const made = (options: unknown) => () => createMockWith(contract, options as MockOptions);

describe("createMock's options", () => {
  it("names an unknown option with the nearest one it takes, and guesses nothing for a name near none", () => {
    expect(made({ statefull: true })).toThrow(new TypeError("createMock: unknown option statefull (did you mean stateful?)"));
    expect(made({ journal_size: 5 })).toThrow("createMock: unknown option journal_size (did you mean journalSize?)");
    expect(made({ colour: "red" })).toThrow(/^createMock: unknown option colour$/);
  });

  it("names a value out of range with its range, every problem at once", () => {
    expect(made({ conditions: { failure_rate: 2 }, journalSize: -1 })).toThrow(
      "createMock: conditions: failure_rate must be a share from 0 to 1; journalSize -1 is not a number of requests from 0 (off) to 10000",
    );
    expect(made({ conditions: { latency: 100 } })).toThrow("createMock: conditions: latency is not a condition (did you mean latency_ms?)");
    expect(made({ stateful: "yes" })).toThrow('createMock: stateful must be true or false (got "yes")');
    expect(made({ baseUrl: "localhost:4010" })).toThrow(/^createMock: baseUrl must be an absolute http\(s\) address/);
    expect(made("stateful")).toThrow("createMock: its options must be an object");
  });

  it("takes every option it declares, and an option given as undefined", () => {
    const mock = createMockWith(contract, {
      stateful: true,
      conditions: { latency_ms: 0 },
      journalSize: 10,
      baseUrl: "http://api.test",
      log: () => undefined,
      data: undefined,
    });
    expect(mock.url).toBe("http://api.test");
  });

  it("answers createMockHandlers' mistakes in its own name, before msw is used", () => {
    const msw = new Proxy({}, { get: () => expect.fail("msw was used") });
    expect(() => handlersFrom(msw as never, { statefull: true } as MockOptions)).toThrow(
      "createMockHandlers: unknown option statefull (did you mean stateful?)",
    );
  });
});

describe("the command's flags, in the same words", () => {
  it("names an unknown flag with the nearest one", () => {
    expect(() => flags("--statefull")).toThrow("unknown option --statefull (did you mean --stateful?) (see --help)");
  });

  it("checks a negative number against the flag's range instead of calling it ambiguous", () => {
    expect(() => flags("--journal-size", "-1")).toThrow("--journal-size -1 is not a number of requests from 0 (off) to 10000");
    expect(() => flags("--conditions", '{"failure_rate":2}')).toThrow("--conditions: failure_rate must be a share from 0 to 1");
  });
});

describe("mock.fetch", () => {
  it("answers under a base address with a path of its own, as the client calls it, and refuses the same path outside it", async () => {
    const mock = createMockWith(contract, { baseUrl: "http://svc-mock.invalid/api", stateful: true });
    const headers = { "x-svc-api-key": "sk_test_mistakes_0002" };
    expect((await mock.fetch("/v3/lab_tests/labs", { headers })).status).toBe(200);
    expect((await mock.fetch("http://svc-mock.invalid/api/v3/lab_tests/labs", { headers })).status).toBe(200);
    await expect(mock.fetch("http://svc-mock.invalid/v3/lab_tests/labs", { headers })).rejects.toThrow(
      /is not under this mock's url http:\/\/svc-mock\.invalid\/api/,
    );
    // A body goes with the request whose address loses the base path.
    const created = await mock.fetch("/v2/user", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: '{"client_user_id":"under-api"}',
    });
    expect([created.status, ((await created.json()) as { client_user_id: string }).client_user_id]).toEqual([200, "under-api"]);
    expect(mock.journal().map((entry) => entry.path)).toEqual(["/v3/lab_tests/labs", "/v3/lab_tests/labs", "/v2/user"]);
  });

  it("refuses an address outside the mock's url, naming both, and answers paths and URLs under it", async () => {
    const mock = createMockWith(contract, {});
    await expect(mock.fetch("http://localhost:4010/v3/lab_tests/labs")).rejects.toThrow(
      new TypeError(
        "mock.fetch: http://localhost:4010/v3/lab_tests/labs is not under this mock's url http://svc-mock.invalid: give the client baseUrl: mock.url, or pass a path such as /v2/user",
      ),
    );
    await expect(mock.fetch("https://svc-mock.invalid/v3/lab_tests/labs")).rejects.toThrow(/is not under this mock's url/);
    const headers = { "x-svc-api-key": "sk_test_mistakes_0001" };
    expect((await mock.fetch("/v3/lab_tests/labs", { headers })).status).toBe(200);
    expect((await mock.fetch("http://svc-mock.invalid/v3/lab_tests/labs", { headers })).status).toBe(200);
  });
});
