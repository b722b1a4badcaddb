// The errors the client throws: an API answer it cannot hand back as a value, a failed connection, a timeout, a missing credential.

/** Marks the client's errors across copies of the package (ESM and CommonJS can both be loaded), where `instanceof` fails. */
const API_ERROR = Symbol.for("@svc/health-api-contract/ApiError");

/** The operation an error came from, as the contract names it. */
export interface OperationRef {
  method: string;
  path: string;
  operationId: string;
}

export interface ApiErrorInit {
  status: number;
  body: unknown;
  operation: OperationRef;
  response: Response;
  message?: string;
}

/** One invalid part of a request, as the service's error body lists it. */
export interface ApiErrorDetail {
  location?: string;
  field?: string;
  message?: string;
}

/** How every message about an operation starts. */
export const named = (operation: OperationRef): string => `${operation.method} ${operation.path}`;

/** Refuses a setting that is not what the types say, in one message form for every setting (so the strings ship once). */
export function check(where: string, name: string, valid: boolean, rule: string, value: unknown, kind: typeof TypeError = TypeError): void {
  if (!valid) throw new kind(`${where}: ${name} must be ${rule}, not ${String(value)}`);
}

/** What every error about one operation has, its name and the operation, set in one place: the classes ship in every bundle. */
export class OperationError extends Error {
  declare readonly operation: OperationRef;
  constructor(name: string, operation: OperationRef, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = name;
    this.operation = operation;
  }
}

/**
 * An answer that is not a success the contract declares: thrown by a client made with `throwOnError: true`, by
 * `paginate`, and, in any mode, for an answer whose body is not the JSON the contract declares for its status.
 */
export class ApiError extends OperationError {
  declare readonly status: number;
  /** The service's error code (`invalid_request`, `not_found`, ...), when the body has one. */
  declare readonly code: string | undefined;
  declare readonly details: readonly ApiErrorDetail[];
  /** The parsed body (or its text, when it is not JSON). */
  declare readonly body: unknown;
  declare readonly response: Response;

  constructor(init: ApiErrorInit) {
    const { status, body } = init;
    // A body of any shape, text or nothing: only an object's fields are read.
    const { code, details } = Object(body) as Record<string, unknown>;
    // The body's own message is not quoted: an answer can carry health data, and error messages end up in logs.
    super("ApiError", init.operation, init.message ?? `${named(init.operation)} answered ${status}`);
    this.status = status;
    this.code = typeof code === "string" ? code : undefined;
    this.details = Array.isArray(details) ? details : [];
    this.body = body;
    this.response = init.response;
  }
}
Object.defineProperty(ApiError.prototype, API_ERROR, { value: true });

/** Whether a value is an `ApiError` from any copy of this package (ESM or CommonJS). */
export function isApiError(value: unknown): value is ApiError {
  return (value as Record<symbol, unknown> | null | undefined)?.[API_ERROR] === true;
}

/**
 * No answer arrived: the connection was refused, reset or cut off while the body was read. `cause` has the reason; the
 * message quotes the deepest one, where Node's fetch ("fetch failed") keeps the system's code and address
 * (`connect ECONNREFUSED 127.0.0.1:4010`; an AggregateError's first error when every address of a name was tried).
 */
export class ApiConnectionError extends OperationError {
  constructor(operation: OperationRef, cause: unknown) {
    type Link = { cause?: unknown; errors?: unknown[]; message?: string } | undefined;
    let deepest: Link;
    // Bounded: a cause chain is anyone's object, and may loop.
    for (let next = cause as Link, depth = 9; next && depth--; next = (next.cause ?? next.errors?.[0]) as Link) deepest = next;
    super("ApiConnectionError", operation, `${named(operation)}: the connection failed (${deepest?.message || String(cause)})`, { cause });
  }
}

/** The answer, body included, took longer than `timeoutMs`. */
export class ApiTimeoutError extends OperationError {
  declare readonly timeoutMs: number;
  constructor(operation: OperationRef, timeoutMs: number) {
    super("ApiTimeoutError", operation, `${named(operation)}: no complete answer within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The answer was a redirect (3xx), which the client does not follow: following it would send the call's credential to
 * whatever address the server names. `location` is where it pointed (null in a browser, where a redirect is opaque).
 */
export class ApiRedirectError extends OperationError {
  declare readonly status: number;
  declare readonly location: string | null;
  constructor(operation: OperationRef, status: number, location: string | null) {
    super("ApiRedirectError", operation, `${named(operation)} answered ${status}, a redirect${location ? ` to ${location}` : ""}: not followed`);
    this.status = status;
    this.location = location;
  }
}

/** The answer's body grew past `maxResponseBytes` (counted after decompression); the client stopped reading and dropped the connection. */
export class ApiResponseTooLargeError extends OperationError {
  declare readonly status: number;
  declare readonly limitBytes: number;
  constructor(operation: OperationRef, status: number, limitBytes: number) {
    super("ApiResponseTooLargeError", operation, `${named(operation)} answered ${status} with a body over maxResponseBytes, ${limitBytes}`);
    this.status = status;
    this.limitBytes = limitBytes;
  }
}

/** The operation needs a credential the client was not given (or was given empty); nothing was sent. */
export class MissingCredentialError extends OperationError {
  /** The client option to set, such as `apiKey`. */
  declare readonly option: string;
  constructor(operation: OperationRef, option: string, header: string) {
    super("MissingCredentialError", operation, `${named(operation)} needs \`${option}\` (sent as ${header})`);
    this.option = option;
  }
}
