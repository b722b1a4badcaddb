// Every refusal the mock can give, provoked on every operation over raw HTTP: the status is one the operation declares, and the body is what it declares for it.
import http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS, type ContractOperation } from "../../src/contract/operations.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { assertMatchesContract, contract, operations, validator } from "../support/contract.ts";
import { createMockHost, REQUEST_TIMEOUT_MS } from "../../src/mock/host.ts";
import { listenOnLoopback } from "../../src/net/loopback-server.ts";
import { VALID_CALLS } from "../support/calls.ts";
import { mockUrl, TEST_API_KEY } from "../support/mock.ts";
import { CREDENTIALS, validTarget } from "../support/raw-http.ts";

interface Raw {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

/** Sends exactly the bytes given, with a length so Node frames a body on any method. */
function send(request: Raw): Promise<Answer> {
  const url = new URL(mockUrl);
  return new Promise((resolve, reject) => {
    const headers = { ...request.headers, ...(request.body === undefined ? {} : { "content-length": String(Buffer.byteLength(request.body)) }) };
    const req = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        let body: unknown = text;
        try {
          body = text === "" ? undefined : JSON.parse(text);
        } catch {
          // Left as text: the assertion on the body then says what came back.
        }
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    req.on("error", reject);
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

/** The operation's valid call of test/support/calls.ts, as raw HTTP with its credential. */
function validRequest(op: ContractOperation): Raw {
  const call = VALID_CALLS[op.operationId] ?? {};
  const path = validTarget(op);
  const header = validator.credentialHeader(op)!;
  const body = op.operation.requestBody === undefined ? undefined : JSON.stringify(call.body);
  return {
    method: op.method,
    path,
    headers: { [header]: CREDENTIALS[header]!, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body }),
  };
}

/** A method no operation at the operation's path answers. */
function otherMethod(op: ContractOperation): string {
  const taken = operations.filter((other) => other.template === op.template).map((other) => other.method);
  return HTTP_METHODS.map((m) => m.toUpperCase()).find((m) => !taken.includes(m) && m !== "HEAD" && m !== "OPTIONS")!;
}

/** Input the validator refuses, for operations that take any: a body that is not an object, or a scalar query parameter given twice. */
function invalidInput(op: ContractOperation, valid: Raw): Raw | undefined {
  if (op.operation.requestBody !== undefined) return { ...valid, body: "[1]" };
  const scalar = op.parameters.find((p) => p.in === "query" && (p.schema as JsonObject | undefined)?.type !== "array");
  if (scalar !== undefined) return { ...valid, path: `${valid.path}${valid.path.includes("?") ? "&" : "?"}${String(scalar.name)}=a&${String(scalar.name)}=b` };
  const uuidPath = op.parameters.find((p) => p.in === "path" && (p.schema as JsonObject | undefined)?.format === "uuid");
  if (uuidPath !== undefined) return { ...valid, path: valid.path.replace(/[0-9a-f-]{36}/, "not-a-uuid") };
  return undefined;
}

interface Provocation {
  what: string;
  request: (op: ContractOperation, valid: Raw) => Raw | undefined;
  /** The status it must get; undefined where the operation ignores what was sent (a body sent to an operation that takes none). */
  expected: (op: ContractOperation) => number | undefined;
}

const takesBody = (op: ContractOperation) => op.operation.requestBody !== undefined;
const HUGE = `{"padding":"${"x".repeat((1 << 20) + 16)}"}`;

const PROVOCATIONS: Provocation[] = [
  {
    what: "no credential",
    request: (_, valid) => ({ ...valid, headers: { accept: "application/json", ...(valid.body ? { "content-type": "application/json" } : {}) } }),
    expected: () => 401,
  },
  { what: "a method the path does not answer", request: (op, valid) => ({ ...valid, method: otherMethod(op) }), expected: () => 405 },
  { what: "Accept: text/html", request: (_, valid) => ({ ...valid, headers: { ...valid.headers, accept: "text/html" } }), expected: () => 406 },
  {
    what: "a body over 1 MiB",
    request: (_, valid) => ({ ...valid, headers: { ...valid.headers, "content-type": "application/json" }, body: HUGE }),
    expected: () => 413,
  },
  {
    what: "a body sent as text/plain",
    request: (_, valid) => ({ ...valid, headers: { ...valid.headers, "content-type": "text/plain" }, body: valid.body ?? '{"a":1}' }),
    expected: (op) => (takesBody(op) ? 415 : undefined),
  },
  {
    what: "malformed JSON",
    request: (_, valid) => ({ ...valid, headers: { ...valid.headers, "content-type": "application/json" }, body: "{" }),
    expected: (op) => (takesBody(op) ? 400 : undefined),
  },
  { what: "invalid input", request: (op, valid) => invalidInput(op, valid), expected: () => 422 },
];

describe("every refusal the mock gives is declared by the operation it refuses", () => {
  for (const op of operations) {
    describe(`${op.method} ${op.template} (${op.operationId})`, () => {
      for (const provocation of PROVOCATIONS) {
        const request = provocation.request(op, validRequest(op));
        if (request === undefined) continue;
        it(`answers ${provocation.what} with a declared status and body`, async () => {
          const answer = await send(request);
          const expected = provocation.expected(op);
          if (expected !== undefined) expect(answer.status).toBe(expected);
          else expect(answer.status).toBeLessThan(300);
          expect(Object.keys(op.operation.responses as JsonObject), `${op.operationId} does not declare ${answer.status}`).toContain(String(answer.status));
          assertMatchesContract(op.operationId, answer.status, answer.body);
          if (answer.status === 405) expect(String(answer.headers.allow)).toContain(op.method);
        });
      }
    });
  }

  it("declares the transport-level refusals on every operation, from the one shared list", () => {
    for (const op of operations) {
      const responses = op.operation.responses as JsonObject;
      for (const status of ["400", "405", "406", "408", "413", "414", "415", "429", "431", "500"]) {
        expect(responses[status], `${op.operationId} ${status}`).toEqual({ $ref: expect.stringMatching(/^#\/components\/responses\//) });
      }
    }
  });
});

describe("too many requests and a failure of the service (429, 500), declared on every operation", () => {
  it("answers 429 with the error body and its required Retry-After, on Prefer", async () => {
    const valid = validRequest(operations.find((op) => op.operationId === "listLabs")!);
    const answer = await send({ ...valid, headers: { ...valid.headers, prefer: "code=429" } });
    expect(answer.status).toBe(429);
    expect(answer.headers["retry-after"]).toBe("30");
    expect(answer.body).toMatchObject({ code: "rate_limited" });
    assertMatchesContract("listLabs", 429, answer.body);
  });

  it("answers 500 with the error body, on Prefer", async () => {
    const valid = validRequest(operations.find((op) => op.operationId === "createLinkToken")!);
    const answer = await send({ ...valid, headers: { ...valid.headers, prefer: "code=500" } });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ code: "internal_error" });
    assertMatchesContract("createLinkToken", 500, answer.body);
  });

  it("sends neither unasked: a valid request gets its success", async () => {
    const answer = await send(validRequest(operations.find((op) => op.operationId === "listLabs")!));
    expect(answer.status).toBe(200);
    expect(answer.headers["retry-after"]).toBeUndefined();
  });
});

describe("a request that does not arrive in time", () => {
  it("gets 408 in the contract's error body once the request timeout passes, not a connection held for minutes", async () => {
    // The mock's own host with a short deadline: the default (REQUEST_TIMEOUT_MS) would hold the test for seconds.
    const host = await listenOnLoopback(createMockHost({ document: contract, staticFiles: {}, requestTimeoutMs: 300 }));
    const url = new URL(host.url);
    const started = Date.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        // Promises 50 bytes, sends 4.
        socket.write(
          `POST /v2/link/token HTTP/1.1\r\nHost: x\r\nx-svc-api-key: ${TEST_API_KEY}\r\ncontent-type: application/json\r\ncontent-length: 50\r\n\r\n{"a"`,
        );
      });
      let out = "";
      socket.on("data", (chunk) => (out += chunk));
      socket.on("close", () => resolve(out));
      socket.on("error", reject);
    });
    await host.close();
    // The host's own 300 ms, not the default it would wait out otherwise.
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(text.split("\r\n")[0]).toBe("HTTP/1.1 408 Request Timeout");
    const body = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as { message: string };
    assertMatchesContract("createLinkToken", 408, body);
    expect(body.message).toContain("300 ms");
    // What every mock uses when not told otherwise: seconds, not Node's five minutes.
    expect(REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  });
});
