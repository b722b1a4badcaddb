// Finds the team or org a credential reaches, creating it on first sight, and keeps every count under its cap: a
// team API key issued through the management API reaches that team; any other API key is a team of its own.
import { randomUUID } from "node:crypto";
import {
  DEFAULT_CAPS,
  DEFAULT_SETTINGS,
  newLedger,
  newTeam,
  StateFull,
  type LinkTokenRecord,
  type OrgState,
  type StateCaps,
  type TeamSettings,
  type TeamState,
} from "./model.ts";

export class StateStore {
  readonly caps: StateCaps;
  readonly defaults: TeamSettings;
  /** API key → team: keys the mock met first (a team each) and keys issued by createTeamApiKey (their team). */
  readonly #teamsByKey = new Map<string, TeamState>();
  /** Management key (or deprecated org key) → org. */
  readonly #orgsByKey = new Map<string, OrgState>();
  /** Link token → its record, across teams: the token alone is the credential of complete_mfa (section 5). */
  readonly linkTokens = new Map<string, LinkTokenRecord>();
  #teamCount = 0;
  #records = 0;

  constructor(caps: Partial<StateCaps> = {}, defaults: Partial<TeamSettings> = {}) {
    this.caps = { ...DEFAULT_CAPS, ...caps };
    this.defaults = { ...DEFAULT_SETTINGS, ...defaults };
  }

  get records(): number {
    return this.#records;
  }

  get teamCount(): number {
    return this.#teamCount;
  }

  #countTeam(): void {
    if (this.#teamCount >= this.caps.teams) {
      throw new StateFull(`The mock holds at most ${this.caps.teams} teams and orgs (each new credential makes one); reset with DELETE /_mock/state.`);
    }
    this.#teamCount++;
  }

  /** The team an API key reaches, made on first sight. */
  teamForApiKey(key: string): TeamState {
    let team = this.#teamsByKey.get(key);
    if (team === undefined) {
      this.#countTeam();
      team = newTeam(`Team of ${key.slice(0, 12)}…`, this.defaults);
      this.#teamsByKey.set(key, team);
    }
    return team;
  }

  /** The org a management key reaches, made on first sight with no teams. */
  orgForManagementKey(key: string): OrgState {
    let org = this.#orgsByKey.get(key);
    if (org === undefined) {
      this.#countTeam();
      org = { id: randomUUID(), teams: new Map(), ledger: newLedger() };
      this.#orgsByKey.set(key, org);
    }
    return org;
  }

  /** Takes room for `count` new records of a team or org, or throws StateFull naming the cap reached. */
  reserve(owner: { ledger: { records: number } }, count = 1): void {
    if (owner.ledger.records + count > this.caps.recordsPerTeam) {
      throw new StateFull(`The mock holds at most ${this.caps.recordsPerTeam} records per team; this team has ${owner.ledger.records}. Reset it with DELETE /_mock/state.`);
    }
    if (this.#records + count > this.caps.records) {
      throw new StateFull(`The mock holds at most ${this.caps.records} records in all; it has ${this.#records}. Reset with DELETE /_mock/state.`);
    }
    owner.ledger.records += count;
    this.#records += count;
  }

  release(owner: { ledger: { records: number } }, count = 1): void {
    owner.ledger.records -= count;
    this.#records -= count;
  }

  /** A team made by createTeam: in its org, and reachable by the API keys issued for it. */
  addOrgTeam(org: OrgState, name: string): TeamState {
    this.reserve(org);
    try {
      this.#countTeam();
    } catch (error) {
      this.release(org);
      throw error;
    }
    const team = newTeam(name, this.defaults, org.id);
    org.teams.set(team.id, team);
    return team;
  }

  bindApiKey(key: string, team: TeamState): void {
    this.#teamsByKey.set(key, team);
  }

  unbindApiKey(key: string): void {
    this.#teamsByKey.delete(key);
  }

  /** Forgets a team: its records, its keys and its link tokens. */
  forgetTeam(team: TeamState): void {
    this.#records -= team.ledger.records;
    team.ledger.records = 0;
    for (const [key, bound] of this.#teamsByKey) if (bound === team) this.#teamsByKey.delete(key);
    for (const [token, record] of this.linkTokens) if (record.team === team) this.linkTokens.delete(token);
    this.#teamCount--;
  }

  /** Forgets an org and every team it made. */
  forgetOrg(key: string, org: OrgState): void {
    for (const team of org.teams.values()) this.forgetTeam(team);
    this.#records -= org.ledger.records;
    this.#orgsByKey.delete(key);
    this.#teamCount--;
  }

  /** Forgets what an API key reached (its team comes back empty on the next request). */
  resetApiKey(key: string): void {
    const team = this.#teamsByKey.get(key);
    if (team === undefined) return;
    if (team.orgId !== undefined) {
      // A team of an org keeps existing (the org made it); only what it holds is forgotten.
      this.#clearTeam(team);
      return;
    }
    this.forgetTeam(team);
  }

  resetManagementKey(key: string): void {
    const org = this.#orgsByKey.get(key);
    if (org !== undefined) this.forgetOrg(key, org);
  }

  resetAll(): void {
    this.#teamsByKey.clear();
    this.#orgsByKey.clear();
    this.linkTokens.clear();
    this.#teamCount = 0;
    this.#records = 0;
  }

  #clearTeam(team: TeamState): void {
    const fresh = newTeam(team.name, this.defaults, team.orgId);
    const kept = team.apiKeys;
    for (const [token, record] of this.linkTokens) if (record.team === team) this.linkTokens.delete(token);
    const released = team.ledger.records - kept.size;
    this.#records -= released;
    Object.assign(team, { ...fresh, id: team.id, created_at: team.created_at, apiKeys: kept, ledger: { records: kept.size } });
  }
}
