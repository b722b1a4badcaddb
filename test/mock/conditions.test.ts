// Real-world conditions: latency, declared failures and dropped connections, per team and repeatable under a seed,
// set by createMock's options, `PATCH /_mock/state` and `--conditions`, and answered as the contract declares them.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { readConditions } from "../../src/mock/conditions.ts";
import { createMockWith } from "../../src/mock/create-mock.ts";
import { createMockHost } from "../../src/mock/host.ts";
import { readMockOptions } from "../../src/mock/command-options.ts";
import type { Conditions } from "../../src/mock/public-types.ts";
import { contract, operation, validator } from "../support/contract.ts";

const KEY = { "x-svc-api-key": "sk_test_conditions_team_0001" };
const OTHER = { "x-svc-api-key": "sk_test_conditions_team_0002" };

async function statuses(conditions: Conditions, count: number): Promise<number[]> {
  const mock = createMockWith(contract, { conditions });
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await mock.fetch("/v3/lab_tests/labs", { headers: KEY })).status);
  return seen;
}

describe("conditions", () => {
  it("fail the same requests under the same seed, about as often as asked, and others under another seed", async () => {
    const asked = { failure_rate: 0.3, retry_after_s: 0, seed: 42 };
    const first = await statuses(asked, 200);
    expect(await statuses(asked, 200)).toEqual(first);
    const failures = first.filter((status) => status === 429).length;
    expect(failures).toBeGreaterThan(40);
    expect(failures).toBeLessThan(80);
    expect(first.every((status) => status === 200 || status === 429)).toBe(true);
    expect(await statuses({ ...asked, seed: 43 }, 200)).not.toEqual(first);
  });

  it("answer a failure with the operation's own declared answer: 429 with the Retry-After asked for, or 500", async () => {
    const mock = createMockWith(contract, { conditions: { failure_rate: 1, retry_after_s: 7 } });
    const limited = await mock.fetch("/v3/lab_tests/labs", { headers: KEY });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect(validator.validateResponse(operation("listLabs"), 429, await limited.json())).toEqual([]);
    const broken = createMockWith(contract, { conditions: { failure_rate: 1, failure_statuses: [500] } });
    const failed = await broken.fetch("/v3/lab_tests/labs", { headers: KEY });
    expect(failed.status).toBe(500);
    expect(validator.validateResponse(operation("listLabs"), 500, await failed.json())).toEqual([]);
    expect(broken.journal()[0]!.condition).toBe("failure 500");
  });

  it("add the latency asked for before the answer", async () => {
    const mock = createMockWith(contract, { conditions: { latency_ms: [60, 80] } });
    const started = performance.now();
    expect((await mock.fetch("/v3/lab_tests/labs", { headers: KEY })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(mock.journal()[0]!.condition).toMatch(/^latency (6\d|7\d|80) ms$/);
  });

  it("drop a connection: fetch rejects, and Node's server hangs up without a byte", async () => {
    const mock = createMockWith(contract, { conditions: { drop_rate: 1 } });
    await expect(mock.fetch("/v3/lab_tests/labs", { headers: KEY })).rejects.toThrow(TypeError);
    expect(mock.journal()[0]).toMatchObject({ status: 0, condition: "dropped" });

    const server = createMockHost({ document: contract, staticFiles: {}, conditions: { drop_rate: 1 } });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
        const request = http.get({ host: "127.0.0.1", port, path: "/v3/lab_tests/labs", headers: KEY }, () => reject(new Error("an answer came")));
        request.on("error", resolve);
      });
      expect(error.code).toBe("ECONNRESET");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("are per team: set and forgotten through /_mock/state, on the stateless mock too", async () => {
    const mock = createMockWith(contract, {});
    const set = await mock.fetch("/_mock/state", {
      method: "PATCH",
      headers: { ...KEY, "content-type": "application/json" },
      body: JSON.stringify({ conditions: { failure_rate: 1, retry_after_s: 0 } }),
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ stateful: false, conditions: { failure_rate: 1, retry_after_s: 0 } });
    expect((await mock.fetch("/v3/lab_tests/labs", { headers: KEY })).status).toBe(429);
    expect((await mock.fetch("/v3/lab_tests/labs", { headers: OTHER })).status).toBe(200);
    expect((await mock.fetch("/_mock/state", { method: "DELETE", headers: KEY })).status).toBe(200);
    expect((await mock.fetch("/v3/lab_tests/labs", { headers: KEY })).status).toBe(200);
  });

  it("are refused when wrong, naming every field, and change nothing", async () => {
    const mock = createMockWith(contract, { stateful: true });
    const bad = await mock.fetch("/_mock/state", {
      method: "PATCH",
      headers: { ...KEY, "content-type": "application/json" },
      body: JSON.stringify({
        conditions: { latency_ms: [90, 10], failure_rate: 2, failure_statuses: [404], drop: 1 },
        settings: { closed_beta_enabled: false },
      }),
    });
    expect(bad.status).toBe(422);
    const fields = ((await bad.json()) as { details: { field: string }[] }).details.map((detail) => detail.field).sort();
    expect(fields).toEqual(["/conditions/drop", "/conditions/failure_rate", "/conditions/failure_statuses", "/conditions/latency_ms"]);
    const state = (await (await mock.fetch("/_mock/state", { headers: KEY })).json()) as { team?: { settings: { closed_beta_enabled: boolean } } };
    expect(state.team?.settings.closed_beta_enabled ?? true).toBe(true);
    expect((await mock.fetch("/v3/lab_tests/labs", { headers: KEY })).status).toBe(200);
  });

  it("are read from --conditions, and a wrong one stops the command naming the field", () => {
    const fail = (line: string): never => {
      throw new Error(line);
    };
    const read = readMockOptions("usage", "hint", fail, ["--conditions", '{"latency_ms":[50,200],"failure_rate":0.3,"seed":7}']);
    expect(read.conditions).toEqual({ latency_ms: [50, 200], failure_rate: 0.3, seed: 7 });
    expect(() => readMockOptions("usage", "hint", fail, ["--conditions", '{"drop_rate":-1}'])).toThrow("--conditions: drop_rate must be a share from 0 to 1");
    expect(() => readMockOptions("usage", "hint", fail, ["--conditions", "latency"])).toThrow("--conditions takes JSON");
    expect(readConditions({ seed: 1.5 })).toEqual([{ location: "body", field: "/seed", message: expect.stringContaining("whole number") }]);
  });
});
