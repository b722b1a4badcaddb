// What verify creates on the server, and how the ids it gets back reach the other calls: a create's answer gives the
// id of its item path's parameter (createUser → user_id, createTeam → team_id, createWebhookEndpoint → webhook_id),
// which then replaces the examples' id wherever a later call names that parameter, so ids in paths are real on a
// stateful server; and which of them the pass deleted again, so the cleanup knows what is left.
import type { ContractOperation } from "../contract/operations.ts";
import { isObject } from "../contract/json.ts";
import type { Call } from "./calls.ts";
import type { ReplayStep } from "./check.ts";

/** A create and the delete that undoes it, found from the paths alone: POST on a collection, DELETE on `<it>/{param}`. */
export interface Lifecycle {
  create: ContractOperation;
  remove: ContractOperation;
  /** The item path's last parameter: the id the create's answer gives. */
  param: string;
}

export function lifecycles(operations: ContractOperation[]): Lifecycle[] {
  const found: Lifecycle[] = [];
  for (const create of operations) {
    if (create.method !== "POST") continue;
    for (const remove of operations) {
      const param = remove.method === "DELETE" ? new RegExp(`^${escapeRegExp(create.template)}/\\{([^}/]+)\\}$`).exec(remove.template)?.[1] : undefined;
      if (param !== undefined) found.push({ create, remove, param });
    }
  }
  return found;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Something verify created, with the path of the delete that removes it. */
export interface Created {
  lifecycle: Lifecycle;
  path: Record<string, string>;
  id: string;
  /** The operation of the pass that deleted it, while it stays deleted. */
  deletedBy?: string;
  /** The create's call and answer: what the links of its answer are resolved from (passes/state-readback.ts). */
  made: { call: Call; status: number; body: unknown };
  /** The plan position of the work that made it: `created` is kept in this order, whatever order the answers came in. */
  at: number;
}

/**
 * Fields of a create's body that verify fills with its run's mark: a client_user_id must be new on every run (the
 * service refuses a second user with one), and a name or label says who made a leftover on a shared environment.
 */
const MARKED_FIELDS = ["client_user_id", "name", "label"];

/** Ids learnt from the answers, in the run's order, and what they made. */
/**
 * Puts an entry after every one from work at or before its plan position: concurrent work learns in the order its
 * answers come, and what it learnt is read in plan order (the cleanup's, a replay's steps).
 */
function inPlanOrder<T extends { at: number }>(list: T[], entry: T): void {
  const later = list.findIndex((each) => each.at > entry.at);
  list.splice(later === -1 ? list.length : later, 0, entry);
}

export class Fixtures {
  /** `verify-<random>`: unique to the run. */
  readonly mark: string;
  readonly #lifecycles: Lifecycle[];
  /** A path parameter's name → the id of what verify made for it. */
  readonly ids = new Map<string, string>();
  readonly created: Created[] = [];
  /** The link token an answer carried (createLinkToken's): the credential completing provider MFA takes. */
  linkToken: string | undefined;
  /**
   * The writes of the valid calls that keep things, but the creates, that succeeded (an insurance added, a bulk
   * import made), in plan order whatever order their answers came in: the state a later check reads, which its
   * --replay makes again first.
   */
  readonly #kept: { step: ReplayStep; at: number }[] = [];

  constructor(mark: string, found: Lifecycle[]) {
    this.mark = mark;
    this.#lifecycles = found;
  }

  /** Keeps a write that succeeded, at the plan position of the work that sent it. */
  keep(step: ReplayStep, at = Number.POSITIVE_INFINITY): void {
    inPlanOrder(this.#kept, { step, at });
  }

  /** The writes kept from work before this plan position (every one without a position), in plan order. */
  keptBefore(at = Number.POSITIVE_INFINITY): ReplayStep[] {
    return this.#kept.filter((kept) => kept.at < at).map((kept) => kept.step);
  }

  /** The create that provides a parameter, if verify can make one. */
  creatorOf(param: string): Lifecycle | undefined {
    return this.#lifecycles.find((lifecycle) => lifecycle.param === param);
  }

  isCreate(op: ContractOperation): Lifecycle | undefined {
    return this.#lifecycles.find((lifecycle) => lifecycle.create === op);
  }

  isRemove(op: ContractOperation): Lifecycle | undefined {
    return this.#lifecycles.find((lifecycle) => lifecycle.remove === op);
  }

  /** A copy of a valid call with the learnt ids in place of the examples' and, for a create, the run's mark. */
  apply(op: ContractOperation, call: Call): Call {
    const path = Object.fromEntries(Object.entries(call.path).map(([name, value]) => [name, this.ids.get(name) ?? value]));
    const applied: Call = { path, query: { ...call.query } };
    if (call.body !== undefined) {
      const body = this.#substitute(structuredClone(call.body));
      if (this.isCreate(op) !== undefined && isObject(body)) {
        for (const field of MARKED_FIELDS) if (typeof body[field] === "string") body[field] = this.mark;
      }
      applied.body = body;
    }
    return applied;
  }

  /** Body fields named after a learnt parameter take its id (`user_id`), and lists named in the plural take it alone (`team_ids`). */
  #substitute(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.#substitute(item));
    if (!isObject(node)) return node;
    for (const [key, value] of Object.entries(node)) {
      const single = this.ids.get(key);
      const plural = key.endsWith("s") ? this.ids.get(key.slice(0, -1)) : undefined;
      if (single !== undefined && typeof value === "string") node[key] = single;
      else if (plural !== undefined && Array.isArray(value) && value.every((item) => typeof item === "string")) node[key] = [plural];
      else node[key] = this.#substitute(value);
    }
    return node;
  }

  /** What verify made that the call's path names (the item an update changes), if anything. */
  madeItem(call: Call): Created | undefined {
    return this.created.find((record) => sameItem(record, call));
  }

  /**
   * Learns from a successful answer to a call: the id a create made, a deletion (returned, for the state checks), or
   * that a deleted item is back. With `extra`, a create of another pass: kept for the cleanup, its id not used by later calls.
   * `at`: the plan position of the work that sent the call (concurrent work learns in the order its answers came).
   */
  learn(
    op: ContractOperation,
    call: Call,
    status: number,
    body: unknown,
    { extra = false, at = Number.POSITIVE_INFINITY }: { extra?: boolean; at?: number | undefined } = {},
  ): Created | undefined {
    if (status < 200 || status >= 300 || !isObject(body)) return undefined;
    if (!extra && typeof body.link_token === "string") this.linkToken = body.link_token;
    const lifecycle = this.isCreate(op);
    if (lifecycle !== undefined) {
      // The id is the field named after the parameter (createUser's user_id), else the resource's own `id`.
      const id = body[lifecycle.param] ?? body.id;
      if (typeof id === "string") {
        if (!extra) this.ids.set(lifecycle.param, id);
        // After everything made at or before its position: the cleanup's order (newest first) is the plan's.
        inPlanOrder(this.created, { lifecycle, path: { ...call.path, [lifecycle.param]: id }, id, made: { call, status, body }, at });
      }
      return undefined;
    }
    let deleted: Created | undefined;
    for (const record of this.created) {
      if (!sameItem(record, call)) continue;
      if (record.lifecycle.remove === op) {
        record.deletedBy = op.operationId;
        deleted = record;
      }
      // A success on an operation under the item (undoUserDeletion) says the item is there again.
      else if (op.template.startsWith(`${record.lifecycle.remove.template}/`)) delete record.deletedBy;
    }
    return deleted;
  }
}

function sameItem(record: Created, call: Call): boolean {
  return Object.entries(record.path).every(([name, value]) => call.path[name] === value);
}
