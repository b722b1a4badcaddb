// Sends a call's request and reads its answer's body: each attempt, body included, within its own deadline (the call's
// timeout, relaying the caller's AbortSignal), attempts retried as the retry policy says, failures turned into the
// client's connection and timeout errors.
import { readBody } from "./body.js";
import { ApiConnectionError, ApiTimeoutError, OperationError, type OperationRef } from "./errors.js";
import { backoffDelay, delayForAnswer, isRetryableStatus, type RetryPolicy } from "./retry.js";

export type Fetch = (request: Request) => Promise<Response>;

/** One attempt's deadline: its signal aborts when the time is up (with an ApiTimeoutError) or when the caller aborts. */
export interface Deadline {
  signal: AbortSignal;
  clear(): void;
}

/** What a call sends with: its operation, timeout, retry policy, the caller's signal and the most body bytes it reads. */
export interface Sending {
  operation: OperationRef;
  timeoutMs: number;
  maxBytes: number;
  policy: RetryPolicy | undefined;
  caller: AbortSignal | undefined;
}

/** An attempt's deadline when the call has a timeout; none without one, since a signal on a request costs about as much as the rest of a call. */
export function deadlineFor(timeoutMs: number, caller: AbortSignal | undefined, operation: OperationRef): Deadline | undefined {
  if (!(timeoutMs > 0)) return undefined;
  const controller = new AbortController();
  const relay = (): void => controller.abort(caller!.reason);
  const timer = setTimeout(() => controller.abort(new ApiTimeoutError(operation, timeoutMs)), timeoutMs);
  if (caller?.aborted) relay();
  else caller?.addEventListener("abort", relay, { once: true });
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      caller?.removeEventListener("abort", relay);
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * The answer to a request and its body as text, or the failure to throw once the
 * request was handed to fetch: the caller's abort reason, the timeout (the deadline aborts for nothing else once the
 * caller has not), a refused answer (a redirect, too large a body, an encoding left undone, bytes that are not UTF-8), or a failed connection.
 * `request` carries the first attempt's deadline, `deadline`; each attempt, body included, runs within its own, so a
 * body that stalls or breaks is tried again like an answer that never came.
 */
export async function send(fetch: Fetch, request: Request, sending: Sending, deadline: Deadline | undefined): Promise<[Response, string]> {
  const { operation, timeoutMs, policy, caller, maxBytes } = sending;
  // A retry sends the request again, and sending consumes its body: keep an untouched copy.
  const pristine = policy && request.clone();
  try {
    for (let attempt = 0; ; attempt++) {
      let wait: number | undefined;
      try {
        const response = await fetch(request);
        if (policy && attempt < policy.retries && isRetryableStatus(response.status)) wait = delayForAnswer(policy, attempt, response);
        if (wait === undefined) return [response, await readBody(response, operation, maxBytes)];
        await response.body?.cancel();
      } catch (error) {
        // A refused answer is the server's word, and the same next time; a timeout (the deadline's reason) is not.
        const refused = error instanceof OperationError && !(error instanceof ApiTimeoutError);
        if (!policy || refused || caller?.aborted || attempt >= policy.retries) throw error;
        wait = backoffDelay(policy, attempt);
      }
      deadline?.clear();
      await sleep(wait, caller);
      deadline = deadlineFor(timeoutMs, caller, operation);
      const signal = deadline?.signal ?? caller;
      request = signal ? new Request(pristine!.clone(), { signal }) : pristine!.clone();
    }
  } catch (error) {
    if (caller?.aborted) throw caller.reason;
    if (deadline?.signal.aborted) throw deadline.signal.reason;
    if (error instanceof OperationError) throw error;
    throw new ApiConnectionError(operation, error);
  } finally {
    deadline?.clear();
  }
}
