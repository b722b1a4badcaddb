// What every step of the mock's pipeline shares: the exchange it reads and fills in (a request as any transport hands
// it, Node's server or a Fetch API Request, and the reply the steps make), the context made once for the mock, and
// what a step gives back (a refusal, ANSWERED, or undefined to pass the request on).
import type { RouteMatch, Router } from "../../contract/router.ts";
import type { ContractValidator, RequestInput } from "../../contract/validator.ts";
import type { HeaderBag, MockRequest, Refusal, Reply, ServedFile } from "../http-shapes.ts";
import type { Choice, OperationAnswers, StaticAnswer } from "../static-answers.ts";
import type { Inventor } from "../prism-answers.ts";
import type { StatefulMock } from "../state/handlers.ts";
import type { ConditionsTable } from "../conditions.ts";
import type { Journal } from "../journal.ts";
import type { JsonObject } from "../../contract/json.ts";

/** What the steps learn about a request as it passes them. */
export interface Exchange {
  request: MockRequest;
  /** The request's headers (the request's own, kept at hand: every step reads them). */
  headers: HeaderBag;
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
  /** Headers a step adds to whatever answer follows (the open-enumeration warning). */
  extraHeaders: string[] | undefined;
  /** The answer, once a step made it. */
  reply: Reply | undefined;
  /** The condition that shaped the answer, for the journal. */
  condition: string | undefined;
}

/** Every field from the start, so each exchange has one shape; the steps fill them in. */
export function newExchange(request: MockRequest): Exchange {
  return {
    request,
    headers: request.headers,
    method: request.method.toUpperCase(),
    url: undefined!,
    match: undefined!,
    text: undefined,
    input: undefined!,
    body: undefined,
    choice: {},
    answer: undefined!,
    extraHeaders: undefined,
    reply: undefined,
    condition: undefined,
  };
}

/** What the steps read that is fixed for the mock's life: made once by `createPipeline`, or by a test by hand. */
export interface StepContext {
  /** The contract the mock answers for (as it validates it). */
  document: JsonObject;
  router: Router;
  validator: ContractValidator;
  /** The request headers an answer depends on: the content negotiation, Prefer, and every credential. */
  readHeaders: string[];
  /** Files served beside the API, by path and by each alias. */
  staticFiles: Map<string, ServedFile>;
  /** Undefined without `--stateful`. */
  stateful: StatefulMock | undefined;
  /** The checked, serialized bodies of stable stateful answers (stored objects that never change), by the object. */
  checkedBodies: WeakMap<object, Uint8Array>;
  /** An operation's table of static answers, made on its first request. */
  answersFor: (match: RouteMatch) => OperationAnswers;
  prism: Inventor | undefined;
  log: (line: string) => void;
  /** Each team's real-world conditions (latency, failures, dropped connections). */
  conditions: ConditionsTable;
  /** The requests received, per team; undefined when the journal is off. */
  journal: Journal | undefined;
  /** The team a request belongs to, for its conditions and the journal: the first credential it sends ("" for none). */
  teamOf: (headers: HeaderBag) => string;
}

/** A step made the answer itself (a preflight, a static file, the mock's answer) in `reply`: nothing after it runs. */
export const ANSWERED = "answered" as const;
export type Outcome = Refusal | typeof ANSWERED | undefined;
export type Step = (exchange: Exchange, context: StepContext) => Outcome | Promise<Outcome>;
