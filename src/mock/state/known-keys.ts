// Strict keys (`--strict-keys`, `strictKeys: true`): only the keys the mock knows authenticate, so a client's handling
// of a mistyped, never-issued or deleted key can be tested against the declared 401, as the service answers.
import type { CredentialKind } from "../../contract/credentials.ts";
import { CREDENTIAL_PLACEHOLDERS } from "../../contract/credentials.ts";
import type { Refusal } from "../http-shapes.ts";
import { keyDeleted, unknownKey } from "../refusals.ts";
import type { StateStore } from "./store.ts";

/** verify makes keys of its own for a run against a loopback mock (src/verify/target.ts): `sk_test_verify_<run>`, `mk_test_verify_<run>`. */
const VERIFY_KEY = "_test_verify_";

/** What a caller may send instead, per kind of key, for the refusal's message. */
const KNOWN: Record<Exclude<CredentialKind, "token">, string> = {
  team: `a key of the seed data, one createTeamApiKey issued, or ${CREDENTIAL_PLACEHOLDERS.apiKey}`,
  management: `a key of the seed data, one createManagementKey issued, or ${CREDENTIAL_PLACEHOLDERS.managementKey}`,
};

function isKnown(store: StateStore, kind: Exclude<CredentialKind, "token">, value: string): boolean {
  if (value.includes(VERIFY_KEY)) return true;
  if (kind === "team") return value === CREDENTIAL_PLACEHOLDERS.apiKey || store.peekTeam(value) !== undefined;
  return value === CREDENTIAL_PLACEHOLDERS.managementKey || store.isKnownManagementKey(value);
}

/** The 401 for a credential the strict mock does not know (`header`: as the contract writes it), or undefined. */
export function unknownKeyRefusal(store: StateStore, kind: CredentialKind, value: string, header: string): Refusal | undefined {
  // A link token the service never issued is not a 401: the service answers it `200` with `invalid_token` (4.7, 5; the
  // link-token-never-issued workflow), which the stateful mock already does, strict or not.
  if (kind === "token") return undefined;
  // Refused as deleted, whatever the request's Prefer asks: the service refuses a deleted key before anything else.
  if (kind === "team" && store.isRevoked(value)) return keyDeleted("; create another with createTeamApiKey");
  return isKnown(store, kind, value) ? undefined : unknownKey(header, KNOWN[kind]);
}
