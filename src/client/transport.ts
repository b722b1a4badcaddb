// Sends one call's attempts: each within its own deadline (the call's timeout, relaying the caller's AbortSignal),
// retried as the retry policy says, with failures turned into the client's connection and timeout errors.
import { ApiConnectionError, ApiTimeoutError, type OperationRef } from "./errors.js";
import { backoffDelay, delayForAnswer, isRetryableStatus, type RetryPolicy } from "./retry.js";

export type Fetch = (request: Request) => Promise<Response>;

/** One attempt's deadline: aborts its signal when the time is up or when the caller aborts. */
export class Deadline {
  readonly signal: AbortSignal;
  timedOut = false;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly caller: AbortSignal | undefined;
  private readonly relay = (): void => this.controller.abort(this.caller?.reason);

  constructor(timeoutMs: number, caller: AbortSignal | undefined, operation: OperationRef) {
    this.signal = this.controller.signal;
    this.caller = caller;
    if (timeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new ApiTimeoutError(operation, timeoutMs));
      }, timeoutMs);
    }
    if (caller?.aborted) this.relay();
    else caller?.addEventListener("abort", this.relay, { once: true });
  }

  clear(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.relay);
  }
}

/**
 * The settings and progress of a call that has a timeout, a signal or retries, shared by the call and the transport.
 * openapi-fetch copies unknown init keys onto the Request it builds (its hook for fetch extensions), so the call
 * passes this as `init[CALL_STATE]` and the client's one transport reads it there: no closure per call.
 */
export interface CallState {
  operation: OperationRef;
  policy: RetryPolicy | undefined;
  timeoutMs: number;
  caller: AbortSignal | undefined;
  /** The live attempt's deadline; none without a timeout, since a signal on a request costs about as much as the rest of a call. */
  deadline: Deadline | undefined;
}

export const CALL_STATE = "svcCallState";

/** An attempt's deadline when the call has a timeout. */
export function deadlineFor(timeoutMs: number, caller: AbortSignal | undefined, operation: OperationRef): Deadline | undefined {
  return timeoutMs > 0 ? new Deadline(timeoutMs, caller, operation) : undefined;
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

/** The failure to throw once a request was sent: the caller's abort reason, the timeout, or a failed connection. */
export function sentFailure(error: unknown, operation: OperationRef, state: CallState | undefined): unknown {
  if (state?.caller?.aborted) return state.caller.reason;
  if (state?.deadline?.timedOut) return state.deadline.signal.reason;
  return error instanceof ApiConnectionError || error instanceof ApiTimeoutError ? error : new ApiConnectionError(operation, error);
}

/**
 * The client's fetch for openapi-fetch: sends a call's request, and, when the call retries, its further attempts.
 * It counts what it sends, so a call can tell whether its request got this far.
 */
export function transport(base: () => Fetch, sent: { count: number }): Fetch {
  return (request) => {
    sent.count++;
    const state = (request as unknown as Record<string, CallState | undefined>)[CALL_STATE];
    return state?.policy ? attempts(base(), request, state, state.policy) : base()(request);
  };
}

async function attempts(fetch: Fetch, request: Request, state: CallState, policy: RetryPolicy): Promise<Response> {
  const { operation, timeoutMs, caller } = state;
  // A retry sends the request again, and sending consumes its body: keep an untouched copy.
  const pristine = request.clone();
  let sending = request;
  for (let attempt = 0; ; attempt++) {
    let wait: number | undefined;
    try {
      const response = await fetch(sending);
      if (attempt < policy.retries && isRetryableStatus(response.status)) wait = delayForAnswer(policy, attempt, response);
      if (wait === undefined) return response;
      await response.body?.cancel();
    } catch (error) {
      if (caller?.aborted || attempt >= policy.retries) throw sentFailure(error, operation, state);
      wait = backoffDelay(policy, attempt);
    }
    state.deadline?.clear();
    await sleep(wait, caller);
    state.deadline = deadlineFor(timeoutMs, caller, operation);
    const signal = state.deadline?.signal ?? caller;
    sending = signal ? new Request(pristine.clone(), { signal }) : pristine.clone();
  }
}
