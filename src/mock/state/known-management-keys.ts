// Whether the stateful mock's state knows a management key, for strict keys (known-keys.ts): the one place to change
// when the management API's state (issued management keys among it) is kept somewhere else.
import type { StateStore } from "./store.ts";

/**
 * A management key reaches an org the state holds: one of the seed data, or one bound to an org when it was issued.
 * createManagementKey answers from the examples until the management API is kept in state; a key it issues then
 * becomes known by being bound to its org here (peekOrg), or by this function asking the new store.
 */
export function isKnownManagementKey(store: StateStore, key: string): boolean {
  return store.peekOrg(key) !== undefined;
}
