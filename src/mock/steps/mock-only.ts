// What each mock-only path (/_mock/state, /_mock/data, /_mock/journal) answers before its own work, the same way for
// all: a browser's CORS preflight with the path's methods (a browser's test suite resets, seeds and reads its mock too),
// and a 405 naming those methods for any other, before a body is read.
import { preflightReply } from "../http-vocabulary.ts";
import { MOCK_ONLY_METHODS, type MockOnlyPath } from "../paths.ts";
import { notAMethodOf } from "../refusals.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";

export function mockOnlyGate(x: Exchange, context: StepContext, path: MockOnlyPath): Outcome {
  const methods: readonly string[] = MOCK_ONLY_METHODS[path];
  if (x.method === "OPTIONS" && x.headers["access-control-request-method"] !== undefined) {
    x.reply = preflightReply(x.headers, methods, context.readHeaders);
    return ANSWERED;
  }
  return methods.includes(x.method) ? undefined : notAMethodOf(path, x.method);
}
