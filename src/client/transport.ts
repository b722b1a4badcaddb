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

/** What a call and its transport share: the live attempt's deadline, and whether an answer came back (its body is read next). */
export interface CallState {
  deadline: Deadline;
  answered: boolean;
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

export interface TransportSettings {
  fetch: Fetch;
  operation: OperationRef;
  policy: RetryPolicy | undefined;
  timeoutMs: number;
  caller: AbortSignal | undefined;
  state: CallState;
}

/** A fetch for openapi-fetch that runs the attempts of one call and returns the answer to keep. */
export function transport(settings: TransportSettings): Fetch {
  const { fetch, operation, policy, timeoutMs, caller, state } = settings;
  return async (request) => {
    // A retry sends the request again, and sending consumes its body: keep an untouched copy.
    const pristine = policy ? request.clone() : undefined;
    let sending = request;
    for (let attempt = 0; ; attempt++) {
      let wait: number | undefined;
      try {
        const response = await fetch(sending);
        if (policy && attempt < policy.retries && isRetryableStatus(response.status)) wait = delayForAnswer(policy, attempt, response);
        if (wait === undefined) {
          state.answered = true;
          return response;
        }
        await response.body?.cancel();
      } catch (error) {
        if (caller?.aborted) throw caller.reason;
        const failure = state.deadline.timedOut ? state.deadline.signal.reason : new ApiConnectionError(operation, error);
        if (!policy || attempt >= policy.retries) throw failure;
        wait = backoffDelay(policy, attempt);
      }
      state.deadline.clear();
      await sleep(wait, caller);
      state.deadline = new Deadline(timeoutMs, caller, operation);
      sending = new Request(pristine!.clone(), { signal: state.deadline.signal });
    }
  };
}

/** The error to throw for a failure while the call ran: the caller's abort reason, the timeout, or a failed connection. */
export function callFailure(error: unknown, state: CallState, caller: AbortSignal | undefined, operation: OperationRef): unknown {
  if (caller?.aborted) return caller.reason;
  if (state.deadline.timedOut) return state.deadline.signal.reason;
  // Before an answer, the transport has already classified what failed; anything else is the caller's input.
  if (!state.answered) return error;
  return new ApiConnectionError(operation, error);
}
