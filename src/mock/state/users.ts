// Users as the document describes them: a client_user_id belongs to one user of the team (section 7, rule 3), a
// deletion waits 7 days on the team's clock and can be undone until then (sections 3 and 8), and a sign-in token is
// made for a user the team has (4.6).
import { randomHex, randomId } from "../platform.ts";
import { notFound, stateRefusal, type StateAnswer } from "./vocabulary.ts";
import { deletionFinal, userExists } from "../refusals.ts";
import { isoAt, teamNow, type TeamState, type UserRecord } from "./model.ts";
import type { TeamHandler } from "./vocabulary.ts";
import type { StateStore } from "./store.ts";

/** Section 8: the user deletion grace period. */
export const GRACE_PERIOD_MS = 7 * 24 * 60 * 60 * 1000;

/** Whether a user's deletion took effect, by the team's clock. */
function deletionTookEffect(team: TeamState, user: UserRecord): boolean {
  return user.deletionRequestedAt !== undefined && teamNow(team) >= user.deletionRequestedAt + GRACE_PERIOD_MS;
}

/**
 * The team's user with this id, as every other operation sees it: a user whose deletion took effect is gone (and its
 * client_user_id free again); one still in the grace period is there.
 */
export function liveUser(team: TeamState, userId: string): UserRecord | undefined {
  const user = team.users.get(userId);
  if (user === undefined || deletionTookEffect(team, user)) return undefined;
  return user;
}

export const unknownUser = (userId: string): StateAnswer => notFound(`No user of the team has the user_id ${userId}.`);

function publicUser(user: UserRecord): { user_id: string; client_user_id: string; created_on: string } {
  return { user_id: user.user_id, client_user_id: user.client_user_id, created_on: user.created_on };
}

export const userHandlers: Record<string, TeamHandler> = {
  createUser({ team, call, store }) {
    const clientUserId = String(call.body.client_user_id);
    const existing = team.usersByClientId.get(clientUserId);
    if (existing !== undefined && !deletionTookEffect(team, existing)) {
      return stateRefusal(userExists(clientUserId, existing));
    }
    // Everything that could fail comes before the record is counted.
    const user: UserRecord = { user_id: randomId(), client_user_id: clientUserId, created_on: isoAt(teamNow(team)) };
    if (existing !== undefined) forgetUser(team, existing, store);
    store.reserve(team);
    team.users.set(user.user_id, user);
    team.usersByClientId.set(clientUserId, user);
    return { status: 200, body: publicUser(user) };
  },

  deleteUser({ team, call }) {
    const user = liveUser(team, call.path.user_id!);
    if (user === undefined) return unknownUser(call.path.user_id!);
    // A second request keeps the first one's date: the grace period runs from when deletion was first requested.
    user.deletionRequestedAt ??= teamNow(team);
    return {
      status: 200,
      body: {
        user_id: user.user_id,
        deletion_requested_at: isoAt(user.deletionRequestedAt),
        deletion_takes_effect_at: isoAt(user.deletionRequestedAt + GRACE_PERIOD_MS),
      },
    };
  },

  undoUserDeletion({ team, call }) {
    const user = team.users.get(call.path.user_id!);
    if (user === undefined) return unknownUser(call.path.user_id!);
    if (deletionTookEffect(team, user)) {
      const deletedOn = isoAt(user.deletionRequestedAt! + GRACE_PERIOD_MS);
      return stateRefusal(deletionFinal(user.user_id, deletedOn, GRACE_PERIOD_MS));
    }
    delete user.deletionRequestedAt;
    return { status: 200, body: publicUser(user) };
  },

  createSignInToken({ team, call }) {
    const user = liveUser(team, call.path.user_id!);
    if (user === undefined) return unknownUser(call.path.user_id!);
    return { status: 200, body: { user_id: user.user_id, sign_in_token: `mock-sign-in-token-${randomHex(16)}` } };
  },
};

/** Drops a user whose deletion took effect, with what the team held for it. */
function forgetUser(team: TeamState, user: UserRecord, store: StateStore): void {
  team.users.delete(user.user_id);
  team.usersByClientId.delete(user.client_user_id);
  const insurance = team.insurance.get(user.user_id)?.length ?? 0;
  team.insurance.delete(user.user_id);
  store.release(team, 1 + insurance);
}
