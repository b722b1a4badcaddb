// What the stateful mock remembers (`--stateful`): teams keyed by the credential that reaches them, each with its own
// users, link tokens, insurance, bulk operations, webhook endpoints, settings and clock; orgs keyed by management key.
// Everything is bounded: a cap per team and one for all, past which a create is refused (never an old record dropped).
import { randomId } from "../platform.ts";
import type { components } from "../../../generated/schema.js";
import type { MockTeamSettings } from "../public-types.ts";

/** The mock-only settings a test suite may change per team through `PATCH /_mock/state` (control.ts): the public type. */
export type TeamSettings = MockTeamSettings;

export const DEFAULT_SETTINGS: TeamSettings = {
  closed_beta_enabled: true,
  bulk_import_duration_ms: 2_000,
  bulk_import_wait_ms: 20_000,
  link_token_lifetime_s: 1_800,
};

/** The bounds of what the mock remembers; a create past one is refused with 429 `mock_state_full`, naming the cap. */
export interface StateCaps {
  /** Teams and orgs together (each new credential the mock sees makes one). */
  teams: number;
  /** Records (users, insurance records, link tokens, bulk operations, webhook endpoints, API keys, ETL pipelines, teams and management keys of an org) per team or org. */
  recordsPerTeam: number;
  /** Records across every team and org. */
  records: number;
}

export const DEFAULT_CAPS: StateCaps = { teams: 1_000, recordsPerTeam: 20_000, records: 200_000 };

/**
 * The largest request body the stateful mock keeps a record of (a user, an insurance record, a webhook endpoint...):
 * with the caps, it bounds the memory the state can take (200,000 records of at most 4 KiB). A bulk import keeps only
 * its users' ids, each counted as a record of its own.
 */
export const MAX_RECORD_BODY = 4_096;

export interface UserRecord {
  user_id: string;
  client_user_id: string;
  created_on: string;
  /** Team-clock ms when deletion was requested; undefined when none is pending. */
  deletionRequestedAt?: number;
}

export interface LinkTokenRecord {
  token: string;
  team: TeamState;
  userId: string;
  provider: string | null;
  redirectUrl: string | null;
  /** Team-clock ms. */
  expiresAt: number;
  consumed: boolean;
}

export interface InsuranceRecord {
  created: Record<string, unknown>;
  latest: Record<string, unknown>;
  isPrimary: boolean;
}

export interface BulkOpRecord {
  id: string;
  provider: string;
  /** Team-clock ms. */
  createdAt: number;
  durationMs: number;
  /** Each submitted connection's user and whether it can be migrated (its user is one of the team's). */
  connections: { userId: string; ok: boolean }[];
  /** The most connections seen processed: a clock moved back does not undo what an operation did. */
  done: number;
}

/** A webhook endpoint as created (its secret included), in the contract's own type. */
export type WebhookRecord = components["schemas"]["WebhookEndpointCreated"];

/** A team API key as issued (the key included), in the contract's own type. */
export type ApiKeyRecord = components["schemas"]["TeamApiKeyCreated"];

/** A management key as issued (the key included), in the contract's own type. */
export type ManagementKeyRecord = components["schemas"]["ManagementKeyCreated"];

/** An ETL pipeline as the API shows it: the destination's shared access key is write-only, so it is not kept. */
export type EtlPipelineRecord = components["schemas"]["EtlPipeline"];

export type TeamBrand = components["schemas"]["TeamBrand"];

export interface DeliveryRecord {
  event_type: string;
  webhook_id: string;
  url: string;
  /** The receiver's status, or null when it did not answer. */
  status: number | null;
  attempts: number;
  at: string;
}

/** A bounded count shared by a team and the whole state, so a create checks both caps at once. */
export interface Ledger {
  records: number;
}

export interface TeamState {
  id: string;
  /** The org that created the team through the management API; undefined for a team met through an unknown API key. */
  orgId?: string;
  name: string;
  created_at: string;
  settings: TeamSettings;
  /** Added to the wall clock to give the team's clock (ms). */
  clockOffsetMs: number;
  users: Map<string, UserRecord>;
  usersByClientId: Map<string, UserRecord>;
  /** Each user's insurance records, oldest first: as created, and in the latest-insurance form (made once, never changed). */
  insurance: Map<string, InsuranceRecord[]>;
  /** provider slug → user ids connected through a successful MFA completion. */
  connections: Map<string, Set<string>>;
  bulkOps: BulkOpRecord[];
  webhooks: Map<string, WebhookRecord>;
  apiKeys: Map<string, ApiKeyRecord>;
  /** The brand setTeamBrand set; null until then, when the team's name stands in for it. */
  brand: TeamBrand | null;
  etlPipelines: Map<string, EtlPipelineRecord>;
  /** Providers whose OAuth application credential the team configured (setTeamCustomCredential); bulk import needs one. */
  customCredentials: Set<string>;
  /** The last deliveries of events to the team's endpoints, newest last (at most DELIVERY_LOG). */
  deliveries: DeliveryRecord[];
  ledger: Ledger;
}

export interface OrgState {
  id: string;
  name: string;
  created_at: string;
  teams: Map<string, TeamState>;
  /** The keys createManagementKey issued, by id; the key the org was met through is not one of them. */
  managementKeys: Map<string, ManagementKeyRecord>;
  ledger: Ledger;
}

export const DELIVERY_LOG = 50;

/** A refusal because a cap is reached: the caller's create is not done, and nothing already stored is dropped. */
export class StateFull extends Error {}

export function newLedger(): Ledger {
  return { records: 0 };
}

export function newTeam(name: string, settings: TeamSettings, orgId?: string): TeamState {
  return {
    id: randomId(),
    ...(orgId === undefined ? {} : { orgId }),
    name,
    created_at: new Date().toISOString(),
    settings: { ...settings },
    clockOffsetMs: 0,
    users: new Map(),
    usersByClientId: new Map(),
    insurance: new Map(),
    connections: new Map(),
    bulkOps: [],
    webhooks: new Map(),
    apiKeys: new Map(),
    brand: null,
    etlPipelines: new Map(),
    customCredentials: new Set(),
    deliveries: [],
    ledger: newLedger(),
  };
}

export function newOrg(name: string, id = randomId()): OrgState {
  return { id, name, created_at: isoAt(Date.now()), teams: new Map(), managementKeys: new Map(), ledger: newLedger() };
}

/** The team's clock, in ms since the epoch. */
export function teamNow(team: TeamState): number {
  return Date.now() + team.clockOffsetMs;
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Each setting's bounds: whole numbers within them, or a boolean. */
export const SETTING_BOUNDS: Record<keyof TeamSettings, [number, number] | "boolean"> = {
  closed_beta_enabled: "boolean",
  bulk_import_duration_ms: [0, 3_600_000],
  // The service waits 20 s (section 8): the mock may wait less, never more.
  bulk_import_wait_ms: [0, 20_000],
  link_token_lifetime_s: [1, 30 * 24 * 3600],
};
/** The furthest a team's clock may be from the wall clock, in one move or many, so its dates stay ones the contract's date-times take. */
export const MAX_CLOCK_MOVE_S = 100 * 365 * 24 * 3600;
