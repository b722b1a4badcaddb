// The package's client entry: createClient, its errors and types, and every type of the contract.
export { createClient } from "./create-client.js";
export { ApiConnectionError, ApiError, ApiTimeoutError, isApiError, MissingCredentialError } from "./errors.js";
export type { ApiErrorDetail, OperationRef } from "./errors.js";
export type {
  Answer,
  CallInit,
  CallOptions,
  ClientOptions,
  CredentialOption,
  Credentials,
  Failure,
  HttpStatus,
  Method,
  Outcome,
  PageItem,
  PathsFor,
  RetryOptions,
  Success,
  SvcClient,
} from "./types.js";
export type * from "../../generated/schema.js";
