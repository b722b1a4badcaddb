// Takes out of a request or an answer what the contract marks `x-svc-data: phi` or `secret`, and masks credentials,
// before anything of it is written (verify's reports and HAR files, the mock's journal and log). A value is judged by
// where it came from and where it stands, never by searching text for what looks like it: a marked field's value is
// removed where it stands (its JSON position), unless it is a listed value of the field's enumeration (a word of the
// contract); what verify made up or the contract wrote is no one's data and is written as it is; and a value a server
// sent in a marked field is taken out of free text (a server's message, a page's title) as a whole token only, never
// out of the contract's own words.
import { Credentials } from "./credentials.ts";
import { isObject, readJson, type JsonObject } from "./json.ts";
import { deref, type ContractOperation } from "./operations.ts";
import { createRouter, type Router } from "./router.ts";
import { MIN_TOKEN_LENGTH, TokenIndex } from "./token-index.ts";

export const DATA_MARK = "x-svc-data";

/** What a marked value is written as. */
export const REMOVED = { phi: "[phi removed]", secret: "[secret removed]" } as const;

export type DataKind = keyof typeof REMOVED;

/** Compositions deeper than this are not followed: the contract's are two or three levels. */
const MAX_DEPTH = 64;
/** How many values verify made up it remembers as its own (a longer run's later values count as a server's: the safe side). */
const MAX_MADE_VALUES = 200_000;
/** A remembered value longer than this is not looked for in text: no line verify writes quotes that much of a server. */
const MAX_TOKEN_LENGTH = 4096;
/**
 * The most values a server's marked fields may teach: past it, what the server writes in its own words is withheld
 * whole (a server sending that many distinct values must not make the writer large, nor slip one through).
 */
const MAX_SERVER_VALUES = 100_000;

function markOf(node: unknown): DataKind | undefined {
  if (!isObject(node)) return undefined;
  const mark = node[DATA_MARK];
  return mark === "phi" || mark === "secret" ? mark : undefined;
}

/** The stronger of two marks: a secret stays a secret when a field is also health data. */
const stronger = (a: DataKind | undefined, b: DataKind | undefined): DataKind | undefined => (a === "secret" || b === "secret" ? "secret" : (a ?? b));

/** A value's forms as text may hold it: a string as it is and as JSON escapes it; a number as JSON writes it. */
function textForms(value: unknown): string[] {
  if (typeof value === "number" && Number.isFinite(value)) return [String(value)];
  if (typeof value !== "string") return [];
  const escaped = JSON.stringify(value).slice(1, -1);
  return escaped === value ? [value] : [value, escaped];
}

/** Every primitive of a JSON value, depth-first. */
function* leaves(value: unknown, depth = 0): Generator<unknown> {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) for (const each of value) yield* leaves(each, depth + 1);
  else if (isObject(value)) for (const each of Object.values(value)) yield* leaves(each, depth + 1);
  else yield value;
}

/** A URL's path segments as the server reads them (decoded), for the values a path parameter carried. */
function pathSegments(url: URL | undefined): string[] {
  return (url?.pathname.split("/") ?? []).map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

/** Sets a property as an own one, whatever its name: `out["__proto__"] = …` would change the object's prototype instead. */
function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

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

/** An answer a writer cannot read as JSON, as much as it needs to name it. */
export interface OpaqueAnswer {
  text: string;
  status?: number;
  statusText?: string;
  contentType?: string | null;
}

/** What a marked field's value is found to be at its position: removed, or kept as a listed value of its enumeration. */
type Found = { kind: DataKind; listed: boolean };

export class Redactor {
  readonly show: boolean;
  readonly #document: JsonObject;
  readonly #router: Router;
  /** Property names marked anywhere, for fields a schema does not declare (a server's extra field, an unknown operation). */
  readonly #markedNames = new Map<string, DataKind>();
  /** Header names of the contract's credentials (lower case). */
  readonly #credentialHeaders = new Set<string>(["authorization", "cookie", "set-cookie", "proxy-authorization"]);
  /** The contract's own words: every property name, listed value and text the document (or a workflow file) holds. */
  readonly #contractWords = new Set<string>();
  /** Values verify made up and sent: a server echoing one sends nobody's data. */
  readonly #made = new Set<string>();
  /** What free text loses: values a server sent in marked fields, and credentials. */
  readonly #tokens = new TokenIndex();
  /** The server sent more marked values than are kept: its own words are withheld from then on. */
  #overflowed = false;
  /** Each schema node's expansion (through `$ref` and compositions), made once: the contract does not change. */
  readonly #expanded = new WeakMap<object, JsonObject[]>();

  constructor(document: JsonObject, options: RedactorOptions = {}) {
    this.show = options.show === true;
    this.#document = document;
    this.#router = createRouter(document);
    this.#collect(document, 0);
    for (const header of new Credentials(document).headerKeys()) this.#credentialHeaders.add(header);
  }

  /** The marked property names and the contract's words, in one walk of the document. */
  #collect(node: unknown, depth: number): void {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(node)) return node.forEach((each) => this.#collect(each, depth + 1));
    if (!isObject(node)) {
      for (const form of textForms(node)) this.#contractWords.add(form);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      this.#contractWords.add(key);
      if (key === "properties" && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) {
          const mark = stronger(markOf(schema), markOf(deref(this.#document, schema)));
          if (mark !== undefined) this.#markedNames.set(name, stronger(this.#markedNames.get(name), mark)!);
        }
      }
      this.#collect(value, depth + 1);
    }
  }

  /** Words written in shipped files beside the contract (the workflows' literals): never taken out of text. */
  addContractWords(values: Iterable<unknown>): void {
    for (const value of values) for (const leaf of leaves(value)) for (const form of textForms(leaf)) this.#contractWords.add(form);
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

  /** A request body of the operation (or of none the contract has), marked values removed where they stand. */
  request(op: ContractOperation | undefined, body: unknown): unknown {
    return this.#walk(this.#requestSchemas(op), body, 0, undefined);
  }

  /** An answer's body for the operation and status (or of an operation the contract does not have), marked values removed. */
  response(op: ContractOperation | undefined, status: number, body: unknown): unknown {
    return this.#walk(this.#responseSchemas(op, status), body, 0, undefined);
  }

  /** The headers that carry a credential (lower case): the contract's own, and HTTP's. */
  credentialHeaders(): string[] {
    return [...this.#credentialHeaders];
  }

  /** A header's value as it may be written: a credential masked, anything else as it is. */
  header(name: string, value: string): string {
    if (!this.#credentialHeaders.has(name.toLowerCase())) return value;
    this.rememberCredential(value);
    return maskCredential(value);
  }

  /** A URL with its marked query parameters removed (when the operation is known) and any user info masked. */
  url(method: string, url: string): string {
    const relative = url.startsWith("/");
    const parsed = this.#parseUrl(url);
    if (parsed === undefined) return this.text(url);
    if (parsed.password !== "") {
      this.rememberCredential(decodeURIComponent(parsed.password));
      parsed.password = "credential";
    }
    if (!this.show)
      for (const { name, mark } of this.#markedQuery(this.operationAt(method, url)))
        if (parsed.searchParams.has(name)) parsed.searchParams.set(name, REMOVED[mark]);
    return this.text(relative ? `${parsed.pathname}${parsed.search}` : parsed.href);
  }

  /** Free text (a server's message, a title): every credential seen and every value a server sent in a marked field, as whole tokens. */
  text(text: string): string {
    return this.#tokens.replace(text);
  }

  /** A server's own words (an error's message, a page's title), as `text` writes them, or withheld once it learnt too much to tell. */
  serverText(text: string): string {
    if (!this.#overflowed) return this.text(text);
    return `[${text.length} characters of the server's text, not shown: it sent more than ${MAX_SERVER_VALUES} values in marked fields]`;
  }

  /**
   * An answer that cannot be read as JSON, named by what may be said of it: its content type, status line, size, and
   * an HTML page's title (a gateway's page says a proxy answered); its bytes only with --show-data.
   */
  opaque(answer: OpaqueAnswer, length = 60): string {
    const { text } = answer;
    if (this.show) return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
    const status = answer.status === undefined ? [] : [`${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`];
    const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, " ").trim();
    const parts = [answer.contentType ? answer.contentType : "no content type", ...status, `${new TextEncoder().encode(text).length} bytes`];
    const titled = title ? `, titled ${JSON.stringify(this.serverText(title))}` : "";
    return `${parts.join(", ")}${titled}; not shown: an answer verify cannot read may hold health data (--show-data shows it on a loopback target)`;
  }

  /**
   * Learns what verify's own request and the server's answer carry: the request's values are verify's (made up, or the
   * contract's), so an answer echoing them sends nobody's data; what the answer holds in marked fields otherwise is the
   * server's, and is taken out of free text written later (a message that echoes it). Credentials are masked.
   */
  observe(
    request: { method: string; url: string; headers?: Record<string, string>; body?: string },
    answer?: { status: number; text: string; json?: { value: unknown } },
  ): void {
    for (const [name, value] of Object.entries(request.headers ?? {})) this.header(name, value);
    this.#noteMade(request.url, readJson(request.body)?.value);
    if (answer !== undefined)
      this.learnResponse(this.operationAt(request.method, request.url), answer.status, ("json" in answer ? answer.json : readJson(answer.text))?.value);
  }

  /** Learns the marked values of a request that is someone's data (an application's, through the mock), for free text. */
  learnRequest(method: string, url: string, body: unknown): void {
    if (this.show) return;
    const op = this.operationAt(method, url);
    const parsed = this.#parseUrl(url);
    for (const { name, mark } of this.#markedQuery(op)) for (const value of parsed?.searchParams.getAll(name) ?? []) this.#rememberServer(value, mark);
    this.#walk(this.#requestSchemas(op), body, 0, (value, found) => this.#rememberServer(value, found.kind));
  }

  /** Learns the marked values a server's answer holds (not a listed value: a word of the contract), for free text. */
  learnResponse(op: ContractOperation | undefined, status: number, body: unknown): void {
    if (this.show || body === undefined) return;
    this.#walk(this.#responseSchemas(op, status), body, 0, (value, found) => {
      if (!found.listed) this.#rememberServer(value, found.kind);
    });
  }

  /**
   * Forgets the values it learnt so far (a long-lived writer, such as the mock's journal or its HAR recording, keeps
   * one redactor rather than walking the contract again, without what it learns piling up).
   */
  forget(): void {
    this.#tokens.clear();
    this.#made.clear();
    this.#overflowed = false;
  }

  /** A credential the outputs must not carry: removed from free text, masked. */
  rememberCredential(value: string): void {
    for (const form of textForms(value)) this.#tokens.add(form, maskCredential(value));
  }

  #noteMade(url: string, body: unknown): void {
    if (this.#made.size >= MAX_MADE_VALUES) return;
    const parsed = this.#parseUrl(url);
    const values = [...pathSegments(parsed), ...(parsed?.searchParams.values() ?? []), ...leaves(body)];
    for (const value of values) {
      for (const form of textForms(value)) {
        // Sent first by the server, it stays the server's: verify only passed it on.
        if (form.length >= MIN_TOKEN_LENGTH && !this.#tokens.has(form)) this.#made.add(form);
      }
    }
  }

  #rememberServer(value: unknown, kind: DataKind): void {
    for (const leaf of leaves(value)) {
      for (const form of textForms(leaf)) {
        if (form.length > MAX_TOKEN_LENGTH || this.#made.has(form) || this.#contractWords.has(form)) continue;
        if (this.#tokens.size >= MAX_SERVER_VALUES && !this.#tokens.has(form)) {
          this.#overflowed = true;
          continue;
        }
        this.#tokens.add(form, REMOVED[kind]);
      }
    }
  }

  #parseUrl(url: string): URL | undefined {
    try {
      return new URL(url, "http://placeholder.invalid");
    } catch {
      return undefined;
    }
  }

  /** The query parameters of an operation that the contract marks, with their marks. */
  #markedQuery(op: ContractOperation | undefined): { name: string; mark: DataKind }[] {
    const found: { name: string; mark: DataKind }[] = [];
    for (const parameter of op?.parameters ?? []) {
      const mark = stronger(markOf(parameter), markOf(parameter.schema));
      if (parameter.in === "query" && mark !== undefined && typeof parameter.name === "string") found.push({ name: parameter.name, mark });
    }
    return found;
  }

  #requestSchemas(op: ContractOperation | undefined): unknown[] {
    return this.#jsonSchema(op?.requestBody);
  }

  #responseSchemas(op: ContractOperation | undefined, status: number): unknown[] {
    const responses = op?.responses;
    if (responses === undefined) return [];
    const declared = [String(status), `${String(status)[0]}XX`, "default"].find((key) => Object.hasOwn(responses, key));
    return this.#jsonSchema(declared === undefined ? undefined : responses[declared]);
  }

  #jsonSchema(media: unknown): unknown[] {
    if (!isObject(media) || !isObject(media.content)) return [];
    return Object.entries(media.content)
      .filter(([type]) => /json/i.test(type))
      .map(([, content]) => (isObject(content) ? content.schema : undefined))
      .filter((schema) => schema !== undefined);
  }

  /** The schemas a value is described by: each followed through `$ref`, with the branches of its compositions. */
  #expand(nodes: unknown[], depth = 0): JsonObject[] {
    if (nodes.length === 1 && isObject(nodes[0]) && depth === 0) {
      // One schema node at a time, each expanded once: a list of many items meets the same schemas for each.
      const cached = this.#expanded.get(nodes[0]);
      if (cached !== undefined) return cached;
      const made = this.#expandEach(nodes, depth);
      this.#expanded.set(nodes[0], made);
      return made;
    }
    return this.#expandEach(nodes, depth);
  }

  #expandEach(nodes: unknown[], depth: number): JsonObject[] {
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
  #markOfAll(nodes: unknown[], schemas: JsonObject[]): DataKind | undefined {
    let mark: DataKind | undefined;
    for (const node of nodes) mark = stronger(mark, markOf(node));
    for (const schema of schemas) mark = stronger(mark, markOf(schema));
    return mark;
  }

  /** Whether a value is one the field's enumeration lists (or its `const`): a word of the contract, not someone's data. */
  #listed(schemas: JsonObject[], value: unknown): boolean {
    if (typeof value !== "string" && typeof value !== "number") return false;
    return schemas.some((schema) => (Array.isArray(schema.enum) && schema.enum.includes(value)) || (Object.hasOwn(schema, "const") && schema.const === value));
  }

  /**
   * The value with every marked part replaced; `nodes` empty means no schema describes it, and field names decide.
   * `found`, when given, is told each marked value met (a listed one too, saying so).
   */
  #walk(nodes: unknown[], value: unknown, depth: number, found: ((value: unknown, at: Found) => void) | undefined): unknown {
    if (value === null || value === undefined || depth > MAX_DEPTH) return value;
    const schemas = this.#expand(nodes);
    const mark = this.#markOfAll(nodes, schemas);
    if (mark !== undefined) return this.#marked(value, { kind: mark, listed: this.#listed(schemas, value) }, found);
    if (Array.isArray(value)) {
      const items = schemas.map((schema) => schema.items).filter((items) => items !== undefined);
      return value.map((each) => this.#walk(items, each, depth + 1, found));
    }
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [key, field] of Object.entries(value)) {
      const fieldNodes: unknown[] = [];
      for (const schema of schemas) {
        if (isObject(schema.properties) && Object.hasOwn(schema.properties, key)) fieldNodes.push(schema.properties[key]);
        else if (isObject(schema.additionalProperties)) fieldNodes.push(schema.additionalProperties);
      }
      // A field the contract does not describe here: named like a marked field somewhere, it is treated as one.
      const byName = fieldNodes.length === 0 ? this.#markedNames.get(key) : undefined;
      setOwn(out, key, byName === undefined ? this.#walk(fieldNodes, field, depth + 1, found) : this.#marked(field, { kind: byName, listed: false }, found));
    }
    return out;
  }

  #marked(value: unknown, at: Found, found: ((value: unknown, at: Found) => void) | undefined): unknown {
    if (value === null) return value;
    found?.(value, at);
    return this.show || at.listed ? value : REMOVED[at.kind];
  }
}
