// Each step of the mock's pipeline called alone, on an exchange made by hand (a request in the pipeline's form, and
// its reply read back): what it refuses, what it fills in, what it answers, and when it passes the request on.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type http from "node:http";
import type { Refusal } from "../../src/mock/http-shapes.ts";
import { Readable } from "node:stream";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createRouter } from "../../src/contract/router.ts";
import { answersOf } from "../../src/mock/static-answers.ts";
import { exampleNames } from "../support/contract.ts";
import { filesByPath } from "../../src/mock/static-files.ts";
import { nodeRequest } from "../../src/mock/node-http.ts";
import { ConditionsTable } from "../../src/mock/conditions.ts";
import { DYNAMIC_FALLBACK, PRISM_NOT_INSTALLED } from "../../src/mock/prism-answers.ts";
import { StatefulMock } from "../../src/mock/state/handlers.ts";
import { ANSWERED, newExchange, type Exchange, type StepContext } from "../../src/mock/steps/exchange.ts";
import { preflight, staticFile, target } from "../../src/mock/steps/arrival.ts";
import { accept, body, credential, parameters, receive, route, size, unlisted } from "../../src/mock/steps/request-checks.ts";
import { MOCK_WARNING } from "../../src/mock/http-vocabulary.ts";
import { control, remember } from "../../src/mock/steps/stateful.ts";
import { CONTRACT_VIOLATION } from "../../src/mock/refusals.ts";
import { branch, collection, respond } from "../../src/mock/steps/contract-answer.ts";
import { contract, operations, validator } from "../support/contract.ts";

const KEY = { "x-svc-api-key": "team-key-1" };

/** What the steps answered, read from the exchange's reply (and the headers a step adds to any answer). */
class Recorder {
  constructor(private readonly x: Exchange) {}
  get status(): number | undefined {
    return this.x.reply?.status;
  }
  get headers(): Record<string, string> {
    const pairs = [...(this.x.reply?.headers ?? []), ...(this.x.extraHeaders ?? [])];
    const headers: Record<string, string> = {};
    for (let i = 0; i < pairs.length; i += 2) headers[pairs[i]!.toLowerCase()] = pairs[i + 1]!;
    return headers;
  }
  get body(): string | undefined {
    const body = this.x.reply?.body;
    return this.x.reply === undefined ? undefined : body === undefined ? "" : new TextDecoder().decode(body);
  }
  json(): unknown {
    return JSON.parse(this.body!);
  }
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** An exchange as the pipeline makes it, for a request with these headers and body (sent with its length). */
function exchange(method: string, target: string, headers: Record<string, string> = {}, text?: string): Exchange & { recorder: Recorder } {
  const sent = text === undefined ? headers : { "content-length": String(Buffer.byteLength(text)), ...headers };
  const x = newExchange({ method, target, headers: sent, body: () => Promise.resolve(text ?? "") });
  return Object.assign(x, { recorder: new Recorder(x) });
}

/** The exchange as it stands after the target and the route, without running either step. */
function routed(method: string, target: string, headers: Record<string, string> = {}, text?: string): Exchange & { recorder: Recorder } {
  const x = exchange(method, target, headers, text);
  x.url = new URL(target, "http://mock.invalid");
  x.match = router.match(x.method, x.url.pathname)!;
  x.text = text ?? "";
  x.input = { pathParams: x.match.pathParams, query: x.url.searchParams, headers: x.headers, body: x.text, contentType: headers["content-type"] };
  return x;
}

const router = createRouter(contract);

function context(overrides: Partial<StepContext> = {}): StepContext {
  return {
    document: contract,
    router,
    validator,
    readHeaders: ["accept", "content-type", "prefer", "x-svc-api-key"],
    staticFiles: new Map(),
    stateful: undefined,
    checkedBodies: new WeakMap(),
    answersFor: (match) => answersOf(contract, match.operation),
    prism: undefined,
    log: () => {},
    conditions: new ConditionsTable(),
    journal: undefined,
    teamOf: (headers) => (typeof headers["x-svc-api-key"] === "string" ? headers["x-svc-api-key"] : ""),
    ...overrides,
  };
}

const statefulMock = () => new StatefulMock({ document: contract, operations, log: () => {} });

describe("target", () => {
  it("reads an origin-form target into the exchange's URL", () => {
    const x = exchange("GET", "/v3/lab_tests/labs?page=2");
    expect(target(x)).toBeUndefined();
    expect(x.url.pathname).toBe("/v3/lab_tests/labs");
    expect(x.url.searchParams.get("page")).toBe("2");
  });

  it("refuses a target that is neither a path nor an absolute URL with a 400", () => {
    expect(target(exchange("GET", "*"))).toMatchObject({ status: 400, code: "invalid_request" });
  });
});

describe("control", () => {
  it("passes on every path but /_mock/state", () => {
    const x = routed("GET", "/v3/lab_tests/labs");
    expect(control(x, context({ stateful: statefulMock() }))).toBeUndefined();
    expect(x.recorder.status).toBeUndefined();
  });

  it("answers /_mock/state on the stateless mock with its conditions alone", async () => {
    const x = exchange("PATCH", "/_mock/state", KEY, JSON.stringify({ conditions: { latency_ms: 5 } }));
    x.url = new URL("http://mock.invalid/_mock/state");
    expect(await control(x, context())).toBe(ANSWERED);
    expect(x.recorder.status).toBe(200);
    expect(x.recorder.json()).toEqual({ stateful: false, conditions: { latency_ms: 5 } });
  });

  it("describes the credential's team on the stateful mock", async () => {
    const x = exchange("GET", "/_mock/state", KEY);
    x.url = new URL("http://mock.invalid/_mock/state");
    expect(await control(x, context({ stateful: statefulMock() }))).toBe(ANSWERED);
    expect(x.recorder.status).toBe(200);
  });

  it("answers a browser's preflight of /_mock/state with its methods", () => {
    const x = exchange("OPTIONS", "/_mock/state", { "access-control-request-method": "PATCH", origin: "http://app.test" });
    x.url = new URL("http://mock.invalid/_mock/state");
    expect(control(x, context({ stateful: statefulMock() }))).toBe(ANSWERED);
    expect(x.recorder.status).toBe(204);
    expect(x.recorder.headers["access-control-allow-methods"]).toBe("GET, PATCH, DELETE");
  });
});

describe("preflight", () => {
  it("answers a CORS preflight of an operation's path with the methods there and the headers the mock reads", () => {
    const x = exchange("OPTIONS", "/v2/user", { "access-control-request-method": "POST", origin: "http://app.test" });
    x.url = new URL("http://mock.invalid/v2/user");
    expect(preflight(x, context())).toBe(ANSWERED);
    expect(x.recorder.status).toBe(204);
    expect(x.recorder.headers["access-control-allow-methods"]).toBe("POST");
    expect(x.recorder.headers["access-control-allow-headers"]).toBe("accept, content-type, prefer, x-svc-api-key");
    expect(x.recorder.headers["access-control-allow-origin"]).toBe("http://app.test");
  });

  it("passes on an OPTIONS without Access-Control-Request-Method, and one to an unknown path", () => {
    const plain = exchange("OPTIONS", "/v2/user");
    plain.url = new URL("http://mock.invalid/v2/user");
    expect(preflight(plain, context())).toBeUndefined();
    const unknown = exchange("OPTIONS", "/v9/nothing", { "access-control-request-method": "GET" });
    unknown.url = new URL("http://mock.invalid/v9/nothing");
    expect(preflight(unknown, context())).toBeUndefined();
  });
});

describe("staticFile", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "steps-"));
  writeFileSync(path.join(folder, "doc.html"), "<p>reference</p>");
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const files = (pending?: string) =>
    filesByPath({
      "/docs": { path: path.join(folder, "doc.html"), type: "text/html", pending: () => pending },
      "/missing": { path: path.join(folder, "missing.html"), type: "text/html" },
    });
  const at = (method: string, where: string) => {
    const x = exchange(method, where);
    x.url = new URL(where, "http://mock.invalid");
    return x;
  };

  it("serves a built file", async () => {
    const x = at("GET", "/docs");
    expect(await staticFile(x, context({ staticFiles: files() }))).toBe(ANSWERED);
    expect(x.recorder.status).toBe(200);
    expect(x.recorder.body).toBe("<p>reference</p>");
  });

  it("answers a page that reloads itself while the file is being built", () => {
    const x = at("GET", "/docs");
    expect(staticFile(x, context({ staticFiles: files("Building the reference") }))).toBe(ANSWERED);
    expect(x.recorder.headers.refresh).toBe("2");
    expect(x.recorder.body).toContain("Building the reference");
  });

  it("refuses a file that has not been built with a 404", async () => {
    expect(await staticFile(at("GET", "/missing"), context({ staticFiles: files() }))).toMatchObject({ status: 404, code: "not_found" });
  });

  it("passes on other methods and other paths", () => {
    expect(staticFile(at("POST", "/docs"), context({ staticFiles: files() }))).toBeUndefined();
    expect(staticFile(at("GET", "/v3/lab_tests/labs"), context({ staticFiles: files() }))).toBeUndefined();
  });
});

describe("route", () => {
  const at = (method: string, where: string) => {
    const x = exchange(method, where);
    x.url = new URL(where, "http://mock.invalid");
    return x;
  };

  it("sets the operation and its path parameters", () => {
    const x = at("DELETE", "/v2/user/u-1");
    expect(route(x, context())).toBeUndefined();
    expect(x.match.operation.operationId).toBe("deleteUser");
    expect(x.match.pathParams).toEqual({ user_id: "u-1" });
  });

  it("refuses a path no operation answers with a 404", () => {
    expect(route(at("GET", "/v9/nothing"), context())).toMatchObject({ status: 404, code: "not_found" });
  });

  it("refuses another method with a 405 whose Allow names the path's methods", () => {
    expect(route(at("PUT", "/v2/user/u-1"), context())).toMatchObject({ status: 405, code: "method_not_allowed", headers: { allow: "DELETE" } });
  });
});

describe("receive", () => {
  it("reads the body and what the validator reads of the request", async () => {
    const x = routed("POST", "/v2/user?x=1", { ...KEY, "content-type": "application/json" }, '{"client_user_id":"a"}');
    x.text = undefined;
    x.input = undefined!;
    expect(await receive(x)).toBeUndefined();
    expect(x.text).toBe('{"client_user_id":"a"}');
    expect(x.input).toMatchObject({ body: '{"client_user_id":"a"}', contentType: "application/json", pathParams: {} });
    expect(x.input.query.get("x")).toBe("1");
  });

  it("leaves the text undefined for a body over 1 MiB, as Node's reader gives it", async () => {
    const text = "x".repeat((1 << 20) + 1);
    const stream = Readable.from([Buffer.from(text)]);
    const req = Object.assign(stream, {
      method: "POST",
      url: "/v2/user",
      headers: { ...KEY, "content-length": String(text.length) },
    }) as unknown as http.IncomingMessage;
    const x = routed("POST", "/v2/user", KEY, text);
    x.request = nodeRequest(req);
    expect(await receive(x)).toBeUndefined();
    expect(x.text).toBeUndefined();
  });
});

describe("credential", () => {
  it("passes on a request with the operation's credential", () => {
    expect(credential(routed("GET", "/v3/lab_tests/labs", KEY), context())).toBeUndefined();
  });

  it("refuses one without it with a 401 naming the header", () => {
    expect(credential(routed("GET", "/v3/lab_tests/labs"), context())).toMatchObject({
      status: 401,
      code: "unauthorized",
      message: expect.stringContaining("x-svc-api-key"),
    });
  });
});

describe("accept", () => {
  it("passes on JSON, a wildcard, or no Accept", () => {
    for (const header of [{ accept: "application/json" }, { accept: "*/*" }, {}] as Record<string, string>[])
      expect(accept(routed("GET", "/v3/lab_tests/labs", header))).toBeUndefined();
  });

  it("refuses an Accept that allows no JSON with a 406", () => {
    expect(accept(routed("GET", "/v3/lab_tests/labs", { accept: "text/html" }))).toMatchObject({ status: 406, code: "not_acceptable" });
  });
});

describe("size", () => {
  it("refuses a body over the limit with a 413, and passes on one within it", () => {
    const over = routed("POST", "/v2/user", KEY, "{}");
    over.text = undefined;
    expect(size(over)).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(size(routed("POST", "/v2/user", KEY, "{}"))).toBeUndefined();
  });
});

describe("body", () => {
  it("sets the parsed body", () => {
    const x = routed("POST", "/v2/user", { "content-type": "application/json" }, '{"client_user_id":"a"}');
    expect(body(x, context())).toBeUndefined();
    expect(x.body).toEqual({ client_user_id: "a" });
  });

  it("refuses a body not sent as JSON with a 415", () => {
    expect(body(routed("POST", "/v2/user", { "content-type": "text/plain" }, "{}"), context())).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });

  it("refuses a body that is not JSON with a 400", () => {
    expect(body(routed("POST", "/v2/user", { "content-type": "application/json" }, "{"), context())).toMatchObject({ status: 400, code: "invalid_json" });
  });
});

describe("parameters", () => {
  it("passes on valid parameters", () => {
    expect(parameters(routed("GET", "/v2/link/bulk_op?size=10"), context())).toBeUndefined();
  });

  it("refuses invalid ones with a 422 listing each", () => {
    expect(parameters(routed("GET", "/v2/link/bulk_op?size=1000&page=x"), context())).toMatchObject({
      status: 422,
      code: "invalid_request",
      message: "The request has 2 invalid parts.",
      details: expect.arrayContaining([
        expect.objectContaining({ location: "query", field: "size" }),
        expect.objectContaining({ location: "query", field: "page" }),
      ]),
    });
  });

  it("refuses a body that breaks its schema with a 422", () => {
    const x = routed("POST", "/v2/user", KEY);
    x.body = { client_user_id: 5 };
    expect(parameters(x, context())).toMatchObject({ status: 422, details: [expect.objectContaining({ location: "body" })] });
  });
});

describe("unlisted", () => {
  const psc = (query: string) => routed("GET", `/v3/order/3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f/psc/info?${query}`, KEY);

  it("passes on a value an open enumeration does not list, with a warning naming it and what the contract lists", () => {
    const x = psc("capabilities=stat&capabilities=drive_through");
    expect(unlisted(x, context())).toBeUndefined();
    expect(x.recorder.headers[MOCK_WARNING]).toBe(
      'capabilities "drive_through" is not one of the values the contract lists (stat, appointment_scheduling_via_svc, appointment_scheduling_with_lab); the service may add values, and may refuse one it does not support',
    );
  });

  it("names a body's value by its place, at most three listed values, and the other unlisted values after the first", () => {
    const x = routed("POST", "/v2/link/token", KEY);
    x.body = { user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f", provider: "ouraa", filter_on_providers: ["fitbitt"] };
    expect(unlisted(x, context())).toBeUndefined();
    expect(x.recorder.headers[MOCK_WARNING]).toMatch(
      /^provider "ouraa" is not one of the values the contract lists \(oura, fitbit, garmin, \.\.\.\) \(also unlisted: filter_on_providers\/0 "fitbitt"\); the service may add values/,
    );
  });

  it("keeps the warning one short line of printable ASCII, whatever the value", () => {
    const x = psc(`capabilities=${encodeURIComponent(`st\u00e4t\r\n${"x".repeat(500)}`)}`);
    unlisted(x, context());
    expect(x.recorder.headers[MOCK_WARNING]).toMatch(/^capabilities "st\\u00e4t\\r\\nx+\.\.\." is not one/);
    expect(x.recorder.headers[MOCK_WARNING]).toMatch(/^[\x20-\x7e]{1,300}$/);
  });

  it("adds nothing to a request of listed values", () => {
    const x = psc("capabilities=stat");
    expect(unlisted(x, context())).toBeUndefined();
    expect(x.recorder.headers[MOCK_WARNING]).toBeUndefined();
  });
});

describe("remember", () => {
  it("passes on without --stateful, and with a Prefer header", () => {
    expect(remember(routed("GET", "/v3/lab_tests/labs", KEY), context())).toBeUndefined();
    expect(remember(routed("GET", "/v3/lab_tests/labs", { ...KEY, prefer: "code=200" }), context({ stateful: statefulMock() }))).toBeUndefined();
  });

  it("sends the state's answer when it keeps the contract", async () => {
    const x = routed("POST", "/v2/user", KEY, '{"client_user_id":"steps-1"}');
    x.body = { client_user_id: "steps-1" };
    expect(await remember(x, context({ stateful: statefulMock() }))).toBe(ANSWERED);
    expect(x.recorder.status).toBe(200);
    expect(x.recorder.json()).toMatchObject({ client_user_id: "steps-1" });
    expect(validator.validateResponse(x.match.operation, 200, x.recorder.json())).toEqual([]);
  });

  it("replaces an answer that breaks the contract with a 500 saying why, and logs it", async () => {
    const lines: string[] = [];
    const broken = { answer: () => ({ status: 200, body: { not: "a lab list" } }) } as unknown as StatefulMock;
    const outcome = await remember(routed("GET", "/v3/lab_tests/labs", KEY), context({ stateful: broken, log: (line) => lines.push(line) }));
    expect(outcome).toMatchObject({ status: 500, code: "internal_error", headers: { [CONTRACT_VIOLATION]: expect.any(String) } });
    expect(lines).toEqual([expect.stringContaining("stateful listLabs: the answer 200 broke the contract")]);
  });
});

describe("branch", () => {
  it("chooses the operation's default answer when nothing chooses", () => {
    const x = routed("GET", "/v3/orders", KEY);
    expect(branch(x, context())).toBeUndefined();
    expect(x.choice).toEqual({});
    expect(x.answer.status).toBe(200);
  });

  it("chooses the first branch of the document's rules the request meets", () => {
    const x = routed("GET", "/v3/orders?interpretation=abnormal", KEY);
    expect(branch(x, context())).toBeUndefined();
    expect(x.choice).toEqual({ code: 200, example: "abnormal_results" });
    expect(x.answer.example).toBe("abnormal_results");
  });

  it("lets Prefer choose instead", () => {
    const x = routed("GET", "/v3/orders?interpretation=abnormal", { ...KEY, prefer: "code=401" });
    expect(branch(x, context())).toBeUndefined();
    expect(x.answer.status).toBe(401);
  });

  it("refuses a Prefer it cannot read, or one choosing an undeclared answer, with a 400 on the header", () => {
    expect(branch(routed("GET", "/v3/orders", { prefer: "code=abc" }), context())).toMatchObject({
      status: 400,
      details: [expect.objectContaining({ location: "header", field: "prefer" })],
    });
    expect(branch(routed("GET", "/v3/orders", { prefer: "code=299" }), context())).toMatchObject({ status: 400, message: expect.stringContaining("declares") });
  });

  it("names the examples there are when Prefer names none of them, and the nearest when it is near", () => {
    const names = exampleNames("listOrders", 200);
    expect(names.length).toBeGreaterThan(1);
    const unknown = branch(routed("GET", "/v3/orders", { ...KEY, prefer: "example=no_such_example" }), context()) as Refusal;
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain(`listOrders has no example no_such_example; it has 200: ${names.join(", ")}; 400: `);
    const misspelt = names[names.length - 1]!.slice(0, -1);
    const near = branch(routed("GET", "/v3/orders", { ...KEY, prefer: `code=200, example=${misspelt}` }), context()) as Refusal;
    expect(near.message).toContain(`listOrders 200 has no example ${misspelt} (did you mean ${names[names.length - 1]}?); it has ${names.join(", ")}`);
  });
});

describe("collection", () => {
  const answered = (target: string, headers: Record<string, string> = KEY) => {
    const x = routed("GET", target, headers);
    expect(branch(x, context())).toBeUndefined();
    expect(collection(x, context())).toBeUndefined();
    return {
      x,
      body: JSON.parse(text(x.answer.body)) as { orders: { interpretation: string | null }[]; total: number; page: number; size: number; pages: number },
    };
  };

  it("cuts the chosen example to the asked page, and says so", () => {
    const { body } = answered("/v3/orders?page=2&size=1");
    expect(body.orders).toHaveLength(1);
    expect({ page: body.page, size: body.size, pages: body.pages }).toEqual({ page: 2, size: 1, pages: body.total });
  });

  it("keeps only the items a filter matches", () => {
    const { body } = answered("/v3/orders?interpretation=normal");
    expect(body.orders.every((order) => order.interpretation === "normal")).toBe(true);
    expect(body.total).toBe(body.orders.length);
  });

  it("leaves an error answer and an operation without a list as they are", () => {
    for (const [target, headers] of [
      ["/v3/orders?size=1", { ...KEY, prefer: "code=401" }],
      ["/v3/lab_tests/labs", KEY],
    ] as const) {
      const x = routed("GET", target, headers);
      branch(x, context());
      const before = x.answer;
      expect(collection(x, context())).toBeUndefined();
      expect(x.answer).toBe(before);
    }
  });
});

describe("respond", () => {
  const chosen = (headers: Record<string, string>) => {
    const x = routed("GET", "/v3/lab_tests/labs", { ...KEY, ...headers });
    branch(x, context());
    return x;
  };

  it("sends the chosen declared answer", async () => {
    const x = chosen({});
    expect(await respond(x, context())).toBe(ANSWERED);
    expect(x.recorder.status).toBe(200);
    expect(x.recorder.headers["content-type"]).toBe("application/json");
    expect(x.recorder.body).toBe(text(x.answer.body));
  });

  it("sends Prism's invented answer when it keeps the contract", async () => {
    const body = JSON.parse(text(chosen({}).answer.body)) as unknown;
    const x = chosen({ prefer: "dynamic=true" });
    expect(await respond(x, context({ prism: async () => ({ status: 200, body }) }))).toBe(ANSWERED);
    expect(x.recorder.status).toBe(200);
    expect(x.recorder.json()).toEqual(body);
    expect(x.recorder.headers[DYNAMIC_FALLBACK]).toBeUndefined();
  });

  it("falls back to the declared answer, saying why, when Prism is not installed", async () => {
    const x = chosen({ prefer: "dynamic=true" });
    expect(await respond(x, context())).toBe(ANSWERED);
    expect(x.recorder.body).toBe(text(x.answer.body));
    expect(x.recorder.headers[DYNAMIC_FALLBACK]).toBe(PRISM_NOT_INSTALLED);
  });
});
