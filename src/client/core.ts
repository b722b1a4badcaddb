// The runtime both client entries share (./client and ./management), built once into generated/client/core.js and
// core.cjs, so an application that uses both loads one copy, and one class of each error. The message of an unknown
// path is not in it: generated/client/unknown-route.js (.cjs), which it loads only then.
export { makeClient } from "./create-client.js";
export { ApiConnectionError, ApiError, ApiRedirectError, ApiResponseTooLargeError, ApiTimeoutError, isApiError, MissingCredentialError } from "./errors.js";
