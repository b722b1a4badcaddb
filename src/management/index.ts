// The package's management entry (./management): createManagementClient for the management API (/v2/management/), which
// takes the management key. Its own table, so an application that never holds a management key neither ships nor calls it.
import { table } from "../../generated/management-operations.js";
import { makeClient } from "../client/core.js";
import type { ClientSettings, CredentialOptionOf, CredentialsOf, GivenCredentials, MethodOf, TableClient, TablePaths, ThrowsOf } from "../client/types.js";

export {
  ApiConnectionError,
  ApiError,
  ApiRedirectError,
  ApiResponseTooLargeError,
  ApiTimeoutError,
  isApiError,
  MissingCredentialError,
} from "../client/core.js";
export type { ApiErrorDetail, OperationRef } from "../client/errors.js";
export type { Answer, CallInit, CallOptions, Failure, HttpStatus, Outcome, RetryOptions, Success } from "../client/types.js";
export type * from "../../generated/schema.js";

type TableType = typeof table;
/** The management API's operation table (generated/management-operations.ts); an interface so that messages name it. */
interface ManagementTable extends TableType {}

/** The `createManagementClient` options that carry a credential (`managementKey`). */
export type ManagementCredentialOption = CredentialOptionOf<ManagementTable>;

/** The credentials a management client can hold. */
export type ManagementCredentials = CredentialsOf<ManagementTable>;

/** The HTTP methods of the management API, upper-case as in `management.PATCH(...)`. */
export type ManagementMethod = MethodOf<ManagementTable>;

/** The management API's path templates a method reaches with the credentials `C`. */
export type ManagementPathsFor<M extends ManagementMethod, C extends ManagementCredentialOption> = TablePaths<ManagementTable, M, C>;

/** `createManagementClient`'s options: `createClient`'s settings, and the management key. */
export interface ManagementClientOptions extends ClientSettings, ManagementCredentials {}

/** The management client: one method per HTTP method, the management API's path templates as typed literals. */
export type ManagementClient<C extends ManagementCredentialOption = ManagementCredentialOption, Throws extends boolean = false> = TableClient<
  ManagementTable,
  C,
  Throws
>;

/**
 * A typed client of the management API (`/v2/management/...`): every operation is sent `managementKey` as
 * X-Management-Key; without it a call fails before sending (and, where the option was left out, does not compile),
 * unless the call sets X-Management-Key, or the deprecated X-Svc-Org-Key, itself. Answers, errors, retries, timeouts and
 * `throwOnError` are those of `createClient`.
 */
export function createManagementClient<const O extends ManagementClientOptions>(
  options: O,
): ManagementClient<GivenCredentials<ManagementTable, O>, ThrowsOf<O>> {
  return makeClient("createManagementClient", table, options) as ManagementClient<GivenCredentials<ManagementTable, O>, ThrowsOf<O>>;
}
