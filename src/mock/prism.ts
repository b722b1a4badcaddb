// Stoplight Prism's dynamic mocking inside the mock's own process: @stoplight/prism-http, an optional peer dependency
// found where the mock runs, loaded on the first `Prefer: dynamic=true` only, so that static answers (nearly every
// request) never load it or pay for its memory, and no second process holds a second copy of Node and the contract.
import { createRequire, Module } from "node:module";
import path from "node:path";
import type { JsonObject } from "../contract/json.ts";
import type { InventedAnswer, Inventor, InventRequest } from "./prism-answers.ts";

export const PRISM_PACKAGE = "@stoplight/prism-http";

/** fp-ts's Either, the only part of fp-ts the mock reads (by its tag, so fp-ts itself is never imported). */
type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };

/** Prism's refusals (ProblemJsonError): an error named by a problem type URI, with the status Prism's server would send. */
interface PrismError {
  name: string;
  message: string;
  status?: number;
  detail?: string;
}

/** The pino logger Prism expects: a child per component, and one method per level. */
type PrismLogger = { child(bindings: object): PrismLogger } & Record<
  "trace" | "debug" | "info" | "success" | "warn" | "error" | "fatal",
  (...args: unknown[]) => void
>;

/** What the mock calls of @stoplight/prism-http 5.12; it is loaded at run time from wherever it is installed, so it is typed here. */
export interface PrismHttp {
  getHttpOperationsFromSpec(spec: object): Promise<unknown[]>;
  createInstance(
    config: object,
    components: { logger: PrismLogger },
  ): {
    request(
      input: { method: string; url: { path: string; query: Record<string, string | string[]> }; headers: Record<string, string>; body?: unknown },
      operations: unknown[],
      config: object,
    ): () => Promise<Either<PrismError, { output: { statusCode: number; body?: unknown } }>>;
  };
}

/**
 * Prism inventing only: the mock has already checked the credential and the request (and answers a bad one itself),
 * and validates whatever Prism invents against the contract, with the keywords Prism's own check ignores.
 */
const CONFIG = { isProxy: false, validateRequest: false, checkSecurity: false, validateResponse: false, errors: false, upstreamProxy: undefined };

const ignore = (): undefined => undefined;
/** Prism narrates every request at every level; the mock logs only what it decides. */
const silent: PrismLogger = { child: () => silent, trace: ignore, debug: ignore, info: ignore, success: ignore, warn: ignore, error: ignore, fatal: ignore };

/**
 * Prism's faker (@faker-js/faker 6, used only for `x-faker` keywords, which the contract has none of) loads all of its
 * sixty locales when Prism loads: about 20 MB and half a second of the mock's memory and first dynamic answer. Prism
 * is handed the English-only build of the same faker instead (English is faker's default locale) through Node's
 * require cache, before it loads. Prism's answers are the same (test/mock-http/prism-in-process.test.ts compares them);
 * a Prism without that faker loads as it is.
 */
function englishFaker(fromPrism: NodeJS.Require): void {
  try {
    const full = fromPrism.resolve("@faker-js/faker");
    if (fromPrism.cache[full] !== undefined) return;
    const english = fromPrism("@faker-js/faker/locale/en") as { constructor: unknown };
    const substitute = new Module(full);
    substitute.filename = full;
    // The shape of the full build's exports, which Prism reads as `default`.
    substitute.exports = { __esModule: true, default: english, faker: english, Faker: english.constructor };
    substitute.loaded = true;
    fromPrism.cache[full] = substitute;
  } catch {
    // Another faker, or none where Prism looks: Prism loads whatever it has.
  }
}

/** Where @stoplight/prism-http is installed, looked up from each place in turn (a file or package.json to resolve from); undefined when nowhere. */
export function findPrism(from: string[]): string | undefined {
  for (const place of from) {
    try {
      return createRequire(place).resolve(PRISM_PACKAGE);
    } catch {
      // Not installed where this looks; try the next place.
    }
  }
  return undefined;
}

/** Prism from `entry` (what findPrism found), with the English-only faker; Node's require cache keeps it for the process. */
export function loadPrism(entry: string): { prismHttp: PrismHttp; version: string; dir: string } {
  const fromPrism = createRequire(entry);
  englishFaker(fromPrism);
  const prismHttp = fromPrism(entry) as PrismHttp;
  const packageJson = fromPrism.resolve("../package.json");
  return { prismHttp, version: (fromPrism(packageJson) as { version: string }).version, dir: path.dirname(packageJson) };
}

function nameValues(query: URLSearchParams): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key);
    values[key] = all.length === 1 ? all[0]! : all;
  }
  return values;
}

/**
 * An inventor over Prism loaded from `entry` (what findPrism found), on first use. Its operations are made from a copy of
 * the contract, since Prism's dereferencing rewrites the document it is given.
 */
export function prismInventor(document: JsonObject, entry: string, log: (line: string) => void = () => {}): Inventor {
  let loaded: Promise<{ prism: ReturnType<PrismHttp["createInstance"]>; operations: unknown[] }> | undefined;
  const load = async () => {
    const started = performance.now();
    const { prismHttp, version, dir } = loadPrism(entry);
    const operations = await prismHttp.getHttpOperationsFromSpec(structuredClone(document));
    log(`prism: loaded ${PRISM_PACKAGE} ${version} (${dir}) into this process for dynamic answers, in ${Math.round(performance.now() - started)} ms`);
    return { prism: prismHttp.createInstance({ ...CONFIG, mock: { dynamic: true } }, { logger: silent }), operations };
  };
  return async (request: InventRequest): Promise<InventedAnswer> => {
    // Kept even when it failed: a Prism that does not load is reported on every dynamic request, not retried on each.
    loaded ??= load();
    const { prism, operations } = await loaded;
    const input = {
      method: request.method.toLowerCase(),
      url: { path: request.path, query: nameValues(request.query) },
      headers: request.headers,
      body: request.body,
    };
    // Prefer's code and example, as Prism's own server reads them from the header; an example is sent as declared.
    const mock = {
      dynamic: true,
      ...(request.code === undefined ? {} : { code: request.code }),
      ...(request.example === undefined ? {} : { exampleKey: request.example }),
    };
    const result = await prism.request(input, operations, { ...CONFIG, mock })();
    if (result._tag === "Right") return { status: result.right.output.statusCode, body: result.right.output.body };
    // A refusal of Prism's own (no such example, a schema it cannot fake), in the problem body its server would send.
    const error = result.left;
    return { status: error.status ?? 500, body: { type: error.name, title: error.message, status: error.status ?? 500, detail: error.detail ?? "" } };
  };
}
