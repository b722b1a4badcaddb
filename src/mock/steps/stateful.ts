// The steps of the stateful mock (`--stateful`): `/_mock/state` (and `/_mock/data`, handed to data.ts), and the answer
// the state makes, sent only when it keeps the contract.
import { bodyTooLarge, stateAnswerBrokeContract } from "../refusals.ts";
import { MOCK_PATHS } from "../../shared/mock-paths.ts";
import { stateControl } from "../state-conditions.ts";
import type { StateAnswer } from "../state/vocabulary.ts";
import { detailsLine } from "../../contract/validator.ts";
import { jsonReply } from "../http-vocabulary.ts";
import { encodeText, utf8Length } from "../platform.ts";
import { cutsCollection, shapeCollection } from "../whole-collection.ts";
import { isObject } from "../../contract/json.ts";
import { seedData } from "./data.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";
import { mockOnlyGate } from "./mock-only.ts";
import type { StateMethod } from "../paths.ts";

function sendState(x: Exchange, answer: StateAnswer, serialized?: Uint8Array): typeof ANSWERED {
  x.reply = jsonReply(x.headers, answer.status, serialized ?? encodeText(JSON.stringify(answer.body)), Object.entries(answer.headers ?? {}).flat());
  return ANSWERED;
}

export function control(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  if (x.url.pathname === MOCK_PATHS.data) return seedData(x, context);
  if (x.url.pathname !== MOCK_PATHS.state) return undefined;
  const gate = mockOnlyGate(x, context, "state");
  if (gate !== undefined) return gate;
  // The gate let only the path's own methods through.
  const method = x.method as StateMethod;
  // Only a request to /_mock/state waits for its body here: every other one goes on without a promise.
  return Promise.resolve(x.request.body()).then((text) => (text === undefined ? bodyTooLarge() : sendState(x, stateControl(method, x.headers, text, context))));
}

/** Sends a stateful answer once it keeps the contract; undefined (no answer) passes the request on to the examples. */
function sendRemembered(x: Exchange, context: StepContext, remembered: StateAnswer | undefined): Outcome {
  if (remembered === undefined) return undefined;
  // A handler answers a whole collection (the team's bulk operations); it is filtered and cut to the asked page here,
  // as the examples are in the collection step.
  const marks = context.answersFor(x.match).collections;
  const answer =
    cutsCollection(remembered.status, marks) && isObject(remembered.body)
      ? { ...remembered, body: shapeCollection(remembered.body, marks, x.url.searchParams) }
      : remembered;
  const stable = answer.stable === true && typeof answer.body === "object" && answer.body !== null ? answer.body : undefined;
  const checked = stable === undefined ? undefined : context.checkedBodies.get(stable);
  if (checked !== undefined) return sendState(x, answer, checked);
  // What the state makes is checked like anything Prism invents: an answer that breaks the contract is the mock's fault.
  const violations = context.validator.validateResponse(x.match.operation, answer.status, answer.body);
  if (violations.length === 0) {
    const serialized = encodeText(JSON.stringify(answer.body));
    if (stable !== undefined) context.checkedBodies.set(stable, serialized);
    return sendState(x, answer, serialized);
  }
  const why = detailsLine(violations).slice(0, 300);
  context.log(`stateful ${x.match.operation.operationId}: the answer ${answer.status} broke the contract: ${why}`);
  return stateAnswerBrokeContract(why);
}

export function remember(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  const { stateful } = context;
  // A Prefer header still chooses a declared answer, leaving the state as it is.
  if (stateful === undefined || x.headers.prefer !== undefined) return undefined;
  const answer = stateful.answer(x.match.operation, {
    operation: x.match.operation,
    path: x.match.pathParams,
    query: x.url.searchParams,
    headers: x.headers,
    body: x.body,
    bodyLength: x.text === undefined ? 0 : utf8Length(x.text),
  });
  // Most handlers answer at once; waiting only for those that wait keeps a request off the microtask queue.
  return answer instanceof Promise ? answer.then((settled) => sendRemembered(x, context, settled)) : sendRemembered(x, context, answer);
}
