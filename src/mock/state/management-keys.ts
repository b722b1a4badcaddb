// The org's management keys in state: createManagementKey issues a key that reaches the org, scoped by its kind and
// team_ids, listManagementKeys lists them without their secrets, deleteManagementKey makes the key refused (401).
import { randomHex, randomId } from "../platform.ts";
import { invalidParts, managementKeyDeleted, orgKeyRequired, teamNotInKeyScope } from "../refusals.ts";
import { isoAt, type ManagementKeyRecord } from "./model.ts";
import { notFound, stateRefusal, type OrgHandler, type StateAnswer } from "./vocabulary.ts";
import type { StateStore } from "./store.ts";

const publicKey = ({ management_key: _key, ...info }: ManagementKeyRecord) => info;

export const managementKeyHandlers: Record<string, OrgHandler> = {
  listManagementKeys: ({ org }) => ({ status: 200, body: [...org.managementKeys.values()].map(publicKey) }),
  createManagementKey({ org, call, store }) {
    const kind = call.body.kind === "team" ? "team" : "org";
    const teamIds: string[] = kind === "team" ? [...new Set<string>(call.body.team_ids)] : [];
    // A key bound to a team the org does not have would reach nothing: the request is wrong, as a name too long is.
    const unknown = teamIds.flatMap((id, i) =>
      org.teams.has(id) ? [] : [{ location: "body" as const, field: `/team_ids/${i}`, message: `is not a team of the org (${id})` }],
    );
    if (unknown.length > 0) return stateRefusal(invalidParts(unknown));
    store.reserve(org);
    const key = `mk_test_mock_${randomHex(16)}`;
    const record: ManagementKeyRecord = {
      id: randomId(),
      kind,
      label: String(call.body.label),
      team_ids: teamIds,
      key_preview: `${key.slice(0, 20)}…`,
      created_at: isoAt(Date.now()),
      management_key: key,
    };
    store.bindManagementKey(org, record);
    return { status: 201, body: record };
  },
  deleteManagementKey({ org, call, store }) {
    const record = org.managementKeys.get(call.path.key_id!);
    if (record === undefined) return notFound(`The org has no management key with the id ${call.path.key_id}.`);
    store.revokeManagementKey(org, record);
    store.release(org);
    return { status: 200, body: { id: record.id, deleted: true } };
  },
};

/**
 * What a management key may not do, before any handler runs: a deleted key is refused; a team management key has no
 * access to org-level operations (`orgLevel`: those whose declared 403 is `org_key_required`) and reaches only its teams.
 */
export function keyScopeRefusal(store: StateStore, key: string, orgLevel: boolean, teamId: string | undefined): StateAnswer | undefined {
  if (store.isRevokedManagementKey(key)) return stateRefusal(managementKeyDeleted());
  const record = store.managementKeyRecord(key);
  if (record?.kind !== "team") return undefined;
  if (orgLevel) return stateRefusal(orgKeyRequired());
  if (teamId !== undefined && !record.team_ids.includes(teamId)) return stateRefusal(teamNotInKeyScope(teamId));
  return undefined;
}

/** The teams a key lists: every team of its org, or a team management key's own. */
export function teamsInScope(store: StateStore, key: string): ((teamId: string) => boolean) | undefined {
  const record = store.managementKeyRecord(key);
  return record?.kind === "team" ? (teamId) => record.team_ids.includes(teamId) : undefined;
}
