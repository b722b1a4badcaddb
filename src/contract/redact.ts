// Takes out of a request or an answer what the contract marks `x-svc-data: phi` or `secret`, and masks credentials,
// before anything of it is written (verify's reports and HAR files, the mock's log): each marked value becomes a
// placeholder saying what was removed, and every value removed once is removed from free text too (a message echoing it).
import { Credentials } from "./credentials.ts";
import { isObject, type JsonObject } from "./json.ts";
import { deref, type ContractOperation } from "./operations.ts";
import { createRouter, type Router } from "./router.ts";

export const DATA_MARK = "x-svc-data";

/** What a marked value is written as. */
export const REMOVED = { phi: "[phi removed]", secret: "[secret removed]" } as const;

export type DataKind = keyof typeof REMOVED;

/** The shortest value looked for in free text: shorter ones (`US`, `IL`) would cut up every sentence and tell little. */
const MIN_SCRUBBED_LENGTH = 4;
/** Compositions deeper than this are not followed: the contract's are two or three levels. */
const MAX_DEPTH = 64;

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function markOf(node: unknown): DataKind | undefined {
  if (!isObject(node)) return undefined;
  const mark = node[DATA_MARK];
  return mark === "phi" || mark === "secret" ? mark : undefined;
}

/** The stronger of two marks: a secret stays a secret when a field is also health data. */
const stronger = (a: DataKind | undefined, b: DataKind | undefined): DataKind | undefined => (a === "secret" || b === "secret" ? "secret" : (a ?? b));

/**
 * A credential as it may be written: its last four characters when it is long enough that they do not give it away,
 * otherwise nothing of it.
 */
export function maskCredential(value: string): string {
  return value.length >= 16 ? `[credential …${value.slice(-4)}]` : "[credential]";
}

export interface RedactorOptions {
  /** Write marked values as they are (verify's --show-data, for a loopback target only); credentials stay masked. */
  show?: boolean;
}

export class Redactor {
  readonly show: boolean;
  readonly #document: JsonObject;
  readonly #router: Router;
  /** Property names marked anywhere, for fields a schema does not declare (a server's extra field, an unknown operation). */
  readonly #markedNames = new Map<string, DataKind>();
  /** Header names of the contract's credentials (lower case). */
  readonly #credentialHeaders = new Set<string>(["authorization", "cookie", "set-cookie", "proxy-authorization"]);
  /** Values removed once, to be removed from free text wherever they turn up again. */
  readonly #removed = new Map<string, string>();
  #pattern: RegExp | undefined;

  constructor(document: JsonObject, options: RedactorOptions = {}) {
    this.show = options.show === true;
    this.#document = document;
    this.#router = createRouter(document);
    this.#collectNames(document, 0);
    for (const header of new Credentials(document).headerKeys()) this.#credentialHeaders.add(header);
  }

  #collectNames(node: unknown, depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(node)) return node.forEach((each) => this.#collectNames(each, depth + 1));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      // Examples are data, not schemas.
      if (key === "example" || key === "examples") continue;
      if (key === "properties" && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) {
          const mark = stronger(markOf(schema), markOf(deref(this.#document, schema)));
          if (mark !== undefined) this.#markedNames.set(name, stronger(this.#markedNames.get(name), mark)!);
        }
      }
      this.#collectNames(value, depth + 1);
    }
  }

  /** The operation a request's method and URL (or path) reach, aliases included. */
  operationAt(method: string, url: string): ContractOperation | undefined {
    let pathname: string;
    try {
      pathname = new URL(url, "http://placeholder.invalid").pathname;
    } catch {
      return undefined;
    }
    return this.#router.match(method, pathname)?.operation;
  }

  operationById(operationId: string): ContractOperation | undefined {
    return this.#router.operations.find((op) => op.operationId === operationId);
  }

  /** A request body of the operation (or of none the contract has), marked values removed. */
  request(op: ContractOperation | undefined, body: unknown): unknown {
    const media = op?.requestBody;
    return this.#walk(this.#jsonSchema(media), body, 0);
  }

  /** An answer's body for the operation and status (or of an operation the contract does not have), marked values removed. */
  response(op: ContractOperation | undefined, status: number, body: unknown): unknown {
    const responses = op?.responses;
    const declared = responses === undefined ? undefined : (responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default);
    return this.#walk(this.#jsonSchema(declared), body, 0);
  }

  /** A header's value as it may be written: a credential masked, anything else as it is. */
  header(name: string, value: string): string {
    if (!this.#credentialHeaders.has(name.toLowerCase())) return value;
    this.rememberCredential(value);
    return maskCredential(value);
  }

  /** A URL with its marked query parameters removed (when the operation is known) and any user info masked. */
  url(method: string, url: string): string {
    let parsed: URL;
    const relative = url.startsWith("/");
    try {
      parsed = new URL(url, "http://placeholder.invalid");
    } catch {
      return this.text(url);
    }
    if (parsed.password !== "") {
      this.rememberCredential(decodeURIComponent(parsed.password));
      parsed.password = "credential";
    }
    const op = this.operationAt(method, url);
    for (const parameter of op?.parameters ?? []) {
      const mark = stronger(markOf(parameter), markOf(parameter.schema));
      if (parameter.in !== "query" || mark === undefined || typeof parameter.name !== "string" || this.show) continue;
      const values = parsed.searchParams.getAll(parameter.name);
      if (values.length === 0) continue;
      values.forEach((value) => this.#remember(value, mark));
      parsed.searchParams.set(parameter.name, REMOVED[mark]);
    }
    return this.text(relative ? `${parsed.pathname}${parsed.search}` : parsed.href);
  }

  /** Free text (a message, an excerpt): every value removed so far and every credential seen, taken out again. */
  text(text: string): string {
    if (this.#pattern === undefined) {
      if (this.#removed.size === 0) return text;
      // Longest first, so a value inside a longer one does not leave the rest of the longer behind.
      const values = [...this.#removed.keys()].sort((a, b) => b.length - a.length);
      this.#pattern = new RegExp(values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
    }
    return text.replace(this.#pattern, (found) => this.#removed.get(found) ?? found);
  }

  /** Text the contract cannot classify (an answer that is not JSON): its size, not its bytes, unless marked values may be shown. */
  opaque(text: string, length = 60): string {
    if (this.show) return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
    return `${new TextEncoder().encode(text).length} bytes, not shown: an answer verify cannot read may hold health data (--show-data shows it on a loopback target)`;
  }

  /**
   * Learns what a request and its answer carry (marked values, credentials), so that free text written later (a
   * message that echoes one) leaves them out; the caller writes none of it itself.
   */
  observe(request: { method: string; url: string; headers?: Record<string, string>; body?: string }, answer?: { status: number; text: string }): void {
    for (const [name, value] of Object.entries(request.headers ?? {})) this.header(name, value);
    this.url(request.method, request.url);
    const op = this.operationAt(request.method, request.url);
    const sent = parseJson(request.body);
    if (sent !== undefined) this.request(op, sent);
    const got = parseJson(answer?.text);
    if (answer !== undefined && got !== undefined) this.response(op, answer.status, got);
  }

  /**
   * Forgets the values it removed so far (a long-lived writer, such as the mock's journal or its HAR recording, keeps
   * one redactor rather than walking the contract again, without what it learns piling up).
   */
  forget(): void {
    this.#removed.clear();
    this.#pattern = undefined;
  }

  /** A credential the outputs must not carry: removed from free text, masked. */
  rememberCredential(value: string): void {
    if (value.length >= MIN_SCRUBBED_LENGTH) this.#remember(value, "credential");
  }

  #remember(value: unknown, kind: DataKind | "credential"): void {
    if (Array.isArray(value)) return value.forEach((each) => this.#remember(each, kind));
    if (isObject(value)) return Object.values(value).forEach((each) => this.#remember(each, kind));
    if (typeof value !== "string" || value.length < MIN_SCRUBBED_LENGTH || (this.show && kind !== "credential")) return;
    const written = kind === "credential" ? maskCredential(value) : REMOVED[kind];
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      if (this.#removed.get(form) === written) continue;
      this.#removed.set(form, written);
      this.#pattern = undefined;
    }
  }

  #jsonSchema(media: unknown): unknown[] {
    if (!isObject(media) || !isObject(media.content)) return [];
    return Object.entries(media.content)
      .filter(([type]) => /json/i.test(type))
      .map(([, content]) => (isObject(content) ? content.schema : undefined))
      .filter((schema) => schema !== undefined);
  }

  /** The schemas a value is described by: each followed through `$ref`, with the branches of its compositions. */
  #expand(nodes: unknown[], depth: number): JsonObject[] {
    const out: JsonObject[] = [];
    for (const node of nodes) {
      const schema = deref<unknown>(this.#document, node);
      if (!isObject(schema)) continue;
      out.push(schema);
      if (depth > MAX_DEPTH) continue;
      for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(schema[key])) out.push(...this.#expand(schema[key] as unknown[], depth + 1));
    }
    return out;
  }

  /** The mark a field's schemas carry, on the field's own schema (beside its `$ref`) or on what it refers to. */
  #markOfAll(nodes: unknown[], depth: number): DataKind | undefined {
    let mark: DataKind | undefined;
    for (const node of nodes) mark = stronger(mark, markOf(node));
    for (const schema of this.#expand(nodes, depth)) mark = stronger(mark, markOf(schema));
    return mark;
  }

  /** The value with every marked part replaced; `nodes` empty means no schema describes it, and field names decide. */
  #walk(nodes: unknown[], value: unknown, depth: number): unknown {
    if (value === null || value === undefined || depth > MAX_DEPTH) return value;
    const mark = this.#markOfAll(nodes, depth);
    if (mark !== undefined) return this.#removeValue(value, mark);
    const schemas = this.#expand(nodes, depth);
    if (Array.isArray(value)) {
      const items = schemas.map((schema) => schema.items).filter((items) => items !== undefined);
      return value.map((each) => this.#walk(items, each, depth + 1));
    }
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [key, field] of Object.entries(value)) {
      const fieldNodes: unknown[] = [];
      for (const schema of schemas) {
        if (isObject(schema.properties) && key in schema.properties) fieldNodes.push(schema.properties[key]);
        else if (isObject(schema.additionalProperties)) fieldNodes.push(schema.additionalProperties);
      }
      if (fieldNodes.length === 0) {
        // A field the contract does not describe here: named like a marked field somewhere, it is treated as one.
        const byName = this.#markedNames.get(key);
        out[key] = byName === undefined ? this.#walk([], field, depth + 1) : this.#removeValue(field, byName);
      } else out[key] = this.#walk(fieldNodes, field, depth + 1);
    }
    return out;
  }

  #removeValue(value: unknown, mark: DataKind): unknown {
    if (value === null || this.show) return value;
    this.#remember(value, mark);
    return REMOVED[mark];
  }
}
