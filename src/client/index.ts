// The package's client entry (./client and .): createClient for every operation but the management API's (those are
// ./management's), its errors and types, and every type of the contract.
import { table } from "../../generated/operations.js";
import { makeClient } from "./core.js";
import type {
  ClientSettings,
  CredentialOptionOf,
  CredentialsOf,
  GivenCredentials,
  MethodOf,
  TableClient,
  TablePagedPaths,
  TablePageItem,
  TablePaths,
  ThrowsOf,
} from "./types.js";

export { ApiConnectionError, ApiError, ApiRedirectError, ApiResponseTooLargeError, ApiTimeoutError, isApiError, MissingCredentialError } from "./core.js";
export type { ApiErrorDetail, OperationRef } from "./errors.js";
export type { Answer, CallInit, CallOptions, Failure, HttpStatus, Outcome, RetryOptions, Success } from "./types.js";
export type * from "../../generated/schema.js";

type TableType = typeof table;
/** The client's operation table (generated/operations.ts); an interface so that messages name it rather than spell it out. */
interface Table extends TableType {}

/** The `createClient` options that carry a credential (`apiKey`, `linkToken`). */
export type CredentialOption = CredentialOptionOf<Table>;

/** The credentials a client can hold, each sent only to the operations whose contract names it. */
export type Credentials = CredentialsOf<Table>;

/** The HTTP methods of the client's operations, upper-case as in `api.GET(...)`. */
export type Method = MethodOf<Table>;

/** The path templates of the operations a method reaches with the credentials `C` (paths autocomplete as literals). */
export type PathsFor<M extends Method, C extends CredentialOption> = TablePaths<Table, M, C>;

/** The paged operations of a method (their answers carry `page`, `size`, `pages` and one list of items). */
export type PagedPathsFor<M extends Method, C extends CredentialOption> = TablePagedPaths<Table, M, C>;

/** One item of a paged list (a marker, an order). */
export type PageItem<M extends Method, P extends string> = TablePageItem<Table, M, P>;

/** `createClient`'s options. */
export interface ClientOptions extends ClientSettings, Credentials {
  /** Not this client's: the management API and its key are `createManagementClient`'s, from `@svc/health-api-contract/management`. */
  managementKey?: never;
}

/** The client: one method per HTTP method, path templates as typed literals, each operation sent its own credential. */
export type SvcClient<C extends CredentialOption = CredentialOption, Throws extends boolean = false> = TableClient<Table, C, Throws>;

/**
 * A typed client of the contract but the management API (that is `createManagementClient`'s, from the `./management`
 * entry). Each operation is sent the credential its contract names (`apiKey` as x-svc-api-key, `linkToken` as
 * x-svc-link-token); one that lacks it fails before sending, and, where the types can tell (an option left out), does
 * not compile.
 */
export function createClient<const O extends ClientOptions>(options: O): SvcClient<GivenCredentials<Table, O>, ThrowsOf<O>> {
  return makeClient("createClient", table, options) as SvcClient<GivenCredentials<Table, O>, ThrowsOf<O>>;
}
