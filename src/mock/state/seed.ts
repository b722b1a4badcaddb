// Seed data for the stateful mock: loads a dataset (seed-form.ts) into the state, checked whole first (seed-check.ts) so
// a bad one loads nothing, each record made as its create operation makes it and counted against the same caps; and
// exports the state in the same form, so an export loaded into a fresh mock exports the same again.
import { randomId } from "../platform.ts";
import type { JsonObject } from "../../contract/json.ts";
import type { StatefulState } from "./vocabulary.ts";
import { createdRecord, keptInsurance } from "./insurance.ts";
import { allowLoopbackWebhooks } from "./loopback-webhooks.ts";
import { DEFAULT_CAPS, newOrg, newTeam, type TeamState, type UserRecord } from "./model.ts";
import { capProblems, problemLine, seedOrgId, seedProblem, seedProblems, seedRecords, seedTeamId, type Kept, type SeedProblem } from "./seed-check.ts";
import { SEED_VERSION, type SeedData, type SeedOrg, type SeedOrgTeam, type SeedTeam, type SeedTeamContent, type SeedUser } from "./seed-form.ts";
import { ownOrgName, ownTeamName, type StateStore } from "./store.ts";

export type { SeedData, SeedOrg, SeedOrgTeam, SeedTeam, SeedUser } from "./seed-form.ts";
export { problemLine, type SeedProblem } from "./seed-check.ts";

/** Seed data refused: every problem, each naming its record and field; nothing of it was loaded. */
export class SeedError extends Error {
  /** One line per problem: `teams[0].users[2] (client_user_id "abc"): /created_on: must match format "date-time"`. */
  readonly problems: string[];
  readonly details: SeedProblem[];

  constructor(details: SeedProblem[]) {
    const problems = details.map(problemLine);
    super(refusal("The seed data", problems));
    this.name = "SeedError";
    this.problems = problems;
    this.details = details;
  }

  /** The refusal with what was refused named (`--data seed.json`), as a command prints it. */
  describe(subject: string): string {
    return refusal(subject, this.problems);
  }
}

/** `1 problem`, `3 problems`. */
export const problemCount = (count: number): string => (count === 1 ? "1 problem" : `${count} problems`);

const refusal = (subject: string, problems: string[]) =>
  `${subject} is refused (${problemCount(problems.length)}); nothing was loaded:\n${problems.map((line) => `  ${line}`).join("\n")}`;

/**
 * Checks seed data without a mock, as a stateful mock on this contract would check it on an empty state: a command
 * checks its file before it builds or listens. Throws SeedError.
 */
export function checkSeed(document: JsonObject, data: unknown): void {
  const problems = seedProblems(allowLoopbackWebhooks(document), data, DEFAULT_CAPS);
  if (problems.length > 0) throw new SeedError(problems);
}

/** What a load replaces: the API key's team and the management key's org; everything when neither is given. */
export interface SeedScope {
  apiKey?: string | undefined;
  managementKey?: string | undefined;
}

/** What a load with a credential replaces (the key's team of its own, the org), and the problems of a seed reaching past it. */
function scopeOf(store: StateStore, scope: SeedScope, seed: SeedData) {
  const team = scope.apiKey === undefined ? undefined : store.peekTeam(scope.apiKey);
  const org = scope.managementKey === undefined ? undefined : store.peekOrg(scope.managementKey);
  const problems: SeedProblem[] = [];
  const refuse = (pointer: string, message: string) => problems.push(seedProblem(seed, pointer, message));
  const notReached = "is not the one the request sends: a request with a credential replaces only what the credential reaches";
  if (team?.orgId !== undefined)
    refuse("", "the API key reaches a team of an org, which is loaded with its org (under the management key) or with everything (no credential)");
  (seed.teams ?? []).forEach((entry, t) => entry.api_key !== scope.apiKey && refuse(`/teams/${t}/api_key`, notReached));
  (seed.orgs ?? []).forEach((entry, o) => {
    if (entry.management_key !== scope.managementKey) refuse(`/orgs/${o}/management_key`, notReached);
    (entry.teams ?? []).forEach((orgTeam, t) =>
      (orgTeam.api_keys ?? []).forEach((key, k) => {
        const reached = store.peekTeam(key.api_key);
        const replaced = reached === undefined || reached === team || (org !== undefined && reached.orgId === org.id);
        if (!replaced) refuse(`/orgs/${o}/teams/${t}/api_keys/${k}/api_key`, "already reaches a team the request does not replace");
      }),
    );
  });
  const teams = [...(team === undefined || team.orgId !== undefined ? [] : [team]), ...(org?.teams.values() ?? [])];
  const kept: Kept = {
    teams: store.teamCount - teams.length - (org === undefined ? 0 : 1),
    records: store.records - teams.reduce((sum, each) => sum + each.ledger.records, 0) - (org?.ledger.records ?? 0),
  };
  const forget = () => {
    if (team !== undefined && team.orgId === undefined) store.forgetTeam(team);
    if (org !== undefined) store.forgetOrg(scope.managementKey!, org);
  };
  return { problems, kept, forget };
}

/**
 * Replaces the state with a seed: all of it, or, with a scope, the team of the API key and the org of the management
 * key (another suite's teams are left alone). Throws SeedError, having loaded nothing, when anything in it is wrong.
 */
export function loadSeed(mock: StatefulState, data: unknown, scope: SeedScope = {}): void {
  const store = mock.store;
  const found = seedProblems(mock.document, data, store.caps);
  if (found.length > 0) throw new SeedError(found);
  const seed = data as SeedData;
  if (scope.apiKey !== undefined || scope.managementKey !== undefined) {
    const scoped = scopeOf(store, scope, seed);
    // The caps again, now counting what the state keeps beside the seed.
    const refused = scoped.problems.length > 0 ? scoped.problems : capProblems(seed, store.caps, scoped.kept);
    if (refused.length > 0) throw new SeedError(refused);
    scoped.forget();
  } else store.resetAll();
  for (const entry of seed.teams ?? []) {
    const team = makeTeam(store, entry, { id: seedTeamId(entry), name: entry.name ?? ownTeamName(entry.api_key), created_at: entry.created_at });
    store.addTeam(team, [entry.api_key]);
    store.reserve(team, seedRecords(entry));
  }
  for (const entry of seed.orgs ?? []) {
    const org = newOrg(entry.name ?? ownOrgName(entry.management_key), seedOrgId(entry) ?? randomId());
    if (entry.created_at !== undefined) org.created_at = entry.created_at;
    store.addOrg(entry.management_key, org);
    for (const orgTeam of entry.teams ?? []) {
      const team = makeTeam(store, orgTeam, { id: orgTeam.id, name: orgTeam.name, created_at: orgTeam.created_at, orgId: org.id });
      for (const key of orgTeam.api_keys ?? []) team.apiKeys.set(key.id, structuredClone(key));
      team.customCredentials = new Set(orgTeam.custom_credentials ?? []);
      team.brand = orgTeam.brand === undefined ? null : structuredClone(orgTeam.brand);
      for (const pipeline of orgTeam.etl_pipelines ?? []) team.etlPipelines.set(pipeline.id, structuredClone(pipeline));
      org.teams.set(team.id, team);
      store.addTeam(
        team,
        [...team.apiKeys.values()].map((key) => key.api_key),
      );
      store.reserve(team, seedRecords(orgTeam));
    }
    for (const key of entry.management_keys ?? []) store.bindManagementKey(org, structuredClone(key));
    store.reserve(org, org.teams.size + org.managementKeys.size);
  }
}

/** A team with what it holds, each record as the operation that makes it would have kept it. */
function makeTeam(
  store: StateStore,
  entry: SeedTeamContent,
  base: { id: string | undefined; name: string; created_at: string | undefined; orgId?: string },
): TeamState {
  const team = newTeam(base.name, store.defaults, base.orgId);
  if (base.id !== undefined) team.id = base.id;
  if (base.created_at !== undefined) team.created_at = base.created_at;
  Object.assign(team.settings, entry.settings);
  team.clockOffsetMs = entry.clock_offset_ms ?? 0;
  for (const given of entry.users ?? []) {
    const user: UserRecord = { user_id: given.user_id, client_user_id: given.client_user_id, created_on: given.created_on };
    if (given.deletion_requested_at !== undefined) user.deletionRequestedAt = Date.parse(given.deletion_requested_at);
    team.users.set(user.user_id, user);
    team.usersByClientId.set(user.client_user_id, user);
    // As createInsurance keeps it.
    const insurance = (given.insurance ?? []).map((record) => keptInsurance(createdRecord(record)));
    if (insurance.length > 0) team.insurance.set(user.user_id, insurance);
    for (const { provider } of given.connections ?? []) team.connections.set(provider, (team.connections.get(provider) ?? new Set()).add(user.user_id));
  }
  for (const hook of entry.webhook_endpoints ?? []) team.webhooks.set(hook.id, structuredClone(hook));
  return team;
}

const byProvider = (a: { provider: string }, b: { provider: string }) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0);

/** A team's content in the seed's form: every field, so an export says all the state holds. */
function teamContent(team: TeamState): Required<SeedTeamContent> {
  const users = [...team.users.values()].map((user): SeedUser => {
    const insurance = (team.insurance.get(user.user_id) ?? []).map((record) => structuredClone(record.created) as NonNullable<SeedUser["insurance"]>[number]);
    // Sorted: where a provider stands among the team's says nothing, and a load would not keep it.
    const connections = [...team.connections]
      .filter(([, users]) => users.has(user.user_id))
      .map(([provider]) => ({ provider }))
      .sort(byProvider);
    return {
      user_id: user.user_id,
      client_user_id: user.client_user_id,
      created_on: user.created_on,
      ...(user.deletionRequestedAt === undefined ? {} : { deletion_requested_at: new Date(user.deletionRequestedAt).toISOString() }),
      ...(insurance.length === 0 ? {} : { insurance }),
      ...(connections.length === 0 ? {} : { connections }),
    };
  });
  return {
    settings: { ...team.settings },
    clock_offset_ms: team.clockOffsetMs,
    users,
    webhook_endpoints: [...team.webhooks.values()].map((hook) => structuredClone(hook)),
  };
}

/**
 * The state as seed data: the team of an API key of its own and the org of a management key, or, with neither, every
 * team and org. A team an org made is exported with its org (its API key alone exports nothing: the org's data
 * goes with the org's key). It holds the keys and webhook secrets: loaded again, it makes the same state.
 */
export function exportSeed(mock: StatefulState, apiKey?: string, managementKey?: string): SeedData {
  const everything = apiKey === undefined && managementKey === undefined;
  const teams: SeedTeam[] = [];
  for (const [key, team] of mock.store.ownTeams()) {
    if (everything || key === apiKey) teams.push({ api_key: key, id: team.id, name: team.name, created_at: team.created_at, ...teamContent(team) });
  }
  const orgs: SeedOrg[] = [];
  for (const [key, org] of mock.store.orgs()) {
    if (!everything && key !== managementKey) continue;
    const orgTeams = [...org.teams.values()].map(
      (team): SeedOrgTeam => ({
        id: team.id,
        org_id: org.id,
        name: team.name,
        created_at: team.created_at,
        ...teamContent(team),
        api_keys: [...team.apiKeys.values()].map((record) => structuredClone(record)),
        custom_credentials: [...team.customCredentials],
        brand: structuredClone(team.brand),
        etl_pipelines: [...team.etlPipelines.values()].map((pipeline) => structuredClone(pipeline)),
      }),
    );
    orgs.push({
      management_key: key,
      id: org.id,
      name: org.name,
      created_at: org.created_at,
      teams: orgTeams,
      management_keys: [...org.managementKeys.values()].map((record) => structuredClone(record)),
    });
  }
  return { version: SEED_VERSION, teams, orgs };
}
