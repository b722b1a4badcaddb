// The mock's request journal: every request to the contract's paths, per team (keyed by the credential it sent, as
// the state is), in a bounded ring of recent requests. Writing one costs a few fields kept as they arrived; masking
// the credentials and redacting marked values happens when the journal is read, which is rare.
import { readJson, type JsonObject } from "../contract/json.ts";
import { Redactor } from "../contract/redact.ts";
import type { HeaderBag, Refusal } from "./http-shapes.ts";
import type { JournalEntry, OperationId } from "./public-types.ts";

/** A request's body is kept up to this many characters: a journal of a thousand uploads stays small. */
const KEPT_BODY_CHARS = 8 * 1024;
/**
 * Recent requests kept per team, unless the mock is told otherwise: a test asserts on tens of them, and every kept
 * request outlives the young generation of the heap, which costs throughput (at 500 the bench lost about 6 %).
 */
export const DEFAULT_JOURNAL_SIZE = 100;
/** Most requests the journal may keep per team: a bound on the mock's memory no option or flag can lift. */
export const MAX_JOURNAL_SIZE = 10_000;
/** Teams kept at most: past it the team heard from least recently is forgotten (so 100 × 100 × 8 KiB at most by default). */
const MAX_TEAMS = 100;

/** A request as the journal keeps it: what arrived, and what the mock made of it. */
export interface JournalRecord {
  seq: number;
  at: number;
  method: string;
  target: string;
  headers: HeaderBag;
  text: string | undefined;
  operationId: string | undefined;
  status: number;
  refusal: { code: string; message: string; details?: { location?: string; field: string; message: string }[] | undefined } | undefined;
  /** A condition that decided the answer: `dropped`, `failure 429`, `latency 120 ms`. */
  condition: string | undefined;
  /** What a validating proxy found wrong with the request or the upstream's answer. */
  violations: string[] | undefined;
}

export interface JournalFilter {
  /** One team's requests (the credential they carried); absent: every team's. */
  team?: string | undefined;
  operationId?: string | undefined;
  /** `201`, or a class such as `4xx`. */
  status?: string | undefined;
  /** Epoch milliseconds, inclusive. */
  since?: number | undefined;
  until?: number | undefined;
  /** The most recent so many. */
  limit?: number | undefined;
}

/** What the journal reads of a step's exchange: only these fields, so the journal does not import the steps that hold it. */
export interface RecordedExchange {
  method: string;
  request: { target: string };
  headers: HeaderBag;
  text: string | undefined;
  match: { operation: { operationId: string } } | undefined;
  condition: string | undefined;
}

/** An exchange as the journal keeps it, once answered: the status (0 for a dropped connection), why it was refused, and what a validating proxy found wrong. */
export function exchangeRecord(x: RecordedExchange, status: number, refusal: Refusal | undefined, violations?: string[]): JournalRecord {
  return {
    seq: 0,
    at: Date.now(),
    method: x.method,
    target: x.request.target,
    headers: x.headers,
    text: x.text,
    operationId: x.match?.operation.operationId,
    status,
    refusal: refusal === undefined ? undefined : { code: refusal.code, message: refusal.message, details: refusal.details },
    condition: x.condition,
    violations,
  };
}

class Ring {
  readonly items: JournalRecord[] = [];
  #next = 0;
  constructor(readonly size: number) {}
  push(record: JournalRecord): void {
    if (this.items.length < this.size) this.items.push(record);
    else {
      this.items[this.#next] = record;
      this.#next = (this.#next + 1) % this.size;
    }
  }
  /** Oldest first. */
  ordered(): JournalRecord[] {
    return this.items.length < this.size ? this.items : [...this.items.slice(this.#next), ...this.items.slice(0, this.#next)];
  }
}

export class Journal {
  readonly size: number;
  readonly #document: JsonObject;
  readonly #teams = new Map<string, Ring>();
  #seq = 0;
  /** Made on the first read: building it walks the whole contract, and many runs never read the journal. */
  #redactor: Redactor | undefined;

  constructor(document: JsonObject, size = DEFAULT_JOURNAL_SIZE) {
    this.#document = document;
    this.size = size;
  }

  /**
   * The requests that pass the filter, oldest first, as they may be shown: credentials masked, the values the
   * contract marks as health data or secrets removed. What the redactor learns of one read (the values it removed)
   * is forgotten before the next, so it does not pile up for the mock's life.
   */
  entries(filter: JournalFilter = {}): JournalEntry[] {
    const records = this.records(filter);
    if (records.length === 0) return [];
    const redactor = (this.#redactor ??= new Redactor(this.#document));
    redactor.forget();
    return records.map((record) => presented(redactor, record));
  }

  /** Keeps a request as it arrived; `record` becomes the journal's own (it is not copied: this runs on every request). */
  record(team: string, record: JournalRecord): void {
    let ring = this.#teams.get(team);
    if (ring === undefined) {
      if (this.#teams.size >= MAX_TEAMS) this.#teams.delete(this.#teams.keys().next().value!);
      this.#teams.set(team, (ring = new Ring(this.size)));
    }
    if (record.text !== undefined && record.text.length > KEPT_BODY_CHARS) record.text = record.text.slice(0, KEPT_BODY_CHARS);
    record.seq = ++this.#seq;
    ring.push(record);
  }

  /** The requests that pass the filter, oldest first. */
  records(filter: JournalFilter = {}): JournalRecord[] {
    const rings = filter.team === undefined ? [...this.#teams.values()] : [this.#teams.get(filter.team)].filter((ring) => ring !== undefined);
    const statusClass = filter.status !== undefined && /^[1-5]xx$/i.test(filter.status) ? filter.status[0] : undefined;
    const found = rings
      .flatMap((ring) => ring.ordered())
      .filter(
        (r) =>
          (filter.operationId === undefined || r.operationId === filter.operationId) &&
          (filter.status === undefined || (statusClass !== undefined ? String(r.status)[0] === statusClass : String(r.status) === filter.status)) &&
          (filter.since === undefined || r.at >= filter.since) &&
          (filter.until === undefined || r.at <= filter.until),
      );
    if (rings.length > 1) found.sort((a, b) => a.seq - b.seq);
    return filter.limit === undefined ? found : found.slice(Math.max(0, found.length - filter.limit));
  }

  /** Forgets one team's requests, or every team's. */
  clear(team?: string): void {
    if (team === undefined) this.#teams.clear();
    else this.#teams.delete(team);
  }
}

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A record as it may be shown, through the redactor. */
function presented(redactor: Redactor, r: JournalRecord): JournalEntry {
  const op = r.operationId === undefined ? undefined : redactor.operationById(r.operationId);
  // Built as own properties whatever their names: a header or parameter named `__proto__` is kept, not lost.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(r.headers).flatMap(([name, value]) =>
      value === undefined ? [] : [[name, redactor.header(name, Array.isArray(value) ? value.join(", ") : value)]],
    ),
  );
  const target = r.target.startsWith("/") ? r.target : safePath(r.target);
  const sent = readJson(r.text);
  // An application's data: what it sent in marked fields leaves the refusal's words too (a message may echo it).
  redactor.learnRequest(r.method, target, sent?.value);
  let body: unknown = null;
  if (sent !== undefined) body = redactor.request(op, sent.value);
  else if (r.text !== undefined && r.text !== "") body = `[${r.text.length} characters, not JSON: not shown, since it may hold health data]`;
  const url = new URL(redactor.url(r.method, target), "http://journal.invalid");
  const query: Record<string, string | string[]> = Object.fromEntries(
    [...new Set(url.searchParams.keys())].map((name) => {
      const values = url.searchParams.getAll(name);
      return [name, values.length === 1 ? values[0]! : values];
    }),
  );
  return {
    seq: r.seq,
    time: new Date(r.at).toISOString(),
    // The contract's ids: the journal's records come from routing against the document the mock answers for.
    operation_id: (r.operationId as OperationId | undefined) ?? null,
    method: r.method,
    path: decoded(url.pathname),
    query,
    headers,
    body,
    status: r.status,
    refusal:
      r.refusal === undefined
        ? null
        : {
            code: r.refusal.code,
            message: redactor.text(r.refusal.message),
            ...(r.refusal.details === undefined ? {} : { details: r.refusal.details.map((d) => ({ ...d, message: redactor.text(d.message) })) }),
          },
    condition: r.condition ?? null,
    ...(r.violations === undefined ? {} : { contract_violations: r.violations.map((line) => redactor.text(line)) }),
  };
}

/** An absolute-form target's path and query (its host is the caller's business, not the journal's). */
function safePath(target: string): string {
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return "/";
  }
}
