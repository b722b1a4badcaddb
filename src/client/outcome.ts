// What a call resolves to: the answer's body as the contract declares it for its status, `ok` only for a declared
// success; or the ApiError thrown for a declared status without its JSON body, and for any failure when asked to.
import { ApiError, named, type OperationRef } from "./errors.js";

/** An answer as the implementation sees it; the public types narrow it by status. */
export interface LooseAnswer {
  ok: boolean;
  status: number;
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The answer to `response`, whose body was `text`: parsed when it is JSON, else kept as text ("" when empty). A declared
 * status must have a JSON body; for an error's, one that parses to a string counts as text, as it did when openapi-fetch
 * parsed error bodies and handed both back as strings.
 */
export function answer(operation: OperationRef, declared: boolean, response: Response, text: string, throwOnError: boolean): LooseAnswer {
  const { ok, status } = response;
  let body: unknown = text;
  let json = false;
  try {
    body = JSON.parse(text);
    json = ok || typeof body !== "string";
  } catch {}
  if (declared && !json) {
    throw new ApiError({ status, body, operation, response, message: `${named(operation)} answered ${status} without the JSON body the contract declares` });
  }
  const success = declared && ok;
  if (!success && throwOnError) throw new ApiError({ status, body, operation, response });
  return { ok: success, status, [success ? "data" : "error"]: body, response } as LooseAnswer;
}
