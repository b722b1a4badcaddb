// What verify writes (its console, JSON, JUnit and HTML reports, the reproductions' body files, the workflows' HAR
// files) and what the stateful mock logs meanwhile, after a run against the mock behind a proxy that puts a unique
// canary in every field the contract marks phi or secret (by the field's name; a listed value of an enumeration stays,
// being a word of the contract), echoes the canaries it gave in every error message, and sets a cookie, the run's key
// and a canary in headers of every answer: no canary, cookie or credential in full is written anywhere (the server's
// answers, which the reports keep for the failures, included), and no placeholder cuts a word of verify's own sentences.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { runVerify } from "../../src/verify/run.ts";
import { WORKFLOWS_DIR } from "../../src/shared/workflow-files.ts";
import { isObject } from "../../src/contract/json.ts";
import { REMOVED } from "../../src/contract/redact.ts";
import type { Check } from "../../src/verify/check.ts";
import { contract, requestExample } from "../support/contract.ts";
import { startAlteringProxy, type AlteringProxy } from "../support/altering-proxy.ts";
import { json, startStub } from "../support/stub-server.ts";

const API_KEY = "sk_test_redaction_run_0123456789wxyz";
const MANAGEMENT_KEY = "mk_test_redaction_run_0123456789mnop";
/** A gateway's header (`--header`), a credential in every output; its token alone is one too. */
const GATEWAY_HEADER = "X-Gateway-Authorization";
const GATEWAY_TOKEN = "gw_test_redaction_run_0123456789hjkl";
const GATEWAY = ["--header", `${GATEWAY_HEADER}: Bearer ${GATEWAY_TOKEN}`];
/** A session cookie every answer sets: no report may keep it. */
const COOKIE = "cookiecnry0424session";

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

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** A canary for the n-th marked value: a string, or a number for a number, each unique and found nowhere else. */
function canary(value: unknown, n: number): unknown {
  return typeof value === "number" ? 7_310_000_000 + n : `cnry${String(n).padStart(5, "0")}zq`;
}

/** The answer with every value under a marked name (but a listed value) replaced by a canary, each noted in `given`. */
function withCanaries(node: unknown, names: Set<string>, listed: Set<string>, given: string[], inMarked = false): unknown {
  if (Array.isArray(node)) return node.map((each) => withCanaries(each, names, listed, given, inMarked));
  if (isObject(node)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      Object.defineProperty(out, key, {
        value: withCanaries(value, names, listed, given, inMarked || names.has(key)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  if (!inMarked || (typeof node !== "string" && typeof node !== "number") || listed.has(String(node))) return node;
  const made = canary(node, given.length);
  given.push(String(made));
  return made;
}

let mock: RunningMock;
let proxy: AlteringProxy;
const mockLog: string[] = [];
const console: string[] = [];
const canaries: string[] = [];
let reportDir: string;
let code: number;

beforeAll(async () => {
  mock = await startMock({ port: 0, stateful: {}, log: (line) => mockLog.push(line) });
  const names = onlyMarkedNames();
  const listed = enumMembers();
  proxy = await startAlteringProxy(mock.url, (x) => {
    let body: unknown;
    try {
      body = JSON.parse(x.answer);
    } catch {
      return undefined;
    }
    const altered = withCanaries(body, names, listed, canaries);
    // An error's message echoes the last canaries handed out, as a server quoting what it holds would.
    if (x.status >= 400 && isObject(altered) && typeof altered.message === "string")
      altered.message = `${altered.message} (held: ${canaries.slice(-3).join(", ")})`;
    // The answer's headers plant a session cookie, the run's own key and a canary handed out before (a server
    // echoing what it holds in a header of its own): the reports keep headers now, and must keep none of these.
    const held = canaries.at(-1);
    const headers: Record<string, string> = {
      "set-cookie": `sid=${COOKIE}; HttpOnly`,
      "x-echo-key": `key ${API_KEY}`,
      ...(held === undefined ? {} : { "x-held": held }),
    };
    return { status: x.status, body: JSON.stringify(altered), contentType: x.contentType, headers };
  });
  reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-redaction-"));
  const out = { log: (line: string) => console.push(line), error: (line: string) => console.push(line) };
  code = await runVerify(
    ["--base-url", proxy.url, "--har", "--cases", "2", "--report-dir", reportDir, "--api-key", API_KEY, "--management-key", MANAGEMENT_KEY, ...GATEWAY],
    out,
  );
});

afterAll(async () => {
  await proxy?.close();
  await mock?.stop();
  rmSync(reportDir, { recursive: true, force: true });
});

describe("verify's outputs and the mock's log, against the stateful mock behind a proxy putting canaries in every marked field", () => {
  it("ran every pass and the workflows, handing out enough canaries to mean something, and wrote a HAR file per workflow file", () => {
    expect(canaries.length).toBeGreaterThan(100);
    // Canaries break formats (a date of birth, an email) and the workflows' expectations: the run fails, as it should.
    expect(code).toBe(1);
    const hars = filesUnder(path.join(reportDir, "har"));
    expect(hars.length).toBe(readdirSync(WORKFLOWS_DIR).filter((file) => file.endsWith(".arazzo.yaml")).length);
    const text = hars.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(text).toContain(JSON.stringify(REMOVED.phi).slice(1, -1));
    expect(text).toContain(REMOVED.secret);
    expect(text).toContain(`[credential …${API_KEY.slice(-4)}]`);
  });

  const outputs = (): [string, string][] => [
    ...filesUnder(reportDir).map((file): [string, string] => [path.relative(reportDir, file), readFileSync(file, "utf8")]),
    ["console", console.join("\n")],
    ["mock log", mockLog.join("\n")],
  ];

  it("writes no canary, and no credential in full (the keys, the gateway's header), in any report, body file, HAR file, console line or log line", () => {
    const found: string[] = [];
    for (const [where, text] of outputs())
      for (const value of [...canaries, API_KEY, MANAGEMENT_KEY, GATEWAY_TOKEN, COOKIE]) if (text.includes(value)) found.push(`${where}: ${value}`);
    expect(found).toEqual([]);
  });

  it("keeps what the server answered each failure a cause keeps whole, in every report and the console, its marked values removed where they stand", () => {
    const report = JSON.parse(readFileSync(path.join(reportDir, "verify-report.json"), "utf8")) as { checks: Check[] };
    const answered = report.checks.filter((check) => check.answer !== undefined);
    expect(answered.length).toBeGreaterThan(5);
    // Only a failure keeps an answer.
    expect(answered.every((check) => check.status === "failed")).toBe(true);
    // The headers a server sent, but the cookie and the one holding a credential; the one echoing a canary kept, the
    // canary taken out of it.
    const headerNames = new Set(answered.flatMap((check) => Object.keys(check.answer!.headers)));
    expect(headerNames).toContain("x-held");
    expect(headerNames).not.toContain("set-cookie");
    expect(headerNames).not.toContain("x-echo-key");
    expect(answered.some((check) => check.answer!.headers["x-held"] === REMOVED.phi || check.answer!.headers["x-held"] === REMOVED.secret)).toBe(true);
    // A workflow's failed step keeps its answer too, as respect's log gives it, headers included.
    const steps = answered.filter((check) => check.suite.startsWith("workflow "));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.some((check) => check.answer!.headers["content-type"]?.startsWith("application/json") && "x-held" in check.answer!.headers)).toBe(true);
    // Bodies with the canaries' fields removed where they stand (the failures' answers hold marked fields).
    expect(answered.some((check) => check.answer!.bodyForm === "json" && check.answer!.body.includes(REMOVED.phi))).toBe(true);
    const junit = readFileSync(path.join(reportDir, "verify-junit.xml"), "utf8");
    expect(junit).toContain("answered:\nHTTP ");
    expect(readFileSync(path.join(reportDir, "verify-report.html"), "utf8")).toContain(`<details class="answer" open>`);
    expect(console.filter((line) => line.startsWith("    answered: HTTP ")).length).toBe(answered.length);
  });

  it("cuts no word of verify's own sentences: no placeholder stands glued to a letter, digit or underscore", () => {
    const glued = /[\p{L}\p{N}_]\[(phi|secret) removed\]|\[(phi|secret) removed\][\p{L}\p{N}_]/u;
    const cut = outputs().flatMap(([where, text]) =>
      text
        .split("\n")
        .filter((line) => glued.test(line))
        .map((line) => `${where}: ${line.slice(0, 200)}`),
    );
    expect(cut).toEqual([]);
    // A message listing an enumeration's values keeps every one of them.
    const listing = console.filter((line) => / must be one of: /.test(line));
    for (const line of listing) expect(line).not.toMatch(/must be one of: [^;]*\[(phi|secret) removed\]/);
  });
});

describe("verify against a server that echoes what it was sent", () => {
  it("writes what it sent as it is (its own values reproduce the failure) and the key masked, and names a body it cannot read without quoting it", async () => {
    // Every call refused with a declared 422 whose message quotes the request (body and headers), or, every other
    // call, with a page of HTML quoting it.
    const server = await startStub((arrival, res, index) => {
      // The gateway's header first (whole, then its token alone), as a gateway quoting what it refused would.
      const gateway = String(arrival.headers[GATEWAY_HEADER.toLowerCase()]);
      const echo = `${gateway} (token ${gateway.split(" ").at(-1)}) ${arrival.body} ${JSON.stringify(arrival.headers)}`;
      if (index % 2 === 1) return void res.writeHead(500, { "content-type": "text/html" }).end(`<html><title>Bad Gateway</title><p>${echo}</p></html>`);
      json(res, 422, { code: "invalid_request", message: `cannot take ${echo}`, details: [] });
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), "verify-echo-"));
    const lines: string[] = [];
    try {
      const out = { log: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
      await runVerify(["--base-url", server.url, "--only", "createInsurance", "--cases", "2", "--report-dir", dir, "--api-key", API_KEY, ...GATEWAY], out);
      const memberId = (requestExample("createInsurance", "commercial_plan") as { member_id: string }).member_id;
      const sent = server.arrivals.find((arrival) => arrival.url.pathname.endsWith("/insurance"));
      expect(JSON.parse(sent!.body)).toMatchObject({ member_id: memberId });
      const written = [lines.join("\n"), ...filesUnder(dir).map((file) => readFileSync(file, "utf8"))].join("\n");
      // The server's words are there; a page is named by its type, status line, size and title.
      expect(written).toContain("cannot take");
      expect(written).toMatch(/the body is not JSON \(text\/html, 500 Internal Server Error, \d+ bytes, titled "Bad Gateway"; not shown/);
      // The answers the report keeps: the page named the same way, never quoted; the echo's key masked.
      const answers = (JSON.parse(readFileSync(path.join(dir, "verify-report.json"), "utf8")) as { checks: Check[] }).checks.flatMap((check) =>
        check.answer === undefined ? [] : [check.answer],
      );
      expect(answers.find((answer) => answer.bodyForm === "described")?.body).toMatch(
        /^text\/html, 500 Internal Server Error, \d+ bytes, titled "Bad Gateway"; not shown/,
      );
      expect(answers.some((answer) => answer.status === 422 && answer.body.includes(`[credential …${API_KEY.slice(-4)}]`))).toBe(true);
      // The reproduction sends what verify sent: the contract's example, nobody's data.
      expect(lines.find((line) => line.startsWith("    reproduce: ") && line.includes("/insurance"))).toContain(memberId);
      expect(written).not.toContain(API_KEY);
      // The gateway's header reached the server, which quoted it in every answer; each output masks it (the token
      // alone, and with its scheme), and a reproduction reads it from its variable.
      expect(server.arrivals.every((arrival) => arrival.headers[GATEWAY_HEADER.toLowerCase()] === `Bearer ${GATEWAY_TOKEN}`)).toBe(true);
      const outputs = { console: lines.join("\n"), ...Object.fromEntries(filesUnder(dir).map((file) => [path.basename(file), readFileSync(file, "utf8")])) };
      expect(Object.keys(outputs)).toEqual(expect.arrayContaining(["console", "verify-report.json", "verify-junit.xml", "verify-report.html"]));
      for (const [where, text] of Object.entries(outputs)) expect(text.includes(GATEWAY_TOKEN), where).toBe(false);
      expect(written).toContain(`cannot take [credential …${GATEWAY_TOKEN.slice(-4)}] (token [credential …${GATEWAY_TOKEN.slice(-4)}])`);
      expect(lines.find((line) => line.startsWith("    reproduce: "))).toContain(`-H "${GATEWAY_HEADER}: $SVC_HEADER_X_GATEWAY_AUTHORIZATION"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});
