// What every step of the mock's pipeline shares: the exchange it reads and fills in, the context made once for the
// mock, and what a step gives back (a refusal, ANSWERED, or undefined to pass the request on).
import type http from "node:http";
import type { RouteMatch, Router } from "../../contract/router.ts";
import type { ContractValidator, ErrorDetail, RequestInput } from "../../contract/validator.ts";
import type { Choice, OperationAnswers, StaticAnswer } from "../answers.ts";
import type { Inventor } from "../dynamic.ts";
import type { StaticFile } from "../static-files.ts";
import type { StatefulMock } from "../state/handlers.ts";

/** A refusal in the contract's error body. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
}

/** What the steps learn about a request as it passes them. */
export interface Exchange {
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

/** Every field from the start, so each exchange has one shape; the steps fill them in. */
export function newExchange(req: http.IncomingMessage, res: http.ServerResponse): Exchange {
  return { req, res, method: (req.method ?? "GET").toUpperCase(), url: undefined!, match: undefined!, text: undefined, input: undefined!, body: undefined, choice: {}, answer: undefined! };
}

/** What the steps read that is fixed for the mock's life: made once by `createPipeline`, or by a test by hand. */
export interface StepContext {
  router: Router;
  validator: ContractValidator;
  /** The request headers an answer depends on: the content negotiation, Prefer, and every credential. */
  readHeaders: string[];
  /** Files served beside the API, by path and by each alias. */
  staticFiles: Map<string, StaticFile>;
  /** Undefined without `--stateful`. */
  stateful: StatefulMock | undefined;
  /** The checked, serialized bodies of stable stateful answers (stored objects that never change), by the object. */
  checkedBodies: WeakMap<object, Buffer>;
  /** An operation's table of static answers, made on its first request. */
  answersFor: (match: RouteMatch) => OperationAnswers;
  prism: Inventor | undefined;
  log: (line: string) => void;
}

/** A step wrote the answer itself (a preflight, a static file, the mock's answer): nothing after it runs. */
export const ANSWERED = "answered" as const;
export type Outcome = Refusal | typeof ANSWERED | undefined;
export type Step = (exchange: Exchange, context: StepContext) => Outcome | Promise<Outcome>;
