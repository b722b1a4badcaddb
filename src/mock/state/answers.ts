// The vocabulary of the stateful handlers: what a call holds, what a handler answers, the contract's examples as the
// source of every field the caller did not give, and the error answers in the contract's error body.
import type { HeaderBag } from "../steps/exchange.ts";
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";

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

export function refuse(status: number, code: string, message: string, extra: Record<string, unknown> = {}): StateAnswer {
  return { status, body: { code, message, ...extra } };
}

export const notFound = (message: string): StateAnswer => refuse(404, "not_found", message);

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
