// A request's way through the mock, top to bottom: each step passes it on, refuses it with a status the contract
// declares, or answers it. Everything fixed per operation (routes, validators, serialized answers) is made once.
import type http from "node:http";
import type { JsonObject } from "../contract/json.ts";
import { createRouter, type RouteMatch } from "../contract/router.ts";
import { ContractValidator, detailsLine, type ErrorDetail, type RequestInput } from "../contract/validator.ts";
import { answersOf, parsePrefer, pick, type Choice, type OperationAnswers, type StaticAnswer } from "./answers.ts";
import { chooseBranch } from "../contract/mock-branches.ts";
import { DYNAMIC_FALLBACK, dynamicAnswer, type Inventor } from "./dynamic.ts";
import { serveStatic, type StaticFile } from "./static-files.ts";
import { Credentials } from "../contract/credentials.ts";
import { acceptsJson, ANSWER_HEADERS, allowCors, answerPreflight, corsHeaders, JSON_TYPE, readBody, requestTarget, sendError } from "./http.ts";
import { listOperations } from "../contract/operations.ts";
import { StatefulMock } from "./state/handlers.ts";
import { CONTROL_METHODS, CONTROL_PATH, notStateful } from "./state/control.ts";
import { allowLoopbackWebhooks } from "./state/loopback-webhooks.ts";
import type { StateCaps, TeamSettings } from "./state/model.ts";
import type { StateAnswer } from "./state/answers.ts";

export interface PipelineOptions {
  document: JsonObject;
  /** Files served beside the API, such as the reference at /docs, by path (their aliases too). */
  staticFiles: Record<string, StaticFile>;
  /** Prism's invented answers, loaded on first use (only `Prefer: dynamic=true` asks); undefined when Prism is not installed. */
  prism?: Inventor;
  log: (line: string) => void;
  /** Remember what each team did (`--stateful`); without it, every answer comes from the examples. */
  stateful?: StatefulOptions;
}

/** The stateful mock's bounds and each new team's settings, where a caller (a test) wants others than the defaults. */
export interface StatefulOptions {
  caps?: Partial<StateCaps>;
  defaults?: Partial<TeamSettings>;
}

/** Says that the stateful mock's own answer broke the contract and was replaced by a 500 (a fault of the mock). */
const CONTRACT_VIOLATION = "x-svc-mock-contract-violation";

/** A refusal in the contract's error body. */
interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

/** What the steps learn about a request as it passes them. */
interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  method: string;
  url: URL;
  match: RouteMatch;
  /** The body as sent; undefined when it is over the size limit. */
  text: string | undefined;
  /** What the validator reads of the request, made once the body has arrived. */
  input: RequestInput;
  body: unknown;
  choice: Choice;
  answer: StaticAnswer;
}

/** A step wrote the answer itself (a preflight, a static file, the mock's answer): nothing after it runs. */
const ANSWERED = "answered" as const;
type Step = (exchange: Exchange) => Refusal | typeof ANSWERED | undefined | Promise<Refusal | typeof ANSWERED | undefined>;

const preferDetail = (message: string): ErrorDetail[] => [{ location: "header", field: "prefer", message }];

export function createPipeline(options: PipelineOptions): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  // The stateful mock also takes loopback http webhook URLs, so it validates against a copy that says so.
  const document = options.stateful === undefined ? options.document : allowLoopbackWebhooks(options.document);
  const router = createRouter(document);
  const validator = new ContractValidator(document);
  /** The request headers an answer depends on: the content negotiation, Prefer, and every credential. */
  const readHeaders = [...ANSWER_HEADERS, ...new Credentials(document).headerKeys()];
  const stateful = options.stateful === undefined ? undefined : new StatefulMock({ document, operations: listOperations(document), ...options.stateful, log: options.log });
  /** The checked, serialized bodies of stable answers (stored objects that never change), by the object. */
  const checkedBodies = new WeakMap<object, Buffer>();
  const sendState = (x: Exchange, answer: StateAnswer, serialized?: Buffer) => {
    const body = serialized ?? Buffer.from(JSON.stringify(answer.body));
    x.res.writeHead(answer.status, ["content-type", JSON_TYPE, "content-length", String(body.length), ...Object.entries(answer.headers ?? {}).flat(), ...corsHeaders(x.req)]);
    x.res.end(body);
    return ANSWERED;
  };
  const answers = new Map<string, OperationAnswers>();
  const answersFor = (match: RouteMatch): OperationAnswers => {
    let found = answers.get(match.operation.operationId);
    if (found === undefined) answers.set(match.operation.operationId, (found = answersOf(document, match.operation)));
    return found;
  };

  const staticFiles = new Map<string, StaticFile>();
  for (const [where, file] of Object.entries(options.staticFiles)) for (const at of [where, ...(file.aliases ?? [])]) staticFiles.set(at, file);

  /** Sends a stateful answer once it keeps the contract; undefined (no answer) passes the request on to the examples. */
  const sendRemembered = (x: Exchange, answer: StateAnswer | undefined): Refusal | typeof ANSWERED | undefined => {
    if (answer === undefined) return undefined;
    const stable = answer.stable === true && typeof answer.body === "object" && answer.body !== null ? answer.body : undefined;
    const checked = stable === undefined ? undefined : checkedBodies.get(stable);
    if (checked !== undefined) return sendState(x, answer, checked);
    // What the state makes is checked like anything Prism invents: an answer that breaks the contract is the mock's fault.
    const violations = validator.validateResponse(x.match.operation, answer.status, answer.body);
    if (violations.length === 0) {
      const serialized = Buffer.from(JSON.stringify(answer.body));
      if (stable !== undefined) checkedBodies.set(stable, serialized);
      return sendState(x, answer, serialized);
    }
    const why = detailsLine(violations).slice(0, 300);
    options.log(`stateful ${x.match.operation.operationId}: the answer ${answer.status} broke the contract: ${why}`);
    return { status: 500, code: "internal_error", message: "The stateful mock made an answer that breaks the contract; its log has the details.", headers: { [CONTRACT_VIOLATION]: why } };
  };

  const steps: Step[] = [
    function target(x) {
      const url = requestTarget(x.req.url);
      if (url === undefined) return { status: 400, code: "invalid_request", message: "The request target is not a path nor an absolute URL." };
      x.url = url;
      return undefined;
    },
    function control(x) {
      if (x.url.pathname !== CONTROL_PATH) return undefined;
      if (stateful === undefined) return sendState(x, notStateful());
      // A browser's test suite resets and moves the clock too: its preflight is answered like an operation's.
      if (x.method === "OPTIONS" && x.req.headers["access-control-request-method"] !== undefined) {
        allowCors(x.req, x.res);
        answerPreflight(x.req, x.res, CONTROL_METHODS, readHeaders);
        return ANSWERED;
      }
      // Only a request to /_mock/state waits for its body here: every other one goes on without a promise.
      return readBody(x.req).then((text) =>
        text === undefined ? { status: 413, code: "payload_too_large", message: "The request body is larger than 1 MiB." } : sendState(x, stateful.control(x.method, x.req.headers, text)),
      );
    },
    function preflight(x) {
      if (x.method !== "OPTIONS" || x.req.headers["access-control-request-method"] === undefined || !router.pathExists(x.url.pathname)) return undefined;
      allowCors(x.req, x.res);
      answerPreflight(x.req, x.res, router.methodsAt(x.url.pathname), readHeaders);
      return ANSWERED;
    },
    function staticFile(x) {
      const file = staticFiles.get(x.url.pathname);
      if (!file || (x.method !== "GET" && x.method !== "HEAD")) return undefined;
      allowCors(x.req, x.res);
      const pending = file.pending?.();
      if (pending !== undefined) {
        x.res.writeHead(200, { "content-type": "text/html; charset=utf-8", refresh: "2" });
        x.res.end(x.method === "HEAD" ? undefined : `<!doctype html><title>Building</title><p>${pending}</p>`);
        return ANSWERED;
      }
      // Only a static file's request waits (to read and compress it): an API request goes on without a promise.
      return serveStatic(x.req, x.res, file).then((served) => (served ? ANSWERED : { status: 404, code: "not_found", message: `${x.url.pathname} has not been built; run npm run build.` }));
    },
    function route(x) {
      const match = router.match(x.method, x.url.pathname);
      if (match) {
        x.match = match;
        return undefined;
      }
      if (!router.pathExists(x.url.pathname)) return { status: 404, code: "not_found", message: `No operation of the contract answers at ${x.url.pathname}.` };
      const allow = router.methodsAt(x.url.pathname).join(", ");
      return { status: 405, code: "method_not_allowed", message: `${x.method} is not an operation of ${x.url.pathname}.`, headers: { allow } };
    },
    // From here on, every refusal is one the contract declares for every operation (the transport-level ones are added
    // by the bundle step, x-svc-transport-responses).
    async function receive(x) {
      x.text = await readBody(x.req);
      x.input = { pathParams: x.match.pathParams, query: x.url.searchParams, headers: x.req.headers, body: x.text, contentType: x.req.headers["content-type"] };
      return undefined;
    },
    function credential(x) {
      const refusal = validator.credentialRefusal(x.match.operation, x.req.headers);
      return refusal === undefined ? undefined : { status: 401, code: "unauthorized", message: refusal };
    },
    function accept(x) {
      if (acceptsJson(x.req.headers.accept)) return undefined;
      return { status: 406, code: "not_acceptable", message: `Every answer is application/json; the Accept header (${x.req.headers.accept}) allows none.` };
    },
    function size(x) {
      return x.text === undefined ? { status: 413, code: "payload_too_large", message: "The request body is larger than 1 MiB." } : undefined;
    },
    function body(x) {
      const read = validator.readBody(x.match.operation, x.input);
      if ("refusal" in read) return read.refusal;
      x.body = read.body;
      return undefined;
    },
    function parameters(x) {
      const details = validator.validateInput(x.match.operation, x.input, x.body);
      if (details.length === 0) return undefined;
      const parts = details.length === 1 ? "1 invalid part" : `${details.length} invalid parts`;
      return { status: 422, code: "invalid_request", message: `The request has ${parts}.`, details };
    },
    function remember(x) {
      // A Prefer header still chooses a declared answer, leaving the state as it is.
      if (stateful === undefined || x.req.headers.prefer !== undefined) return undefined;
      const answer = stateful.answer(x.match.operation, { operation: x.match.operation, path: x.match.pathParams, query: x.url.searchParams, headers: x.req.headers, body: x.body, bodyLength: x.text === undefined ? 0 : Buffer.byteLength(x.text) });
      // Most handlers answer at once; waiting only for those that wait keeps a request off the microtask queue.
      return answer instanceof Promise ? answer.then((settled) => sendRemembered(x, settled)) : sendRemembered(x, answer);
    },
    function branch(x) {
      const prefer = typeof x.req.headers.prefer === "string" && x.req.headers.prefer.trim() !== "" ? x.req.headers.prefer : undefined;
      const answers = answersFor(x.match);
      try {
        // A Prefer header chooses; otherwise the first branch of the document's rules the request meets (x-svc-mock-branches).
        x.choice = prefer !== undefined ? parsePrefer(prefer) : (chooseBranch(answers.branches, { body: x.body, query: x.url.searchParams })?.answer ?? {});
      } catch (error) {
        const message = (error as Error).message;
        return { status: 400, code: "invalid_request", message: `The Prefer header is not one the mock understands: ${message}.`, details: preferDetail(message) };
      }
      // Chosen even for a dynamic answer: an undeclared status or example is refused alike, and it is the fallback.
      const answer = pick(answers, x.match.operation.operationId, x.choice);
      if (typeof answer === "string") return { status: 400, code: "invalid_request", message: `The Prefer header chooses no answer the contract declares: ${answer}.`, details: preferDetail(answer) };
      x.answer = answer;
      return undefined;
    },
    async function respond(x) {
      let fallback: string[] = [];
      if (x.choice.dynamic === true) {
        const dynamic = await dynamicAnswer(options.prism, validator, { req: x.req, match: x.match, url: x.url, method: x.method, body: x.body, choice: x.choice, headers: readHeaders }, options.log);
        if (dynamic.answer) {
          // The headers the contract requires of that status (a 429's Retry-After), as a declared answer sends them.
          const required = answersFor(x.match).byStatus.get(dynamic.answer.status)?.values().next().value?.headers ?? [];
          x.res.writeHead(dynamic.answer.status, ["content-type", JSON_TYPE, "content-length", String(dynamic.answer.body.length), ...required, ...corsHeaders(x.req)]);
          x.res.end(dynamic.answer.body);
          return ANSWERED;
        }
        fallback = [DYNAMIC_FALLBACK, dynamic.why];
      }
      x.res.writeHead(x.answer.status, ["content-type", JSON_TYPE, "content-length", String(x.answer.body.length), ...x.answer.headers, ...corsHeaders(x.req), ...fallback]);
      x.res.end(x.answer.body);
      return ANSWERED;
    },
  ];

  return async function handle(req, res) {
    // Every field from the start, so each exchange has one shape; the steps fill them in.
    const exchange: Exchange = { req, res, method: (req.method ?? "GET").toUpperCase(), url: undefined!, match: undefined!, text: undefined, input: undefined!, body: undefined, choice: {}, answer: undefined! };
    for (const step of steps) {
      let outcome = step(exchange);
      // Most steps decide at once: waiting only for those that read or fetch keeps a request off the microtask queue.
      if (outcome instanceof Promise) outcome = await outcome;
      if (outcome === ANSWERED) return;
      if (outcome !== undefined) return sendError(res, outcome.status, outcome.code, outcome.message, outcome.details, outcome.headers);
    }
  };
}
