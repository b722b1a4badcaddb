// The mock commands' flags (npm start and svc-health-mock read them alike) reach the mock they start: each flag's value
// is in the host's options, and a flag not given leaves its option out or at the host's default.
import { describe, expect, it } from "vitest";
import { hostOptionsOf, readMockOptions } from "../../src/mock/command-options.ts";

const fail = (line: string): never => {
  throw new Error(line);
};
const read = (...args: string[]) => readMockOptions("usage", "hint", fail, args);

describe("the mock commands' options", () => {
  it("hand every flag to the mock: the state with its seed data, the conditions, the journal's size", () => {
    const seed = { version: 1, teams: [] };
    const options = read("--stateful", "--conditions", '{"failure_rate":0.3,"seed":7}', "--journal-size", "20");
    expect(hostOptionsOf(options, seed)).toEqual({ stateful: { data: seed }, conditions: { failure_rate: 0.3, seed: 7 }, journalSize: 20 });
  });

  it("hand the proxy's upstream and recording to the mock (the proxy takes neither state nor conditions)", () => {
    const options = read("--proxy", "http://127.0.0.1:9", "--record", "out.har", "--journal-size", "5");
    expect(hostOptionsOf(options, undefined)).toEqual({
      conditions: undefined,
      journalSize: 5,
      proxy: { upstream: new URL("http://127.0.0.1:9"), record: "out.har" },
    });
  });

  it("leave the state and the proxy out when not asked for, and the rest to the host's defaults", () => {
    expect(hostOptionsOf(read(), undefined)).toEqual({ conditions: undefined, journalSize: undefined });
    // --stateful without --data: a state that starts empty.
    expect(hostOptionsOf(read("--stateful"), undefined)).toMatchObject({ stateful: {} });
  });
});
