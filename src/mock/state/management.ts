// The management API's part of the state: an org (one per management key met first) makes teams, issues their API
// keys (a key issued here reaches that team on the regular API), registers their webhook endpoints and OAuth
// credentials. Its management keys (management-keys.ts), settings and brand (org-settings.ts) and ETL pipelines
// (etl-pipelines.ts) have files of their own.
import { randomHex, randomId, utf8Length } from "../platform.ts";
import { newSecret } from "../../webhooks/signature.ts";
import { notFound, type StateAnswer } from "./vocabulary.ts";
import { isoAt, MAX_RECORD_BODY, type ApiKeyRecord, type OrgState, type TeamState, type WebhookRecord } from "./model.ts";
import type { OrgHandler } from "./vocabulary.ts";
import { teamsInScope } from "./management-keys.ts";

/** The management API's dates are the wall clock's: an org has no clock of its own. */
const now = () => isoAt(Date.now());

function publicTeam(team: TeamState) {
  return { id: team.id, org_id: team.orgId!, name: team.name, created_at: team.created_at };
}

/** The team of the path, when it is the org's. */
export function orgTeam(org: OrgState, teamId: string | undefined): TeamState | undefined {
  return teamId === undefined ? undefined : org.teams.get(teamId);
}

/** The records a team's custom credential for a provider counts (the path takes any slug, so a long one counts more). */
export const customCredentialRecords = (provider: string): number => 1 + Math.floor(utf8Length(provider) / MAX_RECORD_BODY);

export const unknownTeam = (teamId: string): StateAnswer => notFound(`No team of the org has the id ${teamId}.`);

function publicWebhook(hook: WebhookRecord) {
  const { secret: _secret, ...shown } = hook;
  return shown;
}

/** The handlers that need the path's team; the dispatcher answers 404 before calling one for a team the org does not have. */
export const teamManagementHandlers: Record<string, (team: TeamState, ...rest: Parameters<OrgHandler>) => ReturnType<OrgHandler>> = {
  getTeam: (team) => ({ status: 200, body: publicTeam(team) }),
  updateTeam(team, { call }) {
    if (typeof call.body?.name === "string") team.name = call.body.name;
    return { status: 200, body: publicTeam(team) };
  },
  deleteTeam(team, { org, store }) {
    org.teams.delete(team.id);
    store.forgetTeam(team);
    store.release(org);
    return { status: 200, body: { id: team.id, deleted: true } };
  },
  listTeamApiKeys: (team) => ({ status: 200, body: [...team.apiKeys.values()].map(({ api_key: _key, ...info }) => info) }),
  createTeamApiKey(team, { call, store }) {
    store.reserve(team);
    const apiKey = `sk_test_mock_${randomHex(16)}`;
    const record: ApiKeyRecord = {
      id: randomId(),
      team_id: team.id,
      label: String(call.body.label),
      key_preview: `${apiKey.slice(0, 20)}…`,
      created_at: now(),
      api_key: apiKey,
    };
    team.apiKeys.set(record.id, record);
    store.bindApiKey(apiKey, team);
    return { status: 201, body: record };
  },
  deleteTeamApiKey(team, { call, store }) {
    const record = team.apiKeys.get(call.path.api_key_id!);
    if (record === undefined) return notFound(`Team ${team.id} has no API key with the id ${call.path.api_key_id}.`);
    team.apiKeys.delete(record.id);
    store.revokeApiKey(record.api_key);
    store.release(team);
    return { status: 200, body: { id: record.id, deleted: true } };
  },
  listWebhookEndpoints: (team) => ({ status: 200, body: [...team.webhooks.values()].map(publicWebhook) }),
  createWebhookEndpoint(team, { call, store }) {
    store.reserve(team);
    const at = now();
    const hook: WebhookRecord = {
      id: randomId(),
      team_id: team.id,
      url: String(call.body.url),
      event_types: call.body.event_types ?? null,
      headers: call.body.headers ?? {},
      enabled: call.body.enabled ?? true,
      description: call.body.description ?? null,
      created_at: at,
      updated_at: at,
      secret: newSecret(),
    };
    team.webhooks.set(hook.id, hook);
    return { status: 201, body: hook };
  },
  getWebhookEndpoint(team, { call }) {
    const hook = team.webhooks.get(call.path.webhook_id!);
    return hook === undefined ? unknownWebhook(team, call.path.webhook_id!) : { status: 200, body: publicWebhook(hook) };
  },
  updateWebhookEndpoint(team, { call }) {
    const hook = team.webhooks.get(call.path.webhook_id!);
    if (hook === undefined) return unknownWebhook(team, call.path.webhook_id!);
    for (const field of ["url", "event_types", "headers", "enabled", "description"] as const) {
      if (call.body?.[field] !== undefined) (hook as unknown as Record<string, unknown>)[field] = call.body[field];
    }
    hook.updated_at = now();
    return { status: 200, body: publicWebhook(hook) };
  },
  deleteWebhookEndpoint(team, { call, store }) {
    const hook = team.webhooks.get(call.path.webhook_id!);
    if (hook === undefined) return unknownWebhook(team, call.path.webhook_id!);
    team.webhooks.delete(hook.id);
    store.release(team);
    return { status: 200, body: { id: hook.id, deleted: true } };
  },
  rotateWebhookEndpointSecret(team, { call }) {
    const hook = team.webhooks.get(call.path.webhook_id!);
    if (hook === undefined) return unknownWebhook(team, call.path.webhook_id!);
    hook.secret = newSecret();
    hook.updated_at = now();
    return { status: 200, body: { webhook_id: hook.id, secret: hook.secret, rotated_at: hook.updated_at } };
  },
  setTeamCustomCredential(team, { call, store }) {
    const provider = call.path.provider!;
    // A provider the team had not configured is a record of its own (the path takes any slug).
    if (!team.customCredentials.has(provider)) store.reserve(team, customCredentialRecords(provider));
    team.customCredentials.add(provider);
    return { status: 200, body: { provider: call.path.provider, client_id: String(call.body.client_id), updated_at: now() } };
  },
};

const unknownWebhook = (team: TeamState, id: string): StateAnswer => notFound(`Team ${team.id} has no webhook endpoint with the id ${id}.`);

export const orgHandlers: Record<string, OrgHandler> = {
  listTeams({ org, key, store }) {
    const reached = teamsInScope(store, key);
    return { status: 200, body: [...org.teams.values()].filter((team) => reached?.(team.id) ?? true).map(publicTeam) };
  },
  createTeam({ org, call, store }) {
    const team = store.addOrgTeam(org, String(call.body.name));
    return { status: 201, body: publicTeam(team) };
  },
};
