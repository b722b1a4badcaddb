// The steps that hold a request to its operation: routed (404, 405), its body read, then each refusal the contract
// declares for every operation (credential 401, Accept 406, size 413, body 415 and 400, parameters and body 422), and
// the warning beside the answer to a value an open enumeration does not list.
import { bodyTooLarge, invalidParts, noOperationAt, notAcceptable, notAnOperationOf, unauthorized } from "../refusals.ts";
import type { UnlistedValue } from "../../contract/validator.ts";
import { acceptsJson, headerValue, MOCK_WARNING, printableAscii } from "../http-vocabulary.ts";
import type { Exchange, Outcome, StepContext } from "./exchange.ts";

export function route(x: Exchange, context: StepContext): Outcome {
  const { router } = context;
  const match = router.match(x.method, x.url.pathname);
  if (match) {
    x.match = match;
    return undefined;
  }
  if (!router.pathExists(x.url.pathname)) return noOperationAt(x.url.pathname);
  const allow = router.methodsAt(x.url.pathname).join(", ");
  return notAnOperationOf(x.method, x.url.pathname, allow);
}

// From here on, every refusal is one the contract declares for every operation (the transport-level ones are added by
// the bundle step, x-svc-transport-responses).

export async function receive(x: Exchange): Promise<Outcome> {
  x.text = await x.request.body();
  x.input = {
    pathParams: x.match.pathParams,
    query: x.url.searchParams,
    headers: x.headers,
    body: x.text,
    contentType: headerValue(x.headers, "content-type"),
  };
  return undefined;
}

export function credential(x: Exchange, context: StepContext): Outcome {
  const refusal = context.validator.credentialRefusal(x.match.operation, x.headers);
  if (refusal !== undefined) return unauthorized(refusal);
  return context.stateful?.strictRefusal(x.match.operation, x.headers);
}

export function accept(x: Exchange): Outcome {
  const header = headerValue(x.headers, "accept");
  if (acceptsJson(header)) return undefined;
  return notAcceptable(header);
}

export function size(x: Exchange): Outcome {
  return x.text === undefined ? bodyTooLarge() : undefined;
}

export function body(x: Exchange, context: StepContext): Outcome {
  const read = context.validator.readBody(x.match.operation, x.input);
  if ("refusal" in read) return read.refusal;
  x.body = read.body;
  return undefined;
}

export function parameters(x: Exchange, context: StepContext): Outcome {
  const details = context.validator.validateInput(x.match.operation, x.input, x.body);
  if (details.length === 0) return undefined;
  return invalidParts(details);
}

/** How many listed values, and how many other unlisted ones, the warning names: it is one short line. */
const NAMED_VALUES = 3;

const firstFew = (items: string[]) => items.slice(0, NAMED_VALUES).join(", ") + (items.length > NAMED_VALUES ? ", ..." : "");

const cut = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}...` : text);

const named = ({ field, value }: UnlistedValue) => `${cut(field.replace(/^\//, ""))} ${JSON.stringify(cut(value))}`;

/**
 * The warning's line: the first unlisted value with what the contract lists there, then the others by name. What the
 * caller sent is escaped to printable ASCII, all a header carries.
 */
function unlistedWarning([first, ...others]: UnlistedValue[]): string {
  const also = others.length === 0 ? "" : ` (also unlisted: ${firstFew(others.map(named))})`;
  const line = `${named(first!)} is not one of the values the contract lists (${firstFew(first!.listed)})${also}; the service may add values, and may refuse one it does not support`;
  return printableAscii(line);
}

/**
 * A non-exhaustive enumeration takes any string (the service may add values), so an unlisted one is answered like a
 * listed one; the header beside every answer that follows says so, since a typo looks the same.
 */
export function unlisted(x: Exchange, context: StepContext): Outcome {
  const found = context.validator.unlistedValues(x.match.operation, x.input, x.body);
  if (found.length > 0) x.extraHeaders = [MOCK_WARNING, unlistedWarning(found)];
  return undefined;
}
