// The runtime both client entries share (./client and ./management), built once into generated/client/core.js and
// core.cjs, so an application that uses both loads one copy, and one class of each error.
export { makeClient } from "./create-client.js";
export { ApiConnectionError, ApiError, ApiRedirectError, ApiResponseTooLargeError, ApiTimeoutError, isApiError, MissingCredentialError } from "./errors.js";
