// A request's way through the mock, top to bottom: each step passes it on, refuses it with a status the contract
// declares, or answers it. Everything fixed per operation (routes, validators, serialized answers) is made once.
import type http from "node:http";
import type { JsonObject } from "../contract/json.ts";
import { createRouter, type RouteMatch } from "../contract/router.ts";
import { ContractValidator } from "../contract/validator.ts";
import { answersOf, type OperationAnswers } from "./answers.ts";
import type { Inventor } from "./dynamic.ts";
import type { StaticFile } from "./static-files.ts";
import { Credentials } from "../contract/credentials.ts";
import { ANSWER_HEADERS, sendError } from "./http.ts";
import { listOperations } from "../contract/operations.ts";
import { StatefulMock } from "./state/handlers.ts";
import { allowLoopbackWebhooks } from "./state/loopback-webhooks.ts";
import type { StateCaps, TeamSettings } from "./state/model.ts";
import { ANSWERED, newExchange, type Step, type StepContext } from "./steps/exchange.ts";
import { preflight, staticFile, target } from "./steps/arrival.ts";
import { accept, body, credential, parameters, receive, route, size, unlisted } from "./steps/checks.ts";
import { control, remember } from "./steps/stateful.ts";
import { branch, collection, respond } from "./steps/answer.ts";

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

/** The steps in the order a request meets them; from `receive` on, every refusal is one each operation declares. */
const STEPS: Step[] = [target, control, preflight, staticFile, route, receive, credential, accept, size, body, parameters, unlisted, remember, branch, collection, respond];

export function createPipeline(options: PipelineOptions): (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  // The stateful mock also takes loopback http webhook URLs, so it validates against a copy that says so.
  const document = options.stateful === undefined ? options.document : allowLoopbackWebhooks(options.document);
  const answers = new Map<string, OperationAnswers>();
  const staticFiles = new Map<string, StaticFile>();
  for (const [where, file] of Object.entries(options.staticFiles)) for (const at of [where, ...(file.aliases ?? [])]) staticFiles.set(at, file);
  const context: StepContext = {
    router: createRouter(document),
    validator: new ContractValidator(document),
    readHeaders: [...ANSWER_HEADERS, ...new Credentials(document).headerKeys()],
    staticFiles,
    stateful: options.stateful === undefined ? undefined : new StatefulMock({ document, operations: listOperations(document), ...options.stateful, log: options.log }),
    checkedBodies: new WeakMap(),
    answersFor(match: RouteMatch): OperationAnswers {
      let found = answers.get(match.operation.operationId);
      if (found === undefined) answers.set(match.operation.operationId, (found = answersOf(document, match.operation)));
      return found;
    },
    prism: options.prism,
    log: options.log,
  };

  return async function handle(req, res) {
    const exchange = newExchange(req, res);
    for (const step of STEPS) {
      let outcome = step(exchange, context);
      // Most steps decide at once: waiting only for those that read or fetch keeps a request off the microtask queue.
      if (outcome instanceof Promise) outcome = await outcome;
      if (outcome === ANSWERED) return;
      if (outcome !== undefined) return sendError(res, outcome.status, outcome.code, outcome.message, outcome.details, outcome.headers);
    }
  };
}
