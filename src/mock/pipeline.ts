// A request's way through the mock, top to bottom: each step passes it on, refuses it with a status the contract
// declares, or answers it. Everything fixed per operation (routes, validators, serialized answers) is made once. It
// takes a request in any transport's form and gives the reply: Node's server (node-http.ts) and the Fetch API
// (fetch-handler.ts) adapt to it, and nothing here needs Node.
import type { JsonObject } from "../contract/json.ts";
import { createRouter, type RouteMatch } from "../contract/router.ts";
import { ContractValidator } from "../contract/validator.ts";
import { answersOf, type OperationAnswers } from "./static-answers.ts";
import type { Inventor } from "./prism-answers.ts";
import { Credentials } from "../contract/credentials.ts";
import { ANSWER_HEADERS, errorReply } from "./http-vocabulary.ts";
import { listOperations } from "../contract/operations.ts";
import { StatefulMock } from "./state/handlers.ts";
import { allowLoopbackWebhooks } from "./state/loopback-webhooks.ts";
import type { StateCaps, TeamSettings } from "./state/model.ts";
import { ANSWERED, newExchange, type Step, type StepContext } from "./steps/exchange.ts";
import type { MockRequest, Reply, ServedFile } from "./http-shapes.ts";
import { preflight, staticFile, target } from "./steps/arrival.ts";
import { accept, body, credential, parameters, receive, route, size, unlisted } from "./steps/request-checks.ts";
import { control, remember } from "./steps/stateful.ts";
import { branch, collection, respond } from "./steps/contract-answer.ts";
import { condition } from "./steps/conditions-step.ts";
import { journalPath } from "./steps/journal-path.ts";
import { isMockOnly } from "./paths.ts";
import { ConditionsTable } from "./conditions.ts";
import type { MockSettings } from "./public-types.ts";
import { DEFAULT_JOURNAL_SIZE, exchangeRecord, Journal } from "./journal.ts";

/** What makes a pipeline: the contract, its files and Prism, and the settings (the library's, `MockSettings`, in the form the steps take). */
export interface PipelineOptions extends Pick<MockSettings, "conditions" | "journalSize"> {
  document: JsonObject;
  /** Files served beside the API, such as the reference at /docs, by path and by each alias (none in a browser). */
  staticFiles?: Map<string, ServedFile>;
  /** Prism's invented answers, loaded on first use (only `Prefer: dynamic=true` asks); undefined when Prism is not installed. */
  prism?: Inventor;
  log: (line: string) => void;
  /** Remember what each team did (`--stateful`); without it, every answer comes from the examples. */
  stateful?: StatefulOptions | undefined;
}

/** The stateful mock's bounds and each new team's settings, where a caller (a test) wants others than the defaults. */
export interface StatefulOptions {
  caps?: Partial<StateCaps>;
  defaults?: Partial<TeamSettings>;
  /** A seed dataset to start from (src/mock/state/seed.ts). */
  data?: unknown;
  /** Only the keys the mock knows authenticate (src/mock/state/known-keys.ts). */
  strictKeys?: boolean;
}

/** The steps in the order a request meets them; from `receive` on, every refusal is one each operation declares. */
const STEPS: Step[] = [
  target,
  control,
  journalPath,
  preflight,
  staticFile,
  route,
  receive,
  condition,
  credential,
  accept,
  size,
  body,
  parameters,
  unlisted,
  remember,
  branch,
  collection,
  respond,
];

/** Answers a request; its context is where a host reads the journal, the conditions and the state it keeps. */
export interface Pipeline {
  (request: MockRequest): Promise<Reply>;
  readonly context: StepContext;
}

export function createPipeline(options: PipelineOptions): Pipeline {
  // The stateful mock also takes loopback http webhook URLs, so it validates against a copy that says so.
  const document = options.stateful === undefined ? options.document : allowLoopbackWebhooks(options.document);
  const answers = new Map<string, OperationAnswers>();
  const credentialHeaders = new Credentials(document).headerKeys();
  const teamOf: StepContext["teamOf"] = (headers) => {
    for (const name of credentialHeaders) {
      const value = headers[name];
      if (typeof value === "string" && value !== "") return value;
    }
    return "";
  };
  const journal = options.journalSize === 0 ? undefined : new Journal(document, options.journalSize ?? DEFAULT_JOURNAL_SIZE);
  const context: StepContext = {
    document,
    router: createRouter(document),
    validator: new ContractValidator(document),
    readHeaders: [...ANSWER_HEADERS, ...credentialHeaders],
    staticFiles: options.staticFiles ?? new Map(),
    stateful:
      options.stateful === undefined ? undefined : new StatefulMock({ document, operations: listOperations(document), ...options.stateful, log: options.log }),
    checkedBodies: new WeakMap(),
    answersFor(match: RouteMatch): OperationAnswers {
      let found = answers.get(match.operation.operationId);
      if (found === undefined) answers.set(match.operation.operationId, (found = answersOf(document, match.operation)));
      return found;
    },
    prism: options.prism,
    log: options.log,
    conditions: new ConditionsTable(options.conditions),
    journal,
    teamOf,
  };

  const handle = async function handle(request: MockRequest): Promise<Reply> {
    const x = newExchange(request);
    for (const step of STEPS) {
      let outcome = step(x, context);
      // Most steps decide at once: waiting only for those that read or fetch keeps a request off the microtask queue.
      if (outcome instanceof Promise) outcome = await outcome;
      if (outcome === undefined) continue;
      const refused = outcome === ANSWERED ? undefined : outcome;
      const reply = refused === undefined ? x.reply! : errorReply(x.headers, refused.status, refused.code, refused.message, refused.details, refused.headers);
      if (x.extraHeaders !== undefined) reply.headers.push(...x.extraHeaders);
      // The service's requests, as they arrived: not the mock's own paths, its files or a preflight.
      if (
        journal !== undefined &&
        x.url !== undefined &&
        (x.match !== undefined || (x.method !== "OPTIONS" && !isMockOnly(x.url.pathname) && !context.staticFiles.has(x.url.pathname)))
      ) {
        journal.record(teamOf(x.headers), exchangeRecord(x, reply.drop === true ? 0 : reply.status, refused));
      }
      return reply;
    }
    throw new Error("the pipeline's last step answers every request");
  };
  return Object.assign(handle, { context });
}
