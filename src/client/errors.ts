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

function bodyField(body: unknown, key: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}

/**
 * An answer that is not a success the contract declares: thrown by a client made with `throwOnError: true`, by
 * `paginate`, and, in any mode, for an answer whose body is not the JSON the contract declares for its status.
 */
export class ApiError extends globalThis.Error {
  readonly status: number;
  /** The service's error code (`invalid_request`, `not_found`, ...), when the body has one. */
  readonly code: string | undefined;
  readonly details: readonly ApiErrorDetail[];
  /** The parsed body (or its text, when it is not JSON). */
  readonly body: unknown;
  readonly operation: OperationRef;
  readonly response: Response;

  constructor(init: ApiErrorInit) {
    const code = bodyField(init.body, "code");
    const text = bodyField(init.body, "message");
    const said = typeof text === "string" ? `: ${text}` : "";
    super(init.message ?? `${init.operation.method} ${init.operation.path} answered ${init.status}${said}`);
    this.name = "ApiError";
    this.status = init.status;
    this.code = typeof code === "string" ? code : undefined;
    const details = bodyField(init.body, "details");
    this.details = Array.isArray(details) ? (details as ApiErrorDetail[]) : [];
    this.body = init.body;
    this.operation = init.operation;
    this.response = init.response;
  }
}
Object.defineProperty(ApiError.prototype, API_ERROR, { value: true });

/** Whether a value is an `ApiError` from any copy of this package (ESM or CommonJS). */
export function isApiError(value: unknown): value is ApiError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[API_ERROR] === true;
}

/** No answer arrived: the connection was refused, reset or cut off while the body was read. `cause` has the reason. */
export class ApiConnectionError extends globalThis.Error {
  readonly operation: OperationRef;
  constructor(operation: OperationRef, cause: unknown) {
    super(`${operation.method} ${operation.path}: the connection failed (${cause instanceof globalThis.Error ? cause.message : String(cause)})`, { cause });
    this.name = "ApiConnectionError";
    this.operation = operation;
  }
}

/** The answer, body included, took longer than `timeoutMs`. */
export class ApiTimeoutError extends globalThis.Error {
  readonly operation: OperationRef;
  readonly timeoutMs: number;
  constructor(operation: OperationRef, timeoutMs: number) {
    super(`${operation.method} ${operation.path}: no complete answer within ${timeoutMs} ms`);
    this.name = "ApiTimeoutError";
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}

/** The operation needs a credential the client was not given (or was given empty); nothing was sent. */
export class MissingCredentialError extends globalThis.Error {
  readonly operation: OperationRef;
  /** The `createClient` option to set, such as `apiKey`. */
  readonly option: string;
  constructor(operation: OperationRef, option: string, header: string) {
    super(`${operation.method} ${operation.path} needs \`${option}\` (sent as ${header}): pass it to createClient or withCredentials`);
    this.name = "MissingCredentialError";
    this.operation = operation;
    this.option = option;
  }
}
