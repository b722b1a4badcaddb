// The names every plain object answers to (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, `valueOf`,
// `prototype`) sent wherever a request carries a name or a value, to every operation of the in-process mock, stateless
// and stateful: each gets what an ordinary unknown string of its shape gets, nothing it names disappears, and no shared
// object changes. Then each piece that looks a table up by such a name, called alone (the contract model, the mock's
// control and seed checks, the proxy's decoding and headers, verify's event contract and workflow proxy, the client);
// and the verify seeds that once failed createInsurance on `payor_code: "constructor"` and `"__proto__"`.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { startMock } from "../../scripts/commands/mock-server.ts";
import { makeClient } from "../../src/client/create-client.ts";
import { urlOf } from "../../src/client/request.ts";
import { Credentials } from "../../src/contract/credentials.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import type { ContractOperation } from "../../src/contract/operations.ts";
import { unlistedValues } from "../../src/contract/unlisted-values.ts";
import { validCalls } from "../../src/contract/valid-calls.ts";
import { fetchHandler, fetchRequest } from "../../src/mock/fetch-handler.ts";
import { createPipeline } from "../../src/mock/pipeline.ts";
import type { HeaderBag, MockRequest } from "../../src/mock/http-shapes.ts";
import { DEFAULT_SETTINGS } from "../../src/mock/state/model.ts";
import { loadSeed, type SeedData } from "../../src/mock/state/seed.ts";
import { seedProblem } from "../../src/mock/state/seed-check.ts";
import { decodedText, forwardedHeaders } from "../../src/mock/upstream.ts";
import { EventContract } from "../../src/verify/workflows/event-contract.ts";
import type { Sender } from "../../src/verify/sender.ts";
import { startWorkflowProxy } from "../../src/verify/workflows/workflow-proxy.ts";
import { table } from "../../generated/operations.ts";
import { contract, OPERATIONS_AT_LEAST, operations, responseExample } from "../support/contract.ts";
import { API_KEY_ID, SECOND_TEAM_ID, SECOND_USER_ID, TEAM_ID, USER_ID, WEBHOOK_ID } from "../support/calls.ts";
import { runVerifyInProcess, failures } from "../support/run-verify.ts";

const NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "prototype"] as const;

/** An ordinary unknown string of a name's shape (its length, its letters' case, its underscores): a length limit or a pattern treats both alike. */
const ordinary = (name: string) => name.replace(/[a-z]/g, "q").replace(/[A-Z]/g, "Q");

const TEAM_KEY = "sk_test_prototype_keys_0001";
const MANAGEMENT_KEY = "mk_test_prototype_keys_0001";
const ORG_TEAM_KEY = "sk_test_prototype_keys_org_0001";
const LINK_TOKEN = "mock-link-token-prototype-keys";
const ORG_ID = "0b1ec700-0000-4000-8000-0000000000a1";
const OWN_TEAM_ID = "0b1ec700-0000-4000-8000-0000000000a2";
const AT = "2025-01-02T03:04:05Z";

/** What the valid calls name, there before every stateful request: the users, the org's two teams, an API key and a webhook endpoint. */
const SEED: SeedData = {
  version: 1,
  teams: [
    {
      api_key: TEAM_KEY,
      id: OWN_TEAM_ID,
      name: "Prototype keys",
      created_at: AT,
      // A bulk import completes at once: a wait_for_completion would otherwise hold the loop.
      settings: { bulk_import_duration_ms: 0 },
      users: [
        { user_id: USER_ID, client_user_id: "prototype-keys-1", created_on: AT },
        { user_id: SECOND_USER_ID, client_user_id: "prototype-keys-2", created_on: AT },
      ],
    },
  ],
  orgs: [
    {
      management_key: MANAGEMENT_KEY,
      id: ORG_ID,
      teams: [
        {
          id: TEAM_ID,
          org_id: ORG_ID,
          name: "Org team",
          created_at: AT,
          custom_credentials: ["oura"],
          api_keys: [{ id: API_KEY_ID, team_id: TEAM_ID, label: "suite", key_preview: `${ORG_TEAM_KEY.slice(0, 20)}…`, created_at: AT, api_key: ORG_TEAM_KEY }],
          webhook_endpoints: [
            {
              id: WEBHOOK_ID,
              team_id: TEAM_ID,
              url: "https://hooks.example.com/svc",
              event_types: null,
              headers: {},
              enabled: true,
              description: null,
              created_at: AT,
              updated_at: AT,
              secret: "whsec_ZmFrZS1zZWNyZXQ=",
            },
          ],
        },
        { id: SECOND_TEAM_ID, org_id: ORG_ID, name: "Second org team", created_at: AT },
      ],
    },
  ],
};

const credentialTable = new Credentials(contract);
const CREDENTIAL_VALUES = { team: TEAM_KEY, management: MANAGEMENT_KEY, token: LINK_TOKEN } as const;
const VALID = validCalls(contract, operations);
const decoder = new TextDecoder();

/** A request as the cases vary it: the operation's path template (a literal segment may be replaced), its parts. */
interface Parts {
  template: string;
  path: Record<string, string>;
  query: [string, string][];
  body?: unknown;
  prefer?: string;
}

interface Case {
  op: ContractOperation;
  place: string;
  make: (value: string) => Parts;
}

type Key = string | number;

/** A JSON value's places: each string's, and each object's (where a property may be added). */
function places(value: unknown, at: Key[] = [], out: { strings: Key[][]; objects: Key[][] } = { strings: [], objects: [] }) {
  if (typeof value === "string") out.strings.push(at);
  else if (Array.isArray(value)) value.forEach((item, index) => places(item, [...at, index], out));
  else if (typeof value === "object" && value !== null) {
    out.objects.push(at);
    for (const [key, item] of Object.entries(value)) places(item, [...at, key], out);
  }
  return out;
}

function nodeAt(root: unknown, at: Key[]): any {
  return at.reduce((node: any, key) => node[key], root);
}

/** A copy with the string at `at` replaced. */
function withValue(body: unknown, at: Key[], value: string): unknown {
  const copy = structuredClone(body);
  nodeAt(copy, at.slice(0, -1))[at.at(-1)!] = value;
  return copy;
}

/** A copy with a property named `name` added to the object at `at`, as JSON.parse would make it: an own property, `__proto__` too. */
function withProperty(body: unknown, at: Key[], name: string): unknown {
  const copy = structuredClone(body);
  Object.defineProperty(nodeAt(copy, at), name, { value: "zz", enumerable: true, writable: true, configurable: true });
  return copy;
}

function queryOf(query: Record<string, unknown>): [string, string][] {
  return Object.entries(query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item): [string, string] => [name, String(item)]));
}

/** Every place of every operation's valid call where a request carries a name or a value. */
function casesOf(op: ContractOperation): Case[] {
  const valid = VALID[op.operationId]!;
  const base = (): Parts => ({
    template: op.template,
    path: { ...valid.path },
    query: queryOf(valid.query),
    ...(valid.body === undefined ? {} : { body: structuredClone(valid.body) }),
  });
  const cases: Case[] = [];
  const add = (place: string, make: (value: string) => Parts) => cases.push({ op, place, make });
  if (valid.body !== undefined) {
    const { strings, objects } = places(valid.body);
    for (const at of strings) add(`body value /${at.join("/")}`, (value) => ({ ...base(), body: withValue(valid.body, at, value) }));
    for (const at of objects) add(`body property name in /${at.join("/")}`, (value) => ({ ...base(), body: withProperty(valid.body, at, value) }));
  }
  add("query parameter name", (value) => ({ ...base(), query: [...queryOf(valid.query), [value, "zz"]] }));
  for (const parameter of op.parameters) {
    const name = String(parameter.name);
    if (parameter.in === "query")
      add(`query ${name}`, (value) => ({ ...base(), query: [...queryOf(valid.query).filter(([each]) => each !== name), [name, value]] }));
    if (parameter.in === "path") add(`path ${name}`, (value) => ({ ...base(), path: { ...valid.path, [name]: value } }));
  }
  const segments = op.template.split("/");
  const literal = segments.map((segment) => segment !== "" && !segment.startsWith("{")).lastIndexOf(true);
  add("path segment", (value) => ({ ...base(), template: segments.map((segment, i) => (i === literal ? encodeURIComponent(value) : segment)).join("/") }));
  for (const prefer of ["code", "example", "name"] as const) {
    add(`Prefer ${prefer}`, (value) => ({ ...base(), prefer: prefer === "name" ? `${value}=1` : `${prefer}=${value}` }));
  }
  return cases;
}

/** The request in the pipeline's form, as the fetch adapter makes it (its headers without a prototype): no Request to build per call. */
function requestOf(op: ContractOperation, parts: Parts): MockRequest {
  const path = parts.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parts.path[name] ?? ""));
  const search = new URLSearchParams(parts.query).toString();
  const headers: HeaderBag = Object.create(null);
  headers.accept = "application/json";
  const scheme = op.securitySchemes[0];
  const credential = scheme === undefined ? undefined : credentialTable.scheme(scheme);
  if (credential !== undefined) headers[credential.headerKey] = CREDENTIAL_VALUES[credential.kind];
  if (parts.prefer !== undefined) headers.prefer = parts.prefer;
  const text = parts.body === undefined ? "" : JSON.stringify(parts.body);
  if (parts.body !== undefined) Object.assign(headers, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
  return { method: op.method, target: `${path}${search === "" ? "" : `?${search}`}`, headers, body: () => text };
}

interface Seen {
  status: number;
  text: string;
  warning: string | null;
}

/** Where a marker stands in an answer: each value equal to it and each property named by it, by JSON Pointer. */
function markerPlaces(text: string, marker: string): string[] {
  if (!text.includes(marker)) return [];
  const found: string[] = [];
  const visit = (node: unknown, at: string) => {
    if (node === marker) found.push(`${at} =`);
    else if (Array.isArray(node)) node.forEach((item, index) => visit(item, `${at}/${index}`));
    else if (typeof node === "object" && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        const segment = key === marker ? "*" : key;
        if (key === marker) found.push(`${at}/* :`);
        visit(item, `${at}/${segment}`);
      }
    }
  };
  try {
    visit(JSON.parse(text), "");
  } catch {
    return [`not JSON: ${text.length} characters`];
  }
  return found.sort();
}

/** What is wrong with the name's answer beside its ordinary string's; undefined when it is what an unknown value gets. */
function difference(name: string, named: Seen, plain: Seen): string | undefined {
  const base = ordinary(name);
  if (named.status >= 500) return `${named.status}: ${named.text.slice(0, 200)}`;
  if (named.status !== plain.status) return `${named.status}, where ${base} gets ${plain.status}: ${named.text.slice(0, 200)}`;
  if (named.warning !== (plain.warning === null ? null : plain.warning.replaceAll(base, name)))
    return `warning ${named.warning}, where ${base} gets ${plain.warning}`;
  // A refusal says the same of both; an answer keeps the name wherever it keeps the ordinary string (ids and dates differ).
  if (named.status >= 400)
    return named.text === plain.text.replaceAll(base, name) ? undefined : `${named.text.slice(0, 300)}, where ${base} gets ${plain.text.slice(0, 300)}`;
  const kept = markerPlaces(named.text, name);
  const expected = markerPlaces(plain.text, base);
  return JSON.stringify(kept) === JSON.stringify(expected)
    ? undefined
    : `${name} stands at ${JSON.stringify(kept)}, where ${base} stands at ${JSON.stringify(expected)}`;
}

/** Everything a shared object could be changed in: Object.prototype, and the tables the mock reads. */
function sharedState() {
  const probe: Record<string, unknown> = {};
  return {
    prototypeNames: Object.getOwnPropertyNames(Object.prototype).sort(),
    prototypeKeys: Object.keys(Object.prototype),
    prototypeOfPrototype: Object.getPrototypeOf(Object.prototype),
    reads: [...NAMES, ...NAMES.map(ordinary), "zz", "polluted"].map((name) => [
      name,
      typeof probe[name],
      probe[name] === (Object.prototype as Record<string, unknown>)[name],
    ]),
    functions: [Object.prototype.toString, Object.prototype.hasOwnProperty, Object.prototype.valueOf, Object.prototype.constructor],
    arrayNames: Object.getOwnPropertyNames(Array.prototype).sort(),
    functionNames: Object.getOwnPropertyNames(Function.prototype).sort(),
    settings: JSON.stringify(DEFAULT_SETTINGS),
    contract: JSON.stringify(contract),
  };
}

describe("the names of Object.prototype's properties, sent to every operation of the mock", () => {
  for (const stateful of [false, true]) {
    it(`get what an ordinary unknown string gets, wherever they stand, ${stateful ? "stateful" : "stateless"}`, async () => {
      const before = sharedState();
      const pipeline = createPipeline({ document: contract, log: () => {}, ...(stateful ? { stateful: { data: SEED } } : {}) });
      // Each request meets the same state: what one before made or deleted would answer it otherwise. Only a write
      // the mock took (a 2xx to another method than GET) changes the state; a refusal leaves it as it was.
      let changed = false;
      const send = async (request: MockRequest): Promise<Seen> => {
        if (changed) loadSeed(pipeline.context.stateful!, SEED);
        const reply = await pipeline(request);
        changed = stateful && reply.status < 300 && request.method !== "GET";
        const warning = reply.headers.indexOf("x-svc-mock-warning");
        return {
          status: reply.status,
          text: reply.body === undefined ? "" : decoder.decode(reply.body),
          warning: warning < 0 ? null : reply.headers[warning + 1]!,
        };
      };
      const problems: string[] = [];
      const reached = new Set<string>();
      let sent = 0;
      for (const op of operations) {
        for (const { place, make } of casesOf(op)) {
          for (const name of NAMES) {
            const plain = await send(requestOf(op, make(ordinary(name))));
            const named = await send(requestOf(op, make(name)));
            sent += 2;
            const wrong = difference(name, named, plain);
            if (wrong !== undefined) problems.push(`${op.operationId}, ${place} = ${name}: ${wrong}`);
          }
          reached.add(op.operationId);
        }
      }
      expect(problems).toEqual([]);
      expect(reached.size).toBe(operations.length);
      expect(reached.size).toBeGreaterThanOrEqual(OPERATIONS_AT_LEAST);
      expect(sent).toBeGreaterThan(OPERATIONS_AT_LEAST * NAMES.length * 2 * 5);
      expect(sharedState()).toEqual(before);
    });
  }

  // The flake of issue 32: verify's generated pass sent payor_code "constructor", which the plan table found on Object.
  it("createInsurance takes each name as the payor code of a commercial plan, as any unknown code (stateful)", async () => {
    const pipeline = createPipeline({ document: contract, log: () => {}, stateful: { data: SEED } });
    const company = (responseExample("createInsurance", 200, "commercial_plan") as JsonObject).company;
    const createInsurance = operations.find((op) => op.operationId === "createInsurance")!;
    for (const payor of [...NAMES, "zz-unknown"]) {
      const reply = await pipeline(
        requestOf(createInsurance, {
          template: createInsurance.template,
          path: { user_id: USER_ID },
          query: [],
          body: { ...(VALID.createInsurance!.body as JsonObject), payor_code: payor },
        }),
      );
      const body = JSON.parse(decoder.decode(reply.body)) as JsonObject;
      expect([payor, reply.status, body.payor_code, body.company]).toEqual([payor, 200, payor, company]);
    }
  });

  it("a webhook endpoint keeps a header of each name a header may have, and refuses `__proto__` as it refuses `__qqqqq__` (stateful)", async () => {
    const pipeline = createPipeline({ document: contract, log: () => {}, stateful: { data: SEED } });
    const call = async (method: string, target: string, body?: unknown) => {
      const text = body === undefined ? "" : JSON.stringify(body);
      const reply = await pipeline({
        method,
        target,
        headers: { "x-management-key": MANAGEMENT_KEY, "content-type": "application/json", "content-length": String(text.length) },
        body: () => text,
      });
      return { status: reply.status, body: JSON.parse(decoder.decode(reply.body)) as any };
    };
    const hook = (names: readonly string[]) => ({
      ...(VALID.createWebhookEndpoint!.body as JsonObject),
      headers: JSON.parse(`{${names.map((name) => `${JSON.stringify(name)}: "value of ${name}"`).join(", ")}}`),
    });
    // A header's name starts with a letter or a digit (WebhookHeaders' propertyNames): `__proto__` is no header's name.
    const named = NAMES.filter((name) => /^[A-Za-z0-9]/.test(name));
    const created = await call("POST", `/v2/management/teams/${TEAM_ID}/webhooks`, hook(named));
    const read = await call("GET", `/v2/management/teams/${TEAM_ID}/webhooks/${created.body.id}`);
    const exported = await call("GET", "/_mock/data");
    const kept = exported.body.orgs[0].teams
      .flatMap((team: { webhook_endpoints: { id: string }[] }) => team.webhook_endpoints)
      .find((each: { id: string }) => each.id === created.body.id);
    expect([created.status, read.status, exported.status]).toEqual([201, 200, 200]);
    for (const [what, headers] of [
      ["created", created.body.headers],
      ["read", read.body.headers],
      ["exported", kept.headers],
    ]) {
      expect([what, Object.keys(headers).sort()]).toEqual([what, [...named].sort()]);
    }
    const refused = await Promise.all(
      ["__proto__", ordinary("__proto__")].map((name) => call("POST", `/v2/management/teams/${TEAM_ID}/webhooks`, hook([name]))),
    );
    expect(refused.map(({ status, body }) => [status, body.details])).toEqual(
      [0, 1].map(() => [422, [{ location: "body", field: "/headers", message: 'must match pattern "^[A-Za-z0-9][A-Za-z0-9-]*$"' }]]),
    );
  });
});

describe("the pieces that look a name up, called alone", () => {
  it("the stateful mock's PATCH /_mock/state refuses each name as a setting, and its settings stay as they were", async () => {
    const pipeline = createPipeline({ document: contract, log: () => {}, stateful: {} });
    const handle = fetchHandler(pipeline);
    const state = (method: string, body?: string) =>
      handle(
        new Request("http://mock.invalid/_mock/state", {
          method,
          headers: { "x-svc-api-key": TEAM_KEY, "content-type": "application/json" },
          ...(body === undefined ? {} : { body }),
        }),
      );
    // The team is made by a PATCH it takes; the refused ones then change nothing of it.
    expect((await state("PATCH", '{"settings": {"closed_beta_enabled": true}}')).status).toBe(200);
    for (const name of NAMES) {
      const refused = await state("PATCH", `{"settings": {${JSON.stringify(name)}: 1}}`);
      expect([name, refused.status, ((await refused.json()) as { details: { field: string }[] }).details.map((detail) => detail.field)]).toEqual([
        name,
        422,
        [`/settings/${name}`],
      ]);
    }
    const read = (await (await state("GET")).json()) as { team: { settings: object } };
    expect(read.team.settings).toEqual(DEFAULT_SETTINGS);
  });

  it("the seed's problems name a field called like a child list by the seed, not as a record", () => {
    for (const name of NAMES) {
      const problem = seedProblem({ teams: [] }, `/${name}/0`, "is not a field");
      expect([problem.record, problem.field]).toEqual(["the seed", `/${name}/0`]);
    }
  });

  it("the contract model finds an unlisted value under a property named after each name", () => {
    const open = { "x-svc-non-exhaustive": true, anyOf: [{ type: "string", enum: ["listed"] }, { type: "string" }] };
    const document: JsonObject = {
      openapi: "3.1.0",
      paths: {},
      components: { schemas: { Tags: { type: "object", properties: { id: { type: "string" } }, additionalProperties: open } } },
    };
    const op = {
      operationId: "tag",
      parameters: [],
      requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Tags" } } } },
    } as unknown as ContractOperation;
    const input = { pathParams: {}, query: new URLSearchParams(), headers: {}, body: undefined, contentType: undefined };
    for (const name of NAMES) {
      const body = JSON.parse(`{${JSON.stringify(name)}: "zz"}`);
      expect(unlistedValues(document, op, input, body).map((found) => [found.field, found.value])).toEqual([[`/${name}`, "zz"]]);
    }
  });

  it("the mock's fetch adapter keeps a header of each name", () => {
    const request = new Request("http://mock.invalid/v2/providers", { headers: NAMES.map((name): [string, string] => [name, `value of ${name}`]) });
    const headers = fetchRequest(request).headers;
    expect(NAMES.map((name) => [name, Object.hasOwn(headers, name.toLowerCase()) ? headers[name.toLowerCase()] : "missing"])).toEqual(
      NAMES.map((name) => [name, `value of ${name}`]),
    );
  });

  it("the proxy forwards a header of each name, and does not undo a Content-Encoding of each name", async () => {
    const sent: Record<string, string> = Object.create(null);
    for (const name of NAMES) sent[name] = `value of ${name}`;
    expect(Object.entries(forwardedHeaders(sent))).toEqual(NAMES.map((name) => [name, `value of ${name}`]));
    for (const name of NAMES) {
      expect(await decodedText(Buffer.from("{}"), name, 1024)).toEqual({
        unread: `the body is in Content-Encoding ${name.toLowerCase()}, which the proxy does not undo; not checked`,
      });
    }
  });

  it("verify's event contract defines no event kind of each name", () => {
    const events = new EventContract(contract);
    expect(NAMES.filter((name) => events.defines(name))).toEqual([]);
    expect(events.defines("provider.connection.created")).toBe(true);
  });

  it("verify's workflow proxy passes on an answer's header of each name", async () => {
    const answerHeaders = new Headers(NAMES.map((name): [string, string] => [name, `value of ${name}`]));
    const sender = { send: async () => ({ kind: "answer", status: 200, statusText: "OK", headers: answerHeaders, text: "{}", ms: 1 }) } as unknown as Sender;
    const proxy = await startWorkflowProxy("http://127.0.0.1:9", sender);
    try {
      const raw = await new Promise<string[]>((resolve, reject) =>
        http.get(`${proxy.url}/v2/providers`, (res) => (res.resume(), resolve(res.rawHeaders))).on("error", reject),
      );
      const names = raw.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
      expect(NAMES.map((name) => name.toLowerCase()).filter((name) => !names.includes(name))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("the client writes each name as a path value, a query name and a query value, and only the query's own names", async () => {
    for (const name of NAMES) {
      const query = JSON.parse(`{${JSON.stringify(name)}: ${JSON.stringify(name)}}`) as Record<string, unknown>;
      expect(urlOf("http://api.invalid", "/v2/user/{user_id}", { path: { user_id: name }, query })).toBe(`http://api.invalid/v2/user/${name}?${name}=${name}`);
    }
    // A query made from another object keeps that object's properties to itself.
    const inherited = Object.assign(Object.create({ inherited: "x" }) as Record<string, unknown>, { size: 1 });
    expect(urlOf("http://api.invalid", "/v3/orders", { query: inherited })).toBe("http://api.invalid/v3/orders?size=1");
    const client = makeClient("createClient", table, { baseUrl: "http://api.invalid", apiKey: TEAM_KEY } as never) as {
      paginate(method: string, path: string): AsyncGenerator<unknown>;
    };
    for (const name of NAMES) {
      await expect(client.paginate(name, "/v2/link/bulk_op").next(), name).rejects.toThrow(`${name} /v2/link/bulk_op is not an operation of createClient`);
    }
  });
});

describe("verify against the stateful mock, on the seeds that once failed createInsurance", () => {
  // Seed 18 generated payor_code "__proto__", seed 31 "constructor": each failed as a 422 before the plan table was a Map.
  it("passes createInsurance's generated calls with --seed 18 and --seed 31", async () => {
    const mock = await startMock({ port: 0, stateful: {} });
    try {
      for (const seed of ["18", "31"]) {
        const run = await runVerifyInProcess(["--base-url", mock.url, "--seed", seed, "--only", "createInsurance", "--cases", "4"]);
        expect([seed, failures(run)]).toEqual([seed, []]);
        expect(run.code).toBe(0);
      }
    } finally {
      await mock.stop();
    }
  });
});
