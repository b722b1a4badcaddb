import type { Client, ClientOptions, Middleware } from "openapi-fetch";
import type { paths } from "./schema.js";
export type * from "./schema.js";
/** The credentials the service takes; each operation is sent the one its contract names. */
export interface Credentials {
    /** Team API key, sent as `x-svc-api-key`. */
    apiKey?: string;
    /** Link token from `createLinkToken`, sent as `x-svc-link-token`. */
    linkToken?: string;
}
export interface SvcClientOptions extends ClientOptions, Credentials {
}
export type SvcClient = Client<paths>;
/** Which credential each operation takes, keyed by method and path template. */
export declare const operationCredentials: Readonly<Record<string, keyof Credentials>>;
/**
 * Sets each request's credential header from the operation's security requirement. A header the
 * caller set on the call itself wins, so one client can act for several teams or link tokens.
 */
export declare function credentialMiddleware(credentials: Credentials): Middleware;
/** A typed client of the whole contract: `createClient({ baseUrl, apiKey })`. */
export declare function createClient(options?: SvcClientOptions): SvcClient;
