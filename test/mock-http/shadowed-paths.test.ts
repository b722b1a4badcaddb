// Paths matched by OpenAPI's rule, derived from the contract and from a fixture with several pairs: at a concrete path
// that shadows a templated one, every method the concrete path takes is its operation, and every other is a 405 naming
// the concrete path's methods, from the router and from the mock over HTTP (the preflight's methods too), never an
// operation of the templated path.
import http from "node:http";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { JsonObject } from "../../src/contract/json.ts";
import { HTTP_METHODS, listOperations, type ContractOperation } from "../../src/contract/operations.ts";
import { createRouter } from "../../src/contract/router.ts";
import { createMockHost } from "../../src/mock/host.ts";
import { listenOnLoopback, type Listening } from "../../src/net/loopback-server.ts";
import { VALID_CALLS } from "../support/calls.ts";
import { assertMatchesContract, contract } from "../support/contract.ts";
import { mockUrl } from "../support/mock.ts";
import { CREDENTIALS } from "../support/raw-http.ts";

const METHODS = HTTP_METHODS.map((method) => method.toUpperCase());
const isParameter = (segment: string) => /^\{[^}]+\}$/.test(segment);

interface PathItem {
  /** The path as the contract writes it (a path item's key or one of its aliases). */
  path: string;
  operations: ContractOperation[];
}

/** Every path of a contract, aliases included, with the operations it takes. */
function pathItems(operations: ContractOperation[]): PathItem[] {
  const byPath = new Map<string, ContractOperation[]>();
  for (const op of operations) for (const path of [op.template, ...op.aliases]) byPath.set(path, [...(byPath.get(path) ?? []), op]);
  return [...byPath].map(([path, ops]) => ({ path, operations: ops }));
}

/**
 * The pairs OpenAPI's rule decides, read from the paths' segments (not from the router under test): a concrete path has
 * a literal segment where the templated one has a parameter, and the same segments elsewhere.
 */
function shadowingPairs(items: PathItem[]): { concrete: PathItem; templated: PathItem }[] {
  const pairs: { concrete: PathItem; templated: PathItem }[] = [];
  for (const concrete of items) {
    for (const templated of items) {
      const c = concrete.path.split("/");
      const t = templated.path.split("/");
      if (c.length !== t.length || concrete === templated) continue;
      const fits = c.every((segment, i) => segment === t[i] || isParameter(t[i]!));
      if (fits && c.some((segment, i) => !isParameter(segment) && isParameter(t[i]!))) pairs.push({ concrete, templated });
    }
  }
  return pairs;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** One request with node:http, which sends any method (fetch refuses TRACE). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const url = new URL(path, base);
  const text = body === undefined ? undefined : JSON.stringify(body);
  const sent = text === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) };
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path: url.pathname, headers: sent }, (response) => {
      let read = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (read += chunk));
      response.on("end", () => {
        let parsed: unknown = read;
        try {
          parsed = read === "" ? undefined : JSON.parse(read);
        } catch {
          // Left as text: the assertion on the body then shows it.
        }
        resolve({ status: response.statusCode!, headers: response.headers, body: parsed });
      });
    });
    request.on("error", reject);
    request.end(text);
  });
}

const methodSet = (list: string) =>
  list
    .split(",")
    .map((method) => method.trim())
    .sort();

interface Case {
  name: string;
  document: JsonObject;
  /** Pairs the loops must at least run over, so a contract read as having none fails instead of passing empty. */
  expectedPairs: string[];
  baseUrl: () => string;
  /** The concrete path's URL: its parameters filled in. */
  url: (item: PathItem) => string;
  /** What a request for an operation carries: its credentials and body. */
  request: (op: ContractOperation) => { headers: Record<string, string>; body?: unknown };
  /** That an answer is the operation's own. */
  answeredBy: (op: ContractOperation, answer: Answer) => void;
}

function shadowedPathsOf(each: Case): void {
  describe(`concrete paths before templated ones: ${each.name}`, () => {
    const router = createRouter(each.document);
    const pairs = shadowingPairs(pathItems(listOperations(each.document)));

    it("has the pairs it is written for", () => {
      expect(pairs.map(({ concrete, templated }) => `${concrete.path} over ${templated.path}`)).toEqual(expect.arrayContaining(each.expectedPairs));
    });

    it("routes every method at a concrete path to its own operation, or to none with the concrete path's methods", () => {
      for (const { concrete, templated } of pairs) {
        const url = each.url(concrete);
        const own = concrete.operations.map((op) => op.method).sort();
        expect(router.pathExists(url), url).toBe(true);
        expect([...router.methodsAt(url)].sort(), url).toEqual(own);
        for (const method of METHODS) {
          const mine = concrete.operations.find((op) => op.method === method);
          const match = router.match(method, url);
          expect(match?.operation.operationId, `${method} ${url} (templated ${templated.path})`).toBe(mine?.operationId);
        }
      }
    });

    it("answers over HTTP as the router routes: the concrete operation, or a 405 with the concrete path's Allow, and preflights with its methods", async () => {
      for (const { concrete, templated } of pairs) {
        const url = each.url(concrete);
        const own = concrete.operations.map((op) => op.method).sort();
        // HEAD and OPTIONS are HTTP's own (a HEAD of a GET has no body to tell the operation by, an OPTIONS is a
        // preflight's); the router's test above covers them.
        for (const method of METHODS.filter((m) => m !== "HEAD" && m !== "OPTIONS")) {
          const mine = concrete.operations.find((op) => op.method === method);
          // Sent as the templated operation's valid call where it has one: routed wrongly, it would be answered.
          const shadowed = templated.operations.find((op) => op.method === method);
          const { headers, body } = each.request(mine ?? shadowed ?? concrete.operations[0]!);
          const answer = await send(each.baseUrl(), method, url, headers, body);
          const what = `${method} ${url}: ${JSON.stringify(answer.body)}`;
          if (mine !== undefined) {
            each.answeredBy(mine, answer);
            continue;
          }
          expect(answer.status, what).toBe(405);
          expect(methodSet(String(answer.headers.allow)), what).toEqual(own);
          expect((answer.body as { code?: string }).code, what).toBe("method_not_allowed");
        }
        const shadowedMethod = templated.operations.map((op) => op.method).find((method) => !own.includes(method))!;
        const preflight = await send(each.baseUrl(), "OPTIONS", url, { origin: "http://app.invalid", "access-control-request-method": shadowedMethod });
        expect(methodSet(String(preflight.headers["access-control-allow-methods"])), url).toEqual(own);
      }
    });
  });
}

shadowedPathsOf({
  name: "the contract",
  document: contract,
  expectedPairs: ["/v2/management/teams/{team_id}/custom_credentials/prepare over /v2/management/teams/{team_id}/custom_credentials/{provider}"],
  baseUrl: () => mockUrl,
  url: (item) => {
    const values = (VALID_CALLS[item.operations[0]!.operationId]?.params?.path ?? {}) as Record<string, string>;
    return item.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
  },
  request: (op) => ({ headers: { ...CREDENTIALS }, body: VALID_CALLS[op.operationId]?.body }),
  answeredBy: (op, answer) => {
    expect(answer.status, `${op.method} ${op.template}`).toBeGreaterThanOrEqual(200);
    expect(answer.status, `${op.method} ${op.template}`).toBeLessThan(300);
    assertMatchesContract(op.operationId, answer.status, answer.body);
  },
});

const fixture = parse(readFileSync(new URL("../fixtures/shadowed-paths/openapi.yaml", import.meta.url), "utf8")) as JsonObject;
let onFixture: Listening | undefined;
beforeAll(async () => {
  onFixture = await listenOnLoopback(createMockHost({ document: fixture, staticFiles: {} }));
});
afterAll(() => onFixture?.close());

shadowedPathsOf({
  name: "a fixture with several pairs, an alias among them",
  document: fixture,
  expectedPairs: [
    "/things/mine over /things/{thing_id}",
    "/things/me over /things/{thing_id}",
    "/teams/{team_id}/keys/current over /teams/{team_id}/keys/{key_id}",
    "/teams/{team_id}/keys/rotate over /teams/{team_id}/keys/{key_id}",
  ],
  baseUrl: () => onFixture!.url,
  url: (item) => item.path.replace(/\{[^}]+\}/g, "p-1"),
  request: (op) => ({ headers: {}, body: op.operation.requestBody === undefined ? undefined : {} }),
  answeredBy: (op, answer) => expect([answer.status, answer.body], `${op.method} ${op.template}`).toEqual([200, { answered_by: op.operationId }]),
});

describe("a tie OpenAPI leaves to the tooling", () => {
  const at = (paths: string[]) =>
    createRouter({
      openapi: "3.1.0",
      paths: Object.fromEntries(paths.map((path, i) => [path, { get: { operationId: `op${i}`, responses: {} } }])),
    });
  it("is decided by the first literal segment, whatever order the contract lists the paths in", () => {
    const paths = ["/teams/{team_id}/keys/current", "/teams/mine/keys/{key_id}"];
    for (const order of [paths, [...paths].reverse()]) {
      expect(at(order).match("GET", "/teams/mine/keys/current")?.pathParams, order.join(" then ")).toEqual({ key_id: "current" });
    }
  });
});
