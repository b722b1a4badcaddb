// Finds the team or org a credential reaches, creating it on first sight, and keeps every count under its cap: a
// team API key issued through the management API reaches that team, a management key issued there its org (scoped
// by its kind and teams); any other API key is a team of its own, any other management key an org of its own. The
// totals are summed from the teams and orgs themselves, never kept beside them, so no reset or delete can skew them.
import { MOCK_PATHS } from "../../shared/mock-paths.ts";
import {
  DEFAULT_CAPS,
  DEFAULT_SETTINGS,
  newOrg,
  newTeam,
  StateFull,
  type LinkTokenRecord,
  type ManagementKeyRecord,
  type OrgState,
  type StateCaps,
  type TeamSettings,
  type TeamState,
} from "./model.ts";

/** How many deleted API keys are remembered as deleted (refused), oldest forgotten first. */
const REVOKED_KEYS = 10_000;

/** The name of a team met through an API key of its own: the key's start, which is how a reader tells teams apart. */
export const ownTeamName = (key: string): string => `Team of ${key.slice(0, 12)}…`;

/** The name of an org met through a management key of its own, until updateOrg renames it. */
export const ownOrgName = (key: string): string => `Org of ${key.slice(0, 12)}…`;

export class StateStore {
  readonly caps: StateCaps;
  readonly defaults: TeamSettings;
  /** Every team: met through an unknown API key, or made by an org. */
  readonly #teams = new Set<TeamState>();
  /** API key → team: keys the mock met first (a team each) and keys issued by createTeamApiKey (their team). */
  readonly #teamsByKey = new Map<string, TeamState>();
  /** Management key (or deprecated org key) → org. */
  readonly #orgsByKey = new Map<string, OrgState>();
  /** Management key issued by createManagementKey → its org and record (kind, team_ids). */
  readonly #issuedManagementKeys = new Map<string, { org: OrgState; record: ManagementKeyRecord }>();
  /** Management keys deleted through deleteManagementKey: refused, not a new org. */
  readonly #revokedManagementKeys = new Set<string>();
  /** Keys deleted through deleteTeamApiKey: refused, as the service refuses a deleted key, not a new team. */
  readonly #revoked = new Set<string>();
  /** Link token → its record, across teams: the token alone is the credential of complete_mfa (section 5). */
  readonly linkTokens = new Map<string, LinkTokenRecord>();

  constructor(caps: Partial<StateCaps> = {}, defaults: Partial<TeamSettings> = {}) {
    this.caps = { ...DEFAULT_CAPS, ...caps };
    this.defaults = { ...DEFAULT_SETTINGS, ...defaults };
  }

  /** Records across every team and org. */
  get records(): number {
    let sum = 0;
    for (const team of this.#teams) sum += team.ledger.records;
    for (const org of this.#allOrgs()) sum += org.ledger.records;
    return sum;
  }

  /** Teams and orgs. */
  get teamCount(): number {
    return this.#teams.size + this.#orgsByKey.size;
  }

  /** Every org, once (an org is reached by the key it was met through and by the keys it issued). */
  #allOrgs(): Set<OrgState> {
    return new Set(this.#orgsByKey.values());
  }

  #roomForTeam(): void {
    if (this.teamCount >= this.caps.teams) {
      throw new StateFull(`The mock holds at most ${this.caps.teams} teams and orgs (each new credential makes one); reset with DELETE ${MOCK_PATHS.state}.`);
    }
  }

  /** Whether an API key was deleted (the mock refuses it). */
  isRevoked(key: string): boolean {
    return this.#revoked.has(key);
  }

  /** The team an API key reaches, made on first sight. */
  teamForApiKey(key: string): TeamState {
    let team = this.#teamsByKey.get(key);
    if (team === undefined) {
      this.#roomForTeam();
      team = newTeam(ownTeamName(key), this.defaults);
      this.#teams.add(team);
      this.#teamsByKey.set(key, team);
    }
    return team;
  }

  /** The team an API key reaches, without making one. */
  peekTeam(key: string): TeamState | undefined {
    return this.#teamsByKey.get(key);
  }

  /** Whether a management key was deleted (the mock refuses it). */
  isRevokedManagementKey(key: string): boolean {
    return this.#revokedManagementKeys.has(key);
  }

  /** Whether the mock knows a management key: met first, seeded, or issued by createManagementKey and not deleted. */
  isKnownManagementKey(key: string): boolean {
    return this.#orgsByKey.has(key) || this.#issuedManagementKeys.has(key);
  }

  /** The issued key's record (its kind and team_ids), or undefined for a key the org was met through, which is an org key. */
  managementKeyRecord(key: string): ManagementKeyRecord | undefined {
    return this.#issuedManagementKeys.get(key)?.record;
  }

  /** The org a management key reaches, made on first sight with no teams. */
  orgForManagementKey(key: string): OrgState {
    let org = this.peekOrg(key);
    if (org === undefined) {
      this.#roomForTeam();
      org = newOrg(ownOrgName(key));
      this.#orgsByKey.set(key, org);
    }
    return org;
  }

  /** The org a management key reaches, without making one. */
  peekOrg(key: string): OrgState | undefined {
    return this.#orgsByKey.get(key) ?? this.#issuedManagementKeys.get(key)?.org;
  }

  /** A key issued by createManagementKey (or seeded in an org's management_keys): it reaches its org from now on. */
  bindManagementKey(org: OrgState, record: ManagementKeyRecord): void {
    org.managementKeys.set(record.id, record);
    this.#revokedManagementKeys.delete(record.management_key);
    this.#issuedManagementKeys.set(record.management_key, { org, record });
  }

  /** A deleted management key: it reaches nothing and is refused from now on. */
  revokeManagementKey(org: OrgState, record: ManagementKeyRecord): void {
    org.managementKeys.delete(record.id);
    this.#issuedManagementKeys.delete(record.management_key);
    this.#revokedManagementKeys.add(record.management_key);
    if (this.#revokedManagementKeys.size > REVOKED_KEYS) this.#revokedManagementKeys.delete(this.#revokedManagementKeys.values().next().value!);
  }

  /** Takes room for `count` new records of a team or org, or throws StateFull naming the cap reached. */
  reserve(owner: { ledger: { records: number } }, count = 1): void {
    if (owner.ledger.records + count > this.caps.recordsPerTeam) {
      throw new StateFull(
        `The mock holds at most ${this.caps.recordsPerTeam} records per team; this team has ${owner.ledger.records}. Reset it with DELETE ${MOCK_PATHS.state}.`,
      );
    }
    const records = this.records;
    if (records + count > this.caps.records) {
      throw new StateFull(`The mock holds at most ${this.caps.records} records in all; it has ${records}. Reset with DELETE ${MOCK_PATHS.state}.`);
    }
    owner.ledger.records += count;
  }

  release(owner: { ledger: { records: number } }, count = 1): void {
    owner.ledger.records -= count;
  }

  /** A team made by createTeam: in its org, and reachable by the API keys issued for it. */
  addOrgTeam(org: OrgState, name: string): TeamState {
    this.#roomForTeam();
    this.reserve(org);
    const team = newTeam(name, this.defaults, org.id);
    this.#teams.add(team);
    org.teams.set(team.id, team);
    return team;
  }

  /** A team made whole from seed data (seed.ts), reached by its keys; the caller counts its records. */
  addTeam(team: TeamState, keys: string[]): void {
    this.#roomForTeam();
    this.#teams.add(team);
    for (const key of keys) this.bindApiKey(key, team);
  }

  /** An org made whole from seed data (seed.ts), reached by its management key; its teams are added with addTeam. */
  addOrg(key: string, org: OrgState): void {
    this.#roomForTeam();
    this.#orgsByKey.set(key, org);
  }

  /** Each team met through an API key of its own, with that key (a team of an org is listed with its org). */
  *ownTeams(): Generator<[string, TeamState]> {
    for (const [key, team] of this.#teamsByKey) if (team.orgId === undefined) yield [key, team];
  }

  /** Each org with its management key. */
  orgs(): IterableIterator<[string, OrgState]> {
    return this.#orgsByKey.entries();
  }

  bindApiKey(key: string, team: TeamState): void {
    this.#revoked.delete(key);
    this.#teamsByKey.set(key, team);
  }

  /** A deleted key: it reaches nothing and is refused from now on. */
  revokeApiKey(key: string): void {
    this.#teamsByKey.delete(key);
    this.#revoked.add(key);
    if (this.#revoked.size > REVOKED_KEYS) this.#revoked.delete(this.#revoked.values().next().value!);
  }

  /** Forgets a team: its records, its keys and its link tokens. */
  forgetTeam(team: TeamState): void {
    this.#teams.delete(team);
    for (const [key, bound] of this.#teamsByKey) if (bound === team) this.#teamsByKey.delete(key);
    this.#forgetTokens(team);
  }

  /** Forgets an org, every team it made and every key that reaches it (`key`, any one of them). */
  forgetOrg(_key: string, org: OrgState): void {
    for (const team of org.teams.values()) this.forgetTeam(team);
    for (const [key, reached] of this.#orgsByKey) if (reached === org) this.#orgsByKey.delete(key);
    for (const [key, issued] of this.#issuedManagementKeys) if (issued.org === org) this.#issuedManagementKeys.delete(key);
  }

  /** Forgets what an API key reached (its team comes back empty on the next request). */
  resetApiKey(key: string): void {
    const team = this.#teamsByKey.get(key);
    if (team === undefined) return;
    // A team of an org keeps existing (the org made it), with its keys; only what it holds is forgotten.
    if (team.orgId !== undefined) this.#clearTeam(team);
    else this.forgetTeam(team);
  }

  resetManagementKey(key: string): void {
    const org = this.peekOrg(key);
    if (org !== undefined) this.forgetOrg(key, org);
  }

  resetAll(): void {
    this.#teams.clear();
    this.#teamsByKey.clear();
    this.#orgsByKey.clear();
    this.#issuedManagementKeys.clear();
    this.#revokedManagementKeys.clear();
    this.#revoked.clear();
    this.linkTokens.clear();
  }

  #forgetTokens(team: TeamState): void {
    for (const [token, record] of this.linkTokens) if (record.team === team) this.linkTokens.delete(token);
  }

  #clearTeam(team: TeamState): void {
    this.#forgetTokens(team);
    const fresh = newTeam(team.name, this.defaults, team.orgId);
    Object.assign(team, { ...fresh, id: team.id, created_at: team.created_at, apiKeys: team.apiKeys, ledger: { records: team.apiKeys.size } });
  }
}
