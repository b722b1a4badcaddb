// Every refusal the mock makes, each a named template with its words in one place: a reader finds what the mock can say
// without reading every step, and a limit named in a message is the constant that enforces it, so the two cannot drift.
import type { ErrorDetail } from "../contract/validator.ts";
import { MOCK_PATHS } from "../shared/mock-paths.ts";
import type { Refusal } from "./http-shapes.ts";
import { MAX_BODY_BYTES } from "./http-vocabulary.ts";
import { MOCK_ONLY_METHODS, type MockOnlyPath } from "./paths.ts";
import { MAX_RECORD_BODY } from "./state/model.ts";

/** A size as a person reads it: whole MiB or KiB when it is one, else bytes. */
const size = (bytes: number): string => (bytes % (1 << 20) === 0 ? `${bytes / (1 << 20)} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

// What Node's parser refuses, and the host's own.

export const requestTimeout = (ms: number): Refusal => ({ status: 408, code: "request_timeout", message: `The request did not arrive within ${ms} ms.` });

/** `limit`: the request line and headers together, Node's `http.maxHeaderSize`. */
export const targetTooLong = (limit: number): Refusal => ({
  status: 414,
  code: "uri_too_long",
  message: `The request target (path and query) is longer than ${size(limit)}.`,
});

export const headersTooLarge = (limit: number): Refusal => ({
  status: 431,
  code: "headers_too_large",
  message: `The request's headers are larger than ${size(limit)}.`,
});

export const notHttp = (why: string): Refusal => ({ status: 400, code: "invalid_request", message: `The request is not well-formed HTTP (${why}).` });

export const unknownExpect = (expect: string | undefined): Refusal => ({
  status: 400,
  code: "invalid_request",
  message: `The Expect header (${expect}) asks for something this server does not do.`,
  headers: { connection: "close" },
});

export const connectRefused = (): Refusal => ({ status: 405, code: "method_not_allowed", message: "CONNECT is not an operation of the contract." });

export const mockFault = (): Refusal => ({
  status: 500,
  code: "internal_error",
  message: "The mock failed on this request because of a fault of its own; its log has the details.",
});

// The steps before the contract, and the contract's own.

export const badTarget = (): Refusal => ({ status: 400, code: "invalid_request", message: "The request target is not a path nor an absolute URL." });

export const notBuilt = (path: string): Refusal => ({ status: 404, code: "not_found", message: `${path} has not been built; run npm run build.` });

export const noOperationAt = (path: string): Refusal => ({ status: 404, code: "not_found", message: `No operation of the contract answers at ${path}.` });

export const notAnOperationOf = (method: string, path: string, allow: string): Refusal => ({
  status: 405,
  code: "method_not_allowed",
  message: `${method} is not an operation of ${path}.`,
  headers: { allow },
});

/** `why`: the credential check's words (contract/credential-check.ts). */
export const unauthorized = (why: string): Refusal => ({ status: 401, code: "unauthorized", message: why });

export const notAcceptable = (accept: string | undefined): Refusal => ({
  status: 406,
  code: "not_acceptable",
  message: `Every answer is application/json; the Accept header (${accept}) allows none.`,
});

/** A body over what the mock reads (`MAX_BODY_BYTES`); `then` says what to do instead, where there is something. */
export const bodyTooLarge = (then = ""): Refusal => ({
  status: 413,
  code: "payload_too_large",
  message: `The request body is larger than ${size(MAX_BODY_BYTES)}${then}.`,
});

export const proxyBodyTooLarge = (): Refusal => bodyTooLarge(", the most the proxy reads; it was not forwarded");

export const seedBodyTooLarge = (): Refusal => bodyTooLarge("; start the mock with --data <file> for a larger seed");

/** The request's parts that break the contract (or the mock's own paths' rules), each named. */
export const invalidParts = (details: ErrorDetail[]): Refusal => ({
  status: 422,
  code: "invalid_request",
  message: `The request has ${details.length === 1 ? "1 invalid part" : `${details.length} invalid parts`}.`,
  details,
});

export const invalidJson = (): Refusal => ({ status: 400, code: "invalid_json", message: "The request body is not well-formed JSON." });

const preferDetail = (message: string): ErrorDetail[] => [{ location: "header", field: "prefer", message }];

export const preferNotUnderstood = (why: string): Refusal => ({
  status: 400,
  code: "invalid_request",
  message: `The Prefer header is not one the mock understands: ${why}.`,
  details: preferDetail(why),
});

export const preferChoosesNothing = (why: string): Refusal => ({
  status: 400,
  code: "invalid_request",
  message: `The Prefer header chooses no answer the contract declares: ${why}.`,
  details: preferDetail(why),
});

/** A failure the conditions drew that the operation declares no example of. */
export const conditionFailure = (status: number): Refusal => ({
  status,
  code: status === 429 ? "rate_limited" : "internal_error",
  message: "A failure the mock's conditions asked for.",
});

// The mock's own paths.

/** The 405 of a mock-only path: the methods it takes, in the message and in Allow. */
export function notAMethodOf(path: MockOnlyPath, method: string): Refusal & { status: 405; headers: { allow: string } } {
  const methods = MOCK_ONLY_METHODS[path].join(", ");
  return {
    status: 405,
    code: "method_not_allowed",
    message: `${method} is not a method of ${MOCK_PATHS[path]}; it takes ${methods}.`,
    headers: { allow: methods },
  };
}

export const journalOff = (): Refusal => ({
  status: 404,
  code: "not_found",
  message: `The journal is off (the mock was started with a journal size of 0); ${MOCK_PATHS.journal} has nothing to show.`,
});

export const dataNeedsState = (): Refusal => ({
  status: 404,
  code: "not_found",
  message: `${MOCK_PATHS.data} answers only when the mock runs with --stateful (or --data <file>, which implies it).`,
});

/** `then`: what to do instead, where the operation can say. */
export const keyDeleted = (then = ""): Refusal => ({ status: 401, code: "unauthorized", message: `This API key was deleted (deleteTeamApiKey)${then}.` });

export const managementKeyDeleted = (): Refusal => ({
  status: 401,
  code: "unauthorized",
  message: "This management key was deleted (deleteManagementKey); create another with createManagementKey under an org management key.",
});

export const orgKeyRequired = (): Refusal => ({
  status: 403,
  code: "org_key_required",
  message: "This operation acts on the organization and needs an org management key; a team management key has no access to org-level resources or actions.",
});

export const teamNotInKeyScope = (teamId: string): Refusal => ({
  status: 403,
  code: "team_not_in_key_scope",
  message: `The team management key is not bound to team ${teamId}.`,
});
/** A credential the strict mock (`--strict-keys`) does not know; `known`: what it does take instead. */
export const unknownKey = (header: string, known: string): Refusal =>
  unauthorized(`The mock runs with strict keys (--strict-keys) and does not know this ${header}: send ${known}.`);

export const orgTeamKey = (managementHeader: string): Refusal => ({
  status: 401,
  code: "unauthorized",
  message: `This API key reaches a team of an org: its data goes with the org's, under ${managementHeader} (or everything's, with no credential).`,
});

/** `count`: the problems, counted in words (seed-check.ts's problemCount). */
export const seedRefused = (count: string, details: ErrorDetail[]): Refusal => ({
  status: 422,
  code: "invalid_request",
  message: `The seed data has ${count}; nothing was loaded.`,
  details,
});

export const settingsPerTeam = (apiKeyHeader: string): Refusal => ({
  status: 401,
  code: "unauthorized",
  message: `Settings and the clock are per team: send the team's ${apiKeyHeader} header.`,
});

export const conditionsPerTeam = (): Refusal => ({
  status: 401,
  code: "unauthorized",
  message: "Conditions are per team: send the team's credential (x-svc-api-key).",
});

// The stateful mock's answers.

/** How long a client is told to wait after `mock_state_full`: past the client's longest wait, so it does not retry. */
const FULL_RETRY_AFTER_S = "3600";

/** `why`: the cap reached, as the store names it. */
export const stateFull = (why: string): Refusal => ({ status: 429, code: "mock_state_full", message: why, headers: { "retry-after": FULL_RETRY_AFTER_S } });

export const recordTooLarge = (bytes: number): Refusal => ({
  status: 413,
  code: "payload_too_large",
  message: `The stateful mock keeps records of at most ${MAX_RECORD_BODY} bytes of JSON; this body has ${bytes}. (The service's limit is not documented.)`,
});

/** The header carrying why a stateful answer was replaced by a 500. */
export const CONTRACT_VIOLATION = "x-svc-mock-contract-violation";

export const stateAnswerBrokeContract = (why: string): Refusal => ({
  status: 500,
  code: "internal_error",
  message: "The stateful mock made an answer that breaks the contract; its log has the details.",
  headers: { [CONTRACT_VIOLATION]: why },
});

export const notFound = (message: string): Refusal => ({ status: 404, code: "not_found", message });

export const closedBeta = (what: string): Refusal => ({
  status: 403,
  code: "closed_beta_not_enabled",
  message: `${what} is in closed beta, and this team is not enabled for it. (Mock: enable it with PATCH ${MOCK_PATHS.state} {"settings": {"closed_beta_enabled": true}}.)`,
});

export const bulkImportDisabled = (provider: string, teamId: string): Refusal => ({
  status: 403,
  code: "feature_not_enabled",
  message: `Bulk import is disabled for this team until it configures its own OAuth application credential for ${provider} (PUT /v2/management/teams/${teamId}/custom_credentials/${provider}).`,
});

export const userExists = (clientUserId: string, user: { user_id: string; created_on: string }): Refusal => ({
  status: 400,
  code: "user_already_exists",
  message: `The client_user_id ${clientUserId} already belongs to user ${user.user_id}, created on ${user.created_on}.`,
  fields: { user_id: user.user_id, created_on: user.created_on },
});

/** `graceMs`: the grace period a deletion waits (users.ts's GRACE_PERIOD_MS). */
export const deletionFinal = (userId: string, deletedOn: string, graceMs: number): Refusal => ({
  status: 410,
  code: "deletion_grace_period_over",
  message: `The deletion of user ${userId} took effect on ${deletedOn}, at the end of its ${graceMs / 86_400_000}-day grace period, and can no longer be undone.`,
  fields: { user_id: userId, deleted_on: deletedOn },
});

// The validating proxy's own answers, when the upstream gives none to pass on.

/** A refusal the proxy makes for its upstream: a bad gateway, or a gateway timeout. */
export type UpstreamRefusal = Refusal & { status: 502 | 504 };

export const upstreamNotHttp = (origin: string, why: string): UpstreamRefusal => ({
  status: 502,
  code: "upstream_invalid_answer",
  message: `${origin} answered with what is not HTTP the proxy reads (${why}).`,
});

export const upstreamCutShort = (origin: string): UpstreamRefusal => ({
  status: 502,
  code: "upstream_invalid_answer",
  message: `${origin} closed the connection before its answer was complete.`,
});

export const upstreamUnreachable = (origin: string, why: string): UpstreamRefusal => ({
  status: 502,
  code: "upstream_unreachable",
  message: `${origin} could not be reached: ${why}.`,
});

export const upstreamTimeout = (origin: string, ms: number): UpstreamRefusal => ({
  status: 504,
  code: "upstream_timeout",
  message: `${origin} did not answer within ${ms / 1000} s, the proxy's deadline.`,
});

export const upstreamTooLarge = (origin: string, bytes: number): UpstreamRefusal => ({
  status: 502,
  code: "upstream_answer_too_large",
  message: `${origin} answered with a body over ${bytes} bytes, the proxy's bound; it stopped reading there.`,
});
