// The link flow: a link token is made for a user of the team (4.5) and is the credential of complete_mfa (4.7), which
// answers from the token's history: never issued, expired, consumed, a wrong code, another code wanted, or success,
// which makes the connection and emits provider.connection.created to the team's webhook endpoints.
import { randomHex } from "../platform.ts";
import type { StateAnswer } from "./vocabulary.ts";
import { isoAt, teamNow, type LinkTokenRecord } from "./model.ts";
import { liveUser, unknownUser } from "./users.ts";
import type { TeamHandler, TokenHandler } from "./vocabulary.ts";

/** The mock's MFA codes (the document does not say which codes a provider accepts): this one is always wrong. */
export const WRONG_MFA_CODE = "000000";
/** This one makes the provider ask for another code (`pending_provider_mfa`). */
export const ANOTHER_MFA_CODE = "111111";

export const linkHandlers: Record<string, TeamHandler> = {
  createLinkToken({ team, call, store, examples }) {
    const user = liveUser(team, String(call.body.user_id));
    if (user === undefined) return unknownUser(String(call.body.user_id));
    store.reserve(team);
    const token = `mock-link-token-${randomHex(16)}`;
    const record: LinkTokenRecord = {
      token,
      team,
      userId: user.user_id,
      provider: call.body.provider ?? null,
      redirectUrl: call.body.redirect_url ?? null,
      expiresAt: teamNow(team) + team.settings.link_token_lifetime_s * 1000,
      consumed: false,
    };
    store.linkTokens.set(token, record);
    // The hosted page's address is the example's, with this token in place of the example's.
    const example = examples.response("createLinkToken", 200);
    const webUrl = String(example.link_web_url).replace(String(example.link_token), token);
    return { status: 200, body: { link_token: token, link_web_url: webUrl } };
  },
};

/** The result of 2.8 for the provider of the path: deprecated fields filled as the examples fill them. */
function result(provider: string, record: LinkTokenRecord | undefined, fields: Record<string, unknown>): StateAnswer {
  return {
    status: 200,
    body: {
      state: "error",
      provider,
      connected: false,
      provider_id: null,
      redirect_url: record?.redirectUrl ?? null,
      error_type: null,
      error: null,
      provider_mfa: null,
      ...fields,
    },
  };
}

const linkError = (provider: string, record: LinkTokenRecord | undefined, errorType: string, error: string): StateAnswer =>
  result(provider, record, { state: "error", error_type: errorType, error });

export const tokenHandlers: Record<string, TokenHandler> = {
  completeProviderMfa({ token, record, call, examples, deliver, store }) {
    const provider = call.path.provider!;
    if (record === undefined)
      return linkError(
        provider,
        undefined,
        "invalid_token",
        `The link token ${token.slice(0, 24)}… is not one the service issued; create one with POST /v2/link/token.`,
      );
    const team = record.team;
    if (record.consumed)
      return linkError(
        provider,
        record,
        "token_consumed",
        "The link token has already been used to connect a provider; create a new one with POST /v2/link/token.",
      );
    if (teamNow(team) >= record.expiresAt)
      return linkError(provider, record, "token_expired", `The link token expired at ${isoAt(record.expiresAt)}; create a new one with POST /v2/link/token.`);
    const user = liveUser(team, record.userId);
    if (user === undefined) return linkError(provider, record, "invalid_token", "The link token's user no longer exists.");
    const code = String(call.body.mfa_code);
    if (code === WRONG_MFA_CODE)
      return linkError(provider, record, "incorrect_mfa_code", "The provider rejected the one-time code; ask the end user for the code again.");
    if (code === ANOTHER_MFA_CODE) {
      const pending = examples.response("completeProviderMfa", 200, "pending_provider_mfa");
      return result(provider, record, { state: "pending_provider_mfa", provider_mfa: pending.provider_mfa });
    }
    const connected = team.connections.get(provider) ?? new Set<string>();
    if (connected.has(user.user_id)) {
      record.consumed = true;
      return linkError(provider, record, "duplicate_connection", `The user already has a ${provider} connection.`);
    }
    // Counted before the token is used: a full state refuses the completion and leaves the token as it was.
    store.reserve(team);
    record.consumed = true;
    connected.add(user.user_id);
    team.connections.set(provider, connected);
    const connectedAt = isoAt(teamNow(team));
    const event = examples.event("provider.connection.created");
    Object.assign(event, { team_id: team.id, user_id: user.user_id, client_user_id: user.client_user_id });
    event.data.provider = provider;
    event.data.source = { slug: provider };
    event.data.connected_at = connectedAt;
    deliver(team, event);
    return result(provider, record, { state: "success", connected: true, provider_id: `mock-${provider}-user-${user.user_id.slice(0, 8)}` });
  },
};
