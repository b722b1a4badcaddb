// The stateful mock's dispatcher: finds the team, token or org a request's credential reaches and hands the call to
// the operation's handler; an operation without one answers from the examples, once the user or team of its path is
// known to be there. A cap reached is the declared 429 naming it, never a record dropped.
import { Credentials, type CredentialKind } from "../../contract/credentials.ts";
import type { JsonObject } from "../../contract/json.ts";
import type { ContractOperation } from "../../contract/operations.ts";
import { Examples, stateRefusal, type Answer, type Shared, type StateAnswer, type StateCall, type StatefulState, type TeamHandler } from "./vocabulary.ts";
import { keyDeleted, recordTooLarge, stateFull } from "../refusals.ts";
import { bulkImportHandlers } from "./bulk-import.ts";
import { controlAnswer } from "./control.ts";
import { createDeliverer, type Deliver } from "./deliveries.ts";
import { insuranceHandlers } from "./insurance.ts";
import { linkHandlers, tokenHandlers } from "./link.ts";
import { orgHandlers, orgTeam, teamManagementHandlers, unknownTeam } from "./management.ts";
import { keyScopeRefusal, managementKeyHandlers } from "./management-keys.ts";
import { etlPipelineHandlers } from "./etl-pipelines.ts";
import { brandHandlers, orgSettingsHandlers } from "./org-settings.ts";
import { loadSeed } from "./seed.ts";
import { unknownKeyRefusal } from "./known-keys.ts";
import type { Refusal } from "../http-shapes.ts";
import { MAX_RECORD_BODY, StateFull, type StateCaps, type TeamSettings } from "./model.ts";
import { StateStore } from "./store.ts";
import { liveUser, unknownUser, userHandlers } from "./users.ts";
import type { StateMethod } from "../paths.ts";

const TEAM_HANDLERS: Record<string, TeamHandler> = { ...userHandlers, ...linkHandlers, ...insuranceHandlers, ...bulkImportHandlers };
const ORG_HANDLERS = { ...orgHandlers, ...orgSettingsHandlers, ...managementKeyHandlers };
const ORG_TEAM_HANDLERS = { ...teamManagementHandlers, ...etlPipelineHandlers, ...brandHandlers };

/** The operations whose handlers keep what the request holds (a user, an insurance record, an endpoint...): their bodies are bounded. */
const KEEPS_ITS_BODY = new Set([
  "createUser",
  "createInsurance",
  "createLinkToken",
  "createTeam",
  "updateTeam",
  "createTeamApiKey",
  "createWebhookEndpoint",
  "updateWebhookEndpoint",
  "updateOrg",
  "createManagementKey",
  "setTeamBrand",
  "createEtlPipeline",
  "updateEtlPipeline",
]);

export interface StatefulMockOptions {
  document: JsonObject;
  operations: ContractOperation[];
  caps?: Partial<StateCaps>;
  defaults?: Partial<TeamSettings>;
  /** Seed data to start from (seed.ts); a bad one throws SeedError before the mock exists. */
  data?: unknown;
  /** Only the keys the mock knows authenticate (known-keys.ts); without it, any key is a team or an org of its own. */
  strictKeys?: boolean;
  log: (line: string) => void;
}

export class StatefulMock implements StatefulState {
  readonly store: StateStore;
  /** The contract as the stateful mock validates against it (loopback webhook urls allowed): seed data is checked with it. */
  readonly document: JsonObject;
  readonly #examples: Examples;
  readonly #deliver: Deliver;
  readonly #credentials: Credentials;
  /** Org-level operations, read from the contract: those whose declared 403 is `org_key_required` (section 5, rule 1). */
  readonly #orgLevel: Set<string>;
  readonly strictKeys: boolean;

  constructor(options: StatefulMockOptions) {
    this.store = new StateStore(options.caps, options.defaults);
    this.document = options.document;
    this.#examples = new Examples(options.document, options.operations);
    this.#deliver = createDeliverer(options.log);
    this.#credentials = new Credentials(options.document);
    this.#orgLevel = new Set(options.operations.filter((op) => forbiddenCode(this.#examples, op) === "org_key_required").map((op) => op.operationId));
    this.strictKeys = options.strictKeys === true;
    if (options.data !== undefined) loadSeed(this, options.data);
  }

  /** The first credential the request sends of the schemes an operation accepts, with its kind. */
  credential(operation: ContractOperation, headers: StateCall["headers"]): { kind: CredentialKind; value: string; header: string } | undefined {
    for (const alternative of operation.securityAlternatives) {
      for (const scheme of alternative) {
        const credential = this.#credentials.scheme(scheme);
        const value = credential === undefined ? undefined : headers[credential.headerKey];
        if (typeof value === "string" && value !== "" && credential !== undefined) return { kind: credential.kind, value, header: credential.header };
      }
    }
    return undefined;
  }

  /**
   * With strict keys, the 401 for a credential the mock does not know. Asked in the credential step, before a Prefer
   * header or the request's body is read, where the mock's other 401s are decided.
   */
  strictRefusal(operation: ContractOperation, headers: StateCall["headers"]): Refusal | undefined {
    if (!this.strictKeys) return undefined;
    const credential = this.credential(operation, headers);
    if (credential === undefined) return undefined;
    return unknownKeyRefusal(this.store, credential.kind, credential.value, credential.header);
  }

  /** The header of a scheme, lower-case (`x-svc-api-key` for TeamApiKey). */
  header(scheme: string): string {
    return this.#credentials.scheme(scheme)?.headerKey ?? "";
  }

  /**
   * The stateful answer to a valid request, or undefined when the examples answer it. Synchronous unless the handler
   * waits (a bulk import waiting for completion): most answers then cost no promise, as a declared example costs none.
   */
  answer(operation: ContractOperation, call: StateCall): Answer {
    try {
      const answer = this.#answer(operation, call);
      return answer instanceof Promise ? answer.catch(fullRefusal) : answer;
    } catch (error) {
      return fullRefusal(error);
    }
  }

  /** The answer of `/_mock/state` (control.ts); a cap reached on the way is the same 429 as an operation's. */
  control(method: StateMethod, headers: StateCall["headers"], text: string): StateAnswer {
    try {
      return controlAnswer(this, method, headers, text);
    } catch (error) {
      return fullRefusal(error);
    }
  }

  #answer(operation: ContractOperation, call: StateCall): Answer {
    const credential = this.credential(operation, call.headers);
    if (credential === undefined) return undefined;
    const shared: Shared = { call, store: this.store, examples: this.#examples, deliver: this.#deliver };
    const id = operation.operationId;
    if (call.bodyLength > MAX_RECORD_BODY && KEEPS_ITS_BODY.has(id)) {
      return stateRefusal(recordTooLarge(call.bodyLength));
    }
    if (credential.kind === "token") {
      const handler = tokenHandlers[id];
      return handler?.({ ...shared, token: credential.value, record: this.store.linkTokens.get(credential.value) });
    }
    if (credential.kind === "team") {
      if (this.store.isRevoked(credential.value)) return stateRefusal(keyDeleted("; create another with createTeamApiKey"));
      const team = this.store.teamForApiKey(credential.value);
      const handler = TEAM_HANDLERS[id];
      if (handler !== undefined) return handler({ ...shared, team });
      const userId = call.path.user_id;
      return userId !== undefined && liveUser(team, userId) === undefined ? unknownUser(userId) : undefined;
    }
    const key = credential.value;
    const teamId = call.path.team_id;
    const refused = keyScopeRefusal(this.store, key, this.#orgLevel.has(id), teamId);
    if (refused !== undefined) return refused;
    const org = this.store.orgForManagementKey(key);
    const handler = ORG_HANDLERS[id];
    if (handler !== undefined) return handler({ ...shared, org, key });
    if (teamId === undefined) return undefined;
    const team = orgTeam(org, teamId);
    if (team === undefined) return unknownTeam(teamId);
    return ORG_TEAM_HANDLERS[id]?.(team, { ...shared, org, key });
  }
}

/** The error code of an operation's declared 403 example, when it has one. */
function forbiddenCode(examples: Examples, op: ContractOperation): unknown {
  if (op.responses["403"] === undefined) return undefined;
  try {
    return examples.response(op.operationId, 403)?.code;
  } catch {
    return undefined;
  }
}

/** A cap reached, as the declared 429 naming it; any other error is the mock's own fault and goes on up. */
function fullRefusal(error: unknown): StateAnswer {
  if (!(error instanceof StateFull)) throw error;
  return stateRefusal(stateFull(error.message));
}
