// The vocabulary of the stateful handlers: what a call holds, what a handler answers, the contract's examples as the
// source of every field the caller did not give, and the error answers in the contract's error body.
import type { HeaderBag, Refusal } from "../http-shapes.ts";
import * as refusals from "../refusals.ts";
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import type { Deliver } from "./deliveries.ts";
import type { LinkTokenRecord, OrgState, TeamState } from "./model.ts";
import type { StateStore } from "./store.ts";

export interface StateCall {
  operation: ContractOperation;
  path: Record<string, string>;
  query: URLSearchParams;
  headers: HeaderBag;
  /** The parsed JSON body, already valid against the contract. */
  body: any;
  /** The body's size in bytes as sent, which bounds what a record made from it may hold. */
  bodyLength: number;
}

export interface StateAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * The body is a stored object that never changes (an insurance record): its checked, serialized form is kept and
   * sent again, so reading it back costs no more than a declared example.
   */
  stable?: boolean;
}

/** A refusal (refusals.ts) as a handler answers it: the error body with its details and fields, and its headers. */
export function stateRefusal(refusal: Refusal): StateAnswer {
  const { status, code, message, details, fields, headers } = refusal;
  return {
    status,
    body: { code, message, ...(details === undefined ? {} : { details }), ...fields },
    ...(headers === undefined ? {} : { headers }),
  };
}

export const notFound = (message: string): StateAnswer => stateRefusal(refusals.notFound(message));

/** The contract's named response examples, read once per operation and status, handed out as copies. */
export class Examples {
  readonly #document: JsonObject;
  readonly #byOperation = new Map<string, ContractOperation>();
  readonly #cache = new Map<string, unknown>();

  constructor(document: JsonObject, operations: ContractOperation[]) {
    this.#document = document;
    for (const op of operations) this.#byOperation.set(op.operationId, op);
  }

  /** A copy of the example `name` (or the first) of an operation's response with `status`; throws when there is none. */
  response(operationId: string, status: number, name?: string): any {
    const key = `${operationId} ${status} ${name ?? ""}`;
    if (!this.#cache.has(key)) {
      const op = this.#byOperation.get(operationId);
      const response = op?.responses[String(status)];
      const media = isObject(response?.content) ? (response.content as JsonObject)["application/json"] : undefined;
      const examples = isObject(media) && isObject(media.examples) ? media.examples : {};
      const chosen = name === undefined ? Object.values(examples)[0] : examples[name];
      if (chosen === undefined) throw new Error(`the contract has no example ${name ?? ""} for ${operationId} ${status}`);
      this.#cache.set(key, deref(this.#document, chosen).value);
    }
    return structuredClone(this.#cache.get(key));
  }

  /** A copy of the first example of an event kind's payload. */
  event(kind: string): any {
    const key = `event ${kind}`;
    if (!this.#cache.has(key)) {
      const item = deref(this.#document, ((this.#document.webhooks ?? {}) as JsonObject)[kind]);
      const operation = deref(this.#document, item.post);
      const media = (deref(this.#document, operation.requestBody).content as JsonObject)["application/json"] as JsonObject;
      const example = Object.values((media.examples ?? {}) as JsonObject)[0];
      if (example === undefined) throw new Error(`the contract has no example of the ${kind} event`);
      this.#cache.set(key, deref(this.#document, example).value);
    }
    return structuredClone(this.#cache.get(key));
  }
}

/** What every handler receives: the call, the store, the examples and the deliverer. */
export interface Shared {
  call: StateCall;
  store: StateStore;
  examples: Examples;
  deliver: Deliver;
}
export interface TeamContext extends Shared {
  team: TeamState;
}
export interface TokenContext extends Shared {
  token: string;
  record: LinkTokenRecord | undefined;
}
export interface OrgContext extends Shared {
  org: OrgState;
  /** The management key the request sends: a team management key reaches only its teams. */
  key: string;
}
export type Answer = StateAnswer | undefined | Promise<StateAnswer | undefined>;
export type TeamHandler = (context: TeamContext) => Answer;
export type TokenHandler = (context: TokenContext) => Answer;
export type OrgHandler = (context: OrgContext) => Answer;

/** What the control endpoint and the seed read of the stateful mock (handlers.ts's StatefulMock), so they need not import it. */
export interface StatefulState {
  readonly store: StateStore;
  /** The contract as the stateful mock validates against it (loopback webhook urls allowed). */
  readonly document: JsonObject;
  /** The header of a scheme, lower-case (`x-svc-api-key` for TeamApiKey). */
  header(scheme: string): string;
  /** Only the keys the mock knows authenticate (`--strict-keys`). */
  readonly strictKeys: boolean;
}
