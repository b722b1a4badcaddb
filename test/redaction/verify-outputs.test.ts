// What verify writes (its console, JSON and JUnit reports, the workflows' HAR files) and what the stateful mock logs
// meanwhile, searched for every example value the contract and the workflows carry in a field marked phi or secret,
// and for the credentials the run was given: none is written in full.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { runVerify } from "../../src/verify/run.ts";
import { WORKFLOWS_DIR } from "../../src/verify/workflows.ts";
import { isObject } from "../../src/contract/json.ts";
import { REMOVED } from "../../src/contract/redact.ts";
import { contract, requestExample } from "../support/contract.ts";
import { json, startStub } from "../support/stub-server.ts";

const API_KEY = "sk_test_redaction_run_0123456789wxyz";
const MANAGEMENT_KEY = "mk_test_redaction_run_0123456789mnop";

/** Property names the contract marks phi or secret wherever they stand (a name also marked none somewhere is left out). */
function onlyMarkedNames(): Set<string> {
  const marks = new Map<string, Set<string>>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties)) {
        const mark = isObject(schema) && typeof schema["x-svc-data"] === "string" ? schema["x-svc-data"] : "unmarked";
        marks.set(name, (marks.get(name) ?? new Set()).add(mark));
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== "example" && key !== "examples") visit(value);
  };
  visit(contract);
  return new Set([...marks].filter(([, kinds]) => [...kinds].every((kind) => kind === "phi" || kind === "secret")).map(([name]) => name));
}

/** Every enum member of the contract: the contract's own words, which a report may quote (a gender's allowed values). */
function enumMembers(): Set<string> {
  const members = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (Array.isArray(node.enum)) node.enum.forEach((member) => members.add(String(member)));
    Object.values(node).forEach(visit);
  };
  visit(contract);
  return members;
}

/** The string values found under a marked name anywhere in these data (examples, workflow payloads). */
function markedValues(data: unknown[]): Set<string> {
  const names = onlyMarkedNames();
  const skip = enumMembers();
  const values = new Set<string>();
  const leaves = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(leaves);
    if (isObject(node)) return Object.values(node).forEach(leaves);
    // Runtime expressions ($inputs.apiKey) are the workflows' words, not data; short values are not hunted (see
    // redact.ts); one lower-case word (a unit such as `count`) is a word of any sentence, and a few digits (`000000`)
    // turn up in any timing, neither someone's data.
    const common = (text: string) => /^[a-z]+$/.test(text) || (/^[^a-zA-Z]+$/.test(text) && text.length < 8);
    if (typeof node === "string" && node.length >= 4 && !node.startsWith("$") && !common(node) && !skip.has(node)) values.add(node);
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) (names.has(key) ? leaves : visit)(value);
  };
  data.forEach(visit);
  return values;
}

/** Every example in the contract: a schema's `example` and `examples`, a media type's or parameter's `examples.*.value`. */
function contractExamples(): unknown[] {
  const found: unknown[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "example") found.push(value);
      else if (key === "examples" && Array.isArray(value)) found.push(...value);
      else if (key === "examples" && isObject(value)) found.push(...Object.values(value).map((example) => (isObject(example) ? example.value : undefined)));
      else visit(value);
    }
  };
  visit(contract);
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

let mock: RunningMock;
const mockLog: string[] = [];
const console: string[] = [];
let reportDir: string;
let code: number;

beforeAll(async () => {
  mock = await startMock({ port: 0, stateful: {}, log: (line) => mockLog.push(line) });
  reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-redaction-"));
  const out = { log: (line: string) => console.push(line), error: (line: string) => console.push(line) };
  code = await runVerify(["--base-url", mock.url, "--har", "--cases", "2", "--report-dir", reportDir, "--api-key", API_KEY, "--management-key", MANAGEMENT_KEY], out);
});

afterAll(async () => {
  await mock?.stop();
  rmSync(reportDir, { recursive: true, force: true });
});

describe("verify's outputs and the mock's log after a run with --har against the stateful mock", () => {
  // The workflows' request bodies (their `steps` are the workflow's, not a day's step count).
  const payloads = readdirSync(WORKFLOWS_DIR)
    .filter((file) => file.endsWith(".arazzo.yaml"))
    .flatMap((file) => (YAML.parse(readFileSync(path.join(WORKFLOWS_DIR, file), "utf8")) as { workflows: { steps: { requestBody?: { payload?: unknown } }[] }[] }).workflows)
    .flatMap((workflow) => workflow.steps.map((step) => step.requestBody?.payload));
  const values = markedValues([...contractExamples(), ...payloads]);

  it("looks for enough values to mean something: the insurance example's member id and email among them", () => {
    expect(values.size).toBeGreaterThan(40);
    expect(values).toContain("jordan.example@example.com");
    expect(values).toContain("PRIMARY-0001");
  });

  it("ran every check and wrote a HAR file per workflow file, with bodies in them", () => {
    expect(code, console.filter((line) => line.startsWith("✗")).join("\n")).toBe(0);
    const hars = filesUnder(path.join(reportDir, "har"));
    expect(hars.length).toBe(readdirSync(WORKFLOWS_DIR).filter((file) => file.endsWith(".arazzo.yaml")).length);
    const text = hars.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(text).toContain(JSON.stringify(REMOVED.phi).slice(1, -1));
    expect(text).toContain(REMOVED.secret);
    expect(text).toContain(`[credential …${API_KEY.slice(-4)}]`);
  });

  it("writes none of the values, and neither credential in full, in any report, HAR file, console line or log line", () => {
    const outputs: [string, string][] = [
      ...filesUnder(reportDir).map((file): [string, string] => [path.relative(reportDir, file), readFileSync(file, "utf8")]),
      ["console", console.join("\n")],
      ["mock log", mockLog.join("\n")],
    ];
    const found: string[] = [];
    for (const [where, text] of outputs) {
      for (const value of [...values, API_KEY, MANAGEMENT_KEY]) if (text.includes(value)) found.push(`${where}: ${value}`);
    }
    expect(found).toEqual([]);
  });
});

describe("verify against a server that echoes what it was sent", () => {
  it("writes neither the marked values it sent nor the key, though the server's messages and a body it cannot read quote them", async () => {
    // Every call refused with a declared 422 whose message quotes the request (body and headers), or, every other
    // call, with a page of HTML quoting it.
    const server = await startStub((arrival, res, index) => {
      const echo = `${arrival.body} ${JSON.stringify(arrival.headers)}`;
      if (index % 2 === 1) return void res.writeHead(500, { "content-type": "text/html" }).end(`<p>${echo}</p>`);
      json(res, 422, { code: "invalid_request", message: `cannot take ${echo}`, details: [] });
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), "verify-echo-"));
    const lines: string[] = [];
    try {
      const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
      await runVerify(["--base-url", server.url, "--only", "createInsurance", "--cases", "2", "--report-dir", dir, "--api-key", API_KEY], out);
      const sent = server.arrivals.find((arrival) => arrival.url.pathname.endsWith("/insurance"));
      expect(JSON.parse(sent!.body)).toMatchObject({ member_id: (requestExample("createInsurance", "commercial_plan") as { member_id: string }).member_id });
      const insurance = markedValues([JSON.parse(sent!.body)]);
      expect(insurance.size).toBeGreaterThan(5);
      const written = [lines.join("\n"), ...filesUnder(dir).map((file) => readFileSync(file, "utf8"))].join("\n");
      // The server's words are there, without what they quoted.
      expect(written).toContain("cannot take");
      expect(written).toMatch(/the body is not JSON \(\d+ bytes, not shown/);
      expect([...insurance, API_KEY].filter((value) => written.includes(value))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});
