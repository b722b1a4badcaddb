// The shapes a user of the mock's entries (`@svc/health-api-contract/mock` and `/mock/msw`) meets: its options, what
// createMock returns, a condition set, a journal entry, the seed data and the team settings. Types only, importing
// nothing but the contract's generated types (the build points that import at the package's generated/schema), so
// their declarations ship as they are written here.
import type { components, operations } from "../../generated/schema.js";

type Schemas = components["schemas"];

/** The contract's operation ids (`createUser`, `listLabs`): the journal's filter takes these, so a typo does not compile. */
export type OperationId = keyof operations & string;

/** Real-world conditions, per team and seeded: the JSON of `PATCH /_mock/state`'s `conditions`, `--conditions` and createMock. */
export interface Conditions {
  /** Milliseconds added before each answer: a number, or `[min, max]` drawn per request. */
  latency_ms?: number | [number, number];
  /** The share of answers (0 to 1) replaced by a failure the contract declares for every operation. */
  failure_rate?: number;
  /** The failures drawn from, each equally likely: 429 (with Retry-After) and 500; default [429]. */
  failure_statuses?: (429 | 500)[];
  /** The Retry-After a 429 carries, in seconds (default 1). */
  retry_after_s?: number;
  /** The share of requests (0 to 1) whose connection is dropped with no answer. */
  drop_rate?: number;
  /** The seed of the team's draws (default 1): the n-th request of a team meets the same fate on every run. */
  seed?: number;
}

/** A request as the journal shows it: credentials masked, values the contract marks as health data or secrets removed. */
export interface JournalEntry {
  seq: number;
  /** When it arrived (RFC 3339). */
  time: string;
  /** The operation it reached; null for a path the contract does not have. */
  operation_id: OperationId | null;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** The JSON body (marked values removed), or null when there was none. */
  body: unknown;
  /** The status answered; 0 for a connection dropped on purpose. */
  status: number;
  /** Why the mock refused the request, when it did: the error body's code and message, and its details. */
  refusal: { code: string; message: string; details?: { location?: string; field: string; message: string }[] } | null;
  /** A condition that shaped the answer: `latency 120 ms`, `failure 429`, `dropped`. */
  condition: string | null;
  /** What a validating proxy found wrong with the request or the upstream's answer. */
  contract_violations?: string[];
}

/** Which journal entries to read; every field narrows. */
export interface JournalQuery {
  /** The credential the requests carried (a team's API key): that team's requests only. */
  credential?: string;
  operationId?: OperationId;
  /** A status (`201`, `429`) or a class (`"4xx"`). */
  status?: number | string;
  since?: Date | number;
  until?: Date | number;
  /** The most recent so many. */
  limit?: number;
}

/** The mock's settings, as every way of starting it takes them (the command's flags read into these). */
export interface MockSettings {
  /** Remember what each team does (users, link tokens, insurance, webhook endpoints...), as `--stateful` does. */
  stateful?: boolean;
  /**
   * A seed dataset to start from (the form `GET /_mock/data` exports); implies `stateful`. A JSON file of it imported as
   * it is (`import seed from "./seed.json" with { type: "json" }`) is taken too: the mock checks every value as it starts.
   */
  data?: MockSeedData | MockSeedJson;
  /**
   * Only keys the mock knows authenticate, as `--strict-keys` does; implies `stateful`. Known: the seed data's keys,
   * those createTeamApiKey and createManagementKey issue, the placeholders (`YOUR_TEAM_API_KEY`,
   * `YOUR_MANAGEMENT_KEY`) and verify's own (`*_test_verify_*`); any other is the declared `401`. A link token
   * createLinkToken did not issue is answered `invalid_token`, as the service answers it (and as `stateful` does).
   */
  strictKeys?: boolean;
  /** The conditions every team meets until it sets its own through `/_mock/state`. */
  conditions?: Conditions;
  /** Recent requests the journal keeps per team (default 100, at most 10,000); 0 turns the journal off. */
  journalSize?: number;
}

/** createMock's options: the mock's settings, and where it answers and logs. */
export interface MockOptions extends MockSettings {
  /** The base address the mock answers at (default `http://svc-mock.invalid`, a name that never reaches a network). */
  baseUrl?: string;
  /** Where the mock writes what went wrong on its side (default: nowhere). */
  log?: (line: string) => void;
}

export interface Mock {
  /** Answers a request in this process, as the global fetch would over the network: give it to the client's `fetch`. */
  fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** The base address to give the client (`createClient({ baseUrl: mock.url, fetch: mock.fetch })`). */
  url: string;
  /** The requests received, oldest first. */
  journal: (query?: JournalQuery) => JournalEntry[];
  /** Forgets the journal (one credential's requests, or all). */
  clearJournal: (credential?: string) => void;
  /** One team's mock-only state, as `/_mock/state` reads and changes it: the team its API key reaches. */
  team: (apiKey: string) => MockTeamControl;
  /** The stateful mock's whole state as seed data (`GET /_mock/data`): `createMock({ data })` starts another mock from it. */
  exportData: () => Promise<MockSeedData>;
  /** Forgets every team and org, their conditions too (`DELETE /_mock/state` with no credential). */
  reset: () => Promise<void>;
  /** Stops answering: every later call rejects. */
  close: () => Promise<void>;
}

/** The mock-only settings a team may change through `PATCH /_mock/state` (each team starts from the defaults). */
export interface MockTeamSettings {
  /** Whether the team is enabled for the closed-beta operations and values (section 4.2, 4.3, 4.1's MEDFED/MAIDFED). */
  closed_beta_enabled: boolean;
  /** How long, on the team's clock, a bulk import operation takes from queued to completed (section 4.4). */
  bulk_import_duration_ms: number;
  /** How long `wait_for_completion: true` waits for the operation before answering 202 (the service's 20 s, section 8). */
  bulk_import_wait_ms: number;
  /** How long a link token lives on the team's clock (not shown by the document, section 5 rule 5). */
  link_token_lifetime_s: number;
}

/** A user as getUser-like answers show it, with what the team holds for it. */
export type MockSeedUser = Schemas["User"] & {
  /** When deletion was requested, on the team's clock; the user is gone 7 days later. */
  deletion_requested_at?: string;
  /** Its insurance records as createInsurance answered them, oldest first. */
  insurance?: Schemas["Insurance"][];
  /** The providers it connected (completeProviderMfa). */
  connections?: { provider: string }[];
};

/** What any team holds, met through its own API key or made by an org. */
export interface MockSeedTeamContent {
  settings?: Partial<MockTeamSettings>;
  /** How far the team's clock is from the wall clock, in ms (PATCH /_mock/state moves it). */
  clock_offset_ms?: number;
  users?: MockSeedUser[];
  /** Its webhook endpoints as createWebhookEndpoint answered them, secret included. */
  webhook_endpoints?: Schemas["WebhookEndpointCreated"][];
}

/** A team met through an API key of its own: the key is the team, as in the state. */
export interface MockSeedTeam extends MockSeedTeamContent {
  api_key: string;
  /** The team's id (events carry it); else its webhook endpoints' team_id, else a new one. */
  id?: string;
  name?: string;
  created_at?: string;
}

/** A team an org made (createTeam), reached by the API keys issued for it. */
export type MockSeedOrgTeam = Schemas["Team"] &
  MockSeedTeamContent & {
    api_keys?: Schemas["TeamApiKeyCreated"][];
    /** The providers whose OAuth credential the team set (setTeamCustomCredential), which bulk import needs. */
    custom_credentials?: string[];
    /** The brand setTeamBrand set; null or left out: none set, and getTeamBrand shows the team's name. */
    brand?: Schemas["TeamBrand"] | null;
    /** Its ETL pipelines as getEtlPipeline answers them (the shared access key is write-only, never kept). */
    etl_pipelines?: Schemas["EtlPipeline"][];
  };

/** An org, reached by its management key, and the teams it made. */
export interface MockSeedOrg {
  management_key: string;
  /** The org's id; else its teams' org_id, else a new one. */
  id?: string;
  /** The org's name, as getOrg shows it and updateOrg changes it. */
  name?: string;
  created_at?: string;
  teams?: MockSeedOrgTeam[];
  /** The keys createManagementKey issued, as it answered them (key included): each reaches the org, scoped by its kind and team_ids. */
  management_keys?: Schemas["ManagementKeyCreated"][];
}

/** The stateful mock's seed data: what `GET /_mock/data` exports, and what `--data` and createMock's `data` start from. */
export interface MockSeedData {
  version: 1;
  teams?: MockSeedTeam[];
  orgs?: MockSeedOrg[];
}

/** A type as TypeScript reads it from a JSON file: each literal widened to its kind (`1` to `number`, `"oura"` to `string`). */
type AsJson<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends readonly (infer Item)[]
        ? AsJson<Item>[]
        : T extends object
          ? { [K in keyof T]: AsJson<T[K]> }
          : T;

/**
 * Seed data as TypeScript types a JSON file of it (`version: number`, each enumeration's value a `string`): what
 * createMock's `data` takes from an imported `seed.json` without a cast. The mock checks the values when it starts.
 */
export type MockSeedJson = AsJson<MockSeedData>;

/** A change to a team's mock-only state (`PATCH /_mock/state`): each part optional, each checked before anything changes. */
export interface MockStateChange {
  /** Settings of the stateful mock for this team. */
  settings?: Partial<MockTeamSettings>;
  /** The team's conditions (an empty object: none), in place of those it had; the stateless mock keeps these too. */
  conditions?: Conditions;
  /** Moves the team's clock: by seconds (negative goes back), or to a date-time (RFC 3339); the stateful mock's. */
  clock?: { advance_seconds?: number; now?: string };
}

/** What `/_mock/state` says of a team. */
export interface MockStateView {
  /** False on the stateless mock, which keeps only each team's conditions. */
  stateful: boolean;
  /** The stateful mock's bounds, past which a create is refused with 429 `mock_state_full`. */
  caps?: { teams: number; records_per_team: number; records: number };
  totals?: { teams: number; records: number };
  /** The settings a new team starts with. */
  defaults?: MockTeamSettings;
  /** The team, once it has done something the stateful mock remembers. */
  team?: {
    id: string;
    org_id: string | null;
    name: string;
    /** The team's clock (RFC 3339), which `clock` moves. */
    clock: string;
    clock_offset_ms: number;
    settings: MockTeamSettings;
    records: number;
    counts: { users: number; insurance_records: number; bulk_ops: number; webhook_endpoints: number; api_keys: number; connections: number };
    deliveries: unknown[];
  };
  /** The org the management key reaches (`/_mock/state` with a management key), once the stateful mock has met it. */
  org?: {
    id: string;
    name: string;
    /** Its teams' ids. */
    teams: string[];
    records: number;
    counts: { teams: number; management_keys: number; etl_pipelines: number };
  };
  /** The team's conditions (none: `{}`). */
  conditions?: Conditions;
}

/** One team's handle on the mock's own state, each method a request to `/_mock/state` with the team's API key. */
export interface MockTeamControl {
  /** What the mock holds for the team. */
  state: () => Promise<MockStateView>;
  /** Changes the team's settings or conditions, or moves its clock; a refused change throws, naming each field. */
  set: (change: MockStateChange) => Promise<MockStateView>;
  /** Forgets the team: its records, settings, clock and conditions. */
  reset: () => Promise<void>;
}
