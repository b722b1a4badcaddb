// What the mock's three ways of starting share (src/mock/command-shell.ts): the usage lists every flag parseArgs takes,
// a start-up failure is the one line each command printed before they shared it, the banner says what was started, and
// a command npm ran is told apart from one a script line put in the background (which may mean to outlive npm's shell).
import { describe, expect, it } from "vitest";
import { banner, commandUsage, startedByNpm, startFailure } from "../../src/mock/command-shell.ts";
import { OPTIONS_USAGE, readMockOptions } from "../../src/mock/command-options.ts";
import { ProxyError } from "../../src/mock/proxy.ts";
import { bodyTooLarge, invalidParts } from "../../src/mock/refusals.ts";
import { MAX_BODY_BYTES } from "../../src/mock/http-vocabulary.ts";

const thrown = (line: string): never => {
  throw new Error(line);
};
const facts = { port: 4010, host: "127.0.0.1", dataFile: "seed.json", onPort: (port: number) => `npm start -- --port ${port}` };
const failure = (error: unknown) => {
  try {
    return startFailure(error, facts, thrown);
  } catch (line) {
    return (line as Error).message;
  }
};

describe("the mock commands' shared pieces", () => {
  it("lists every flag the commands read, and puts a command's own words around the list", () => {
    for (const flag of ["--port", "--host", "--stateful", "--data", "--conditions", "--journal-size", "--proxy", "--record", "--help"]) {
      expect(OPTIONS_USAGE).toContain(`  ${flag} `);
    }
    expect(() => readMockOptions("usage", "hint", thrown, ["--nope"])).toThrow("unknown option --nope (hint)");
    expect(commandUsage("usage: x", "Serves.", "After.")).toBe(`usage: x\n\nServes.\n\n${OPTIONS_USAGE}\n\nAfter.`);
    expect(commandUsage("usage: x", undefined)).toBe(`usage: x\n\n${OPTIONS_USAGE}`);
  });

  it("names a start-up failure in one line, in the terms the command was given", () => {
    expect(failure(Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" }))).toBe(
      "port 4010 on 127.0.0.1 is in use. Stop what holds it, or run: npm start -- --port 4011",
    );
    expect(failure(new ProxyError("the upstream is not reachable"))).toBe("the upstream is not reachable");
    expect(failure(new Error("boom"))).toBe("the mock did not start: boom");
  });

  it("says what was started: the mock's mode, or the proxy and where it records", () => {
    const plain = banner({
      url: "http://127.0.0.1:4010",
      stateful: false,
      proxy: undefined,
      record: undefined,
      prism: "Prism loads on the first Prefer: dynamic=true",
    });
    expect(plain.split("\n")).toEqual([
      "Mock server:  http://127.0.0.1:4010   (answers from the contract's examples; Prism loads on the first Prefer: dynamic=true)",
      "Contract:     http://127.0.0.1:4010/openapi.yaml   http://127.0.0.1:4010/openapi.json",
      "Try:  curl -s -H 'x-svc-api-key: sk_test_example_not_a_real_key' http://127.0.0.1:4010/v3/lab_tests/labs",
      "Stop with Ctrl-C.",
    ]);
    const long = banner({ url: "http://h", stateful: true, proxy: undefined, record: undefined, prism: "p", reference: "http://h/docs", long: true });
    expect(long).toMatch(/^\nMock server: {2}http:\/\/h {3}\(stateful: remembers each team's calls; http:\/\/h\/_mock\/state resets it/);
    expect(long).toContain("Reference:    http://h/docs\n");
    expect(long).toContain("\n\nTry:");
    expect(long).toContain("\nBranches:  ");
    const proxy = banner({ url: "http://h", stateful: false, proxy: new URL("https://api.example.com/v3/"), record: "out.har", prism: "p" });
    expect(proxy).toContain("Validating proxy:  http://h -> https://api.example.com/v3");
    expect(proxy).toContain("Recording:    out.har (HAR, redacted)");
    expect(proxy.endsWith("\nStop with Ctrl-C.")).toBe(true);
  });

  it("words a refusal from the constant that enforces its limit, and counts the invalid parts", () => {
    expect(MAX_BODY_BYTES).toBe(1 << 20);
    expect(bodyTooLarge().message).toBe("The request body is larger than 1 MiB.");
    const detail = { location: "body" as const, field: "/a", message: "is wrong" };
    expect(invalidParts([detail]).message).toBe("The request has 1 invalid part.");
    expect(invalidParts([detail, detail]).message).toBe("The request has 2 invalid parts.");
  });
});

describe("a command npm started, which stops when npm's shell goes", () => {
  it("is one run by npx, npm exec, npm run or npm start as a whole script line", () => {
    expect(startedByNpm({ npm_lifecycle_event: "npx", npm_lifecycle_script: "svc-health-mock" })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: "start", npm_lifecycle_script: "node scripts/commands/start.js" })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: "mock", npm_lifecycle_script: "svc-health-mock --port 4010 && echo stopped" })).toBe(true);
  });

  it("is not one a script line sends to the background, nor one npm did not start", () => {
    expect(startedByNpm({ npm_lifecycle_event: "mock", npm_lifecycle_script: "svc-health-mock --port 4010 &" })).toBe(false);
    expect(startedByNpm({ npm_lifecycle_event: "dev", npm_lifecycle_script: "svc-health-mock & vite" })).toBe(false);
    expect(startedByNpm({})).toBe(false);
  });
});
