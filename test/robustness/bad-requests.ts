// The robustness suite's bad requests: generated from each operation's own schemas (fast-check arbitraries), the hostile inputs found before, and the check that each gets a JSON 4xx in time and changes no later answer.
import http from "node:http";
import fc from "fast-check";
import { deref, HTTP_METHODS, type ContractOperation } from "../../src/contract/operations.ts";
import { createRouter } from "../../src/contract/router.ts";
import { openEnumValues } from "../../src/contract/open-enums.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { contract, operations, validator } from "../support/contract.ts";
import { VALID_CALLS } from "../support/calls.ts";
import { CREDENTIALS, describeRequest, sendRaw, validRequest, validTarget, type RawOutcome, type RawRequest } from "../support/raw-http.ts";
import { createErrorBodyCheck } from "./error-body.ts";
import { restartPrivateMock, startPrivateMock, stopPrivateMock } from "./private-mock.ts";

/**
 * How long an answer to a bad request may take before it counts as a hang: far beyond the milliseconds one takes, so a
 * busy machine fails nothing. A request that never completes its body has its own, longer bound (the mock's 5 s, then its 408).
 */
export const ANSWER_MS = 15_000;
const SHORT_BODY_MS = 30_000;

const isErrorBody = createErrorBodyCheck(contract);
const router = createRouter(contract);

export interface Bad {
  what: string;
  request: RawRequest | Buffer;
  /** The operation the request names, whose valid call is sent after it; undefined when it names none. */
  op?: ContractOperation;
  /** Whether the refusal must be a status the operation declares (false for refusals before any operation is known). */
  declared: boolean;
  timeoutMs?: number;
  /** The one status that is right, where only one is. */
  expectStatus?: number;
}

/** Shows a counterexample as what it is and its bytes, not as the operation object it carries. */
export function printable(bad: Bad): Bad {
  return Object.assign(bad, { [fc.toStringMethod]: () => `${bad.what}${bad.op ? ` (${bad.op.operationId})` : ""}:\n${describeRequest(bad.request)}` });
}

// ---------------------------------------------------------------------------------------------------------------
// Each operation's valid answer before the run, to compare with after each bad request.

/** The mock under test: the suite's own (see private-mock.ts). */
let mockUrl = "";
const baseline = new Map<string, { status: number; body: string }>();

async function probe(op: ContractOperation): Promise<string | undefined> {
  const outcome = await sendRaw(mockUrl, validRequest(op), ANSWER_MS);
  const expected = baseline.get(op.operationId)!;
  if (!outcome.ok) return `the next valid ${op.operationId} got no answer: ${outcome.failure}`;
  if (outcome.answer.status !== expected.status || outcome.answer.body !== expected.body) {
    return `the next valid ${op.operationId} got ${outcome.answer.status} ${outcome.answer.body.slice(0, 200)} instead of ${expected.status} ${expected.body.slice(0, 200)}`;
  }
  return undefined;
}

/** What is wrong with the answer to a bad request, or undefined when it is a declared JSON 4xx in the ErrorBody shape. */
export function fault(bad: Bad, outcome: RawOutcome): string | undefined {
  if (!outcome.ok) return `${outcome.failure} after ${outcome.ms} ms (got: ${JSON.stringify(outcome.partial)})`;
  const { status, headers, body } = outcome.answer;
  if (bad.expectStatus !== undefined && status !== bad.expectStatus) return `status ${status}, not ${bad.expectStatus}: ${body.slice(0, 300)}`;
  if (status < 400 || status > 499) return `status ${status}, not a 4xx: ${body.slice(0, 300)}`;
  if (!/^application\/(.+\+)?json\b/i.test(headers["content-type"] ?? ""))
    return `${status} with content-type ${String(headers["content-type"])}: ${body.slice(0, 300)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${status} with a body that is not JSON: ${body.slice(0, 300)}`;
  }
  const shapeErrors = isErrorBody(parsed);
  if (shapeErrors) return `${status} with a body that is not an ErrorBody (${shapeErrors}): ${body.slice(0, 300)}`;
  if (bad.declared && bad.op) {
    const violations = validator.validateResponse(bad.op, status, parsed);
    if (violations.length > 0) return `${status} is not what ${bad.op.operationId} declares: ${JSON.stringify(violations).slice(0, 300)}`;
  }
  return undefined;
}

/** Sends the bad request, then the operation's valid call; what went wrong, if anything. */
export async function faultsOf(bad: Bad): Promise<string[]> {
  const outcome = await sendRaw(mockUrl, bad.request, bad.timeoutMs ?? ANSWER_MS);
  return [fault(bad, outcome), await probe(bad.op ?? operations[0]!)].filter((p) => p !== undefined);
}

/** Throws with the request's bytes when the bad request or the valid call after it went wrong. */
export async function check(bad: Bad): Promise<void> {
  const problems = await faultsOf(bad);
  if (problems.length > 0) {
    throw new Error(`${bad.what}${bad.op ? ` (${bad.op.operationId})` : ""}:\n  ${problems.join("\n  ")}\nrequest:\n${describeRequest(bad.request)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas, resolved.

function resolve(schema: unknown): JsonObject {
  const s = deref(contract, schema) ?? {};
  if (Array.isArray(s.allOf)) return Object.assign({}, s, ...s.allOf.map((part) => resolve(part)), { allOf: undefined });
  return s;
}

/** The listed values of a closed enumeration: an open one (x-svc-non-exhaustive) takes any string, in requests too. */
function enumValues(schema: JsonObject): unknown[] | undefined {
  if (openEnumValues(schema) !== undefined) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if (Array.isArray(schema.anyOf))
    for (const part of schema.anyOf) {
      const values = enumValues(resolve(part));
      if (values) return values;
    }
  return undefined;
}

function types(schema: JsonObject): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v) => (v === null ? "null" : Number.isInteger(v) ? "integer" : typeof v)))];
  const parts = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(parts)) {
    const all = parts.map((p) => types(resolve(p)));
    return all.every((t) => t !== undefined) ? [...new Set(all.flat() as string[])] : undefined;
  }
  return undefined;
}

const typeOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value);
function fits(value: unknown, allowed: string[]): boolean {
  const t = typeOf(value);
  return allowed.includes(t) || (t === "integer" && allowed.includes("number"));
}

const WRONG_TYPED: unknown[] = [true, 12345, 1.5, "text", [], {}, null, [1, 2, 3], { nested: { deeper: true } }];
const FORMAT_BREAKERS: Record<string, string[]> = {
  uuid: ["not-a-uuid", "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1", "3f6c2a1e8b4d4c2a9e1f5a7b8c9d0e1fz"],
  date: ["2026-13-45", "yesterday", "03/02/2026"],
  "date-time": ["2026-03-02 09:15", "not a time"],
  email: ["not-an-email", "a@"],
  uri: ["not a uri"],
};

/** A token not among the listed values (the prefix keeps it out of any list). */
const unlisted = fc.stringMatching(/^[a-z0-9_]{1,16}$/).map((s) => `zz_unlisted_${s}`);

// ---------------------------------------------------------------------------------------------------------------
// Bodies: JSON text with raw insertions (non-finite numbers JSON.stringify cannot write).

const RAW = "\u0000raw:";
function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000raw:([^"]*)"/g, (_, text: string) => text);
}

/** Breaks one value of a body so it no longer fits its schema, or says it cannot. */
function breakValue(schema: JsonObject): fc.Arbitrary<unknown> | undefined {
  const options: fc.Arbitrary<unknown>[] = [];
  const allowed = types(schema);
  if (allowed) {
    const wrong = WRONG_TYPED.filter((v) => !fits(v, allowed));
    if (wrong.length > 0) options.push(fc.constantFrom(...wrong));
    if (!allowed.includes("array")) {
      options.push(fc.integer({ min: 500, max: 5_000 }).map((depth) => `${RAW}${"[".repeat(depth)}${"]".repeat(depth)}`));
      options.push(fc.integer({ min: 10_000, max: 60_000 }).map((n) => `${RAW}[${Array(n).fill(7).join(",")}]`));
    }
    if (allowed.includes("integer") || allowed.includes("number")) {
      options.push(fc.constantFrom(`${RAW}1e309`, `${RAW}-1e309`));
      if (allowed.includes("integer") && !allowed.includes("number")) options.push(fc.constant(2.5));
    }
  }
  const listed = enumValues(schema);
  if (listed && listed.every((v) => typeof v === "string")) options.push(unlisted);
  if (listed && listed.every((v) => typeof v === "number")) options.push(fc.integer({ min: -1000, max: 100_000 }).filter((n) => !listed.includes(n)));
  if (typeof schema.minimum === "number") options.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => (schema.minimum as number) - d));
  if (typeof schema.maximum === "number") options.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => (schema.maximum as number) + d));
  if (typeof schema.maxLength === "number") options.push(fc.integer({ min: 1, max: 5_000 }).map((d) => "x".repeat((schema.maxLength as number) + d)));
  if (typeof schema.minLength === "number" && schema.minLength > 0) options.push(fc.constant(""));
  if (typeof schema.format === "string" && FORMAT_BREAKERS[schema.format]) options.push(fc.constantFrom(...FORMAT_BREAKERS[schema.format]!));
  if (typeof schema.maxItems === "number")
    options.push(
      fc.constant(
        `${RAW}[${Array((schema.maxItems as number) + 1)
          .fill("null")
          .join(",")}]`,
      ),
    );
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

interface BodyBreak {
  what: string;
  text: string;
  /** The one status that is right, where only one is. */
  expectStatus?: number;
}

/** Ways to break an operation's JSON body, from its schema and its valid example. */
function bodyBreaks(op: ContractOperation): fc.Arbitrary<BodyBreak> | undefined {
  if (op.operation.requestBody === undefined) return undefined;
  const media = (resolve(op.operation.requestBody).content as JsonObject)["application/json"] as JsonObject;
  const schema = resolve(media.schema);
  const valid = VALID_CALLS[op.operationId]!.body as Record<string, unknown>;
  const validText = JSON.stringify(valid);
  const options: fc.Arbitrary<BodyBreak>[] = [];
  const properties = (schema.properties ?? {}) as JsonObject;
  for (const [name, propertySchema] of Object.entries(properties)) {
    const broken = breakValue(resolve(propertySchema));
    if (broken) options.push(broken.map((value) => ({ what: `property ${name} broken`, text: toJsonText({ ...valid, [name]: value }) })));
    // One level down: a property of an object-valued property that the valid body fills.
    const inner = resolve(propertySchema);
    if (inner.properties && typeof valid[name] === "object" && valid[name] !== null && !Array.isArray(valid[name])) {
      for (const [innerName, innerSchema] of Object.entries(inner.properties as JsonObject)) {
        const brokenInner = breakValue(resolve(innerSchema));
        if (brokenInner) {
          options.push(
            brokenInner.map((value) => ({
              what: `property ${name}.${innerName} broken`,
              text: toJsonText({ ...valid, [name]: { ...(valid[name] as object), [innerName]: value } }),
            })),
          );
        }
      }
    }
  }
  const required = ((schema.required ?? []) as string[]).filter((name) => name in valid);
  if (required.length > 0) {
    options.push(
      fc
        .constantFrom(...required)
        .map((name) => ({ what: `required ${name} missing`, text: JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== name))) })),
    );
  }
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) {
    options.push(unlisted.map((name) => ({ what: "an unknown property", text: JSON.stringify({ ...valid, [name]: 1 }) })));
  }
  options.push(
    fc.constantFrom("[1]", "null", "42", '"text"', "true", "[]").map((text) => ({ what: "a body that is not an object", text })),
    fc.integer({ min: 1, max: validText.length - 1 }).map((cut) => ({ what: "truncated JSON", text: validText.slice(0, cut) })),
    fc
      .string({ minLength: 1, maxLength: 40 })
      .filter((text) => text.trim() !== "" && !parses(text))
      .map((text) => ({ what: "malformed JSON", text })),
    fc.constantFrom("{", "{'a':1}", '{"a":1,}', '{"a":NaN}', '{"a":Infinity}', '{"a":"\\x"}').map((text) => ({ what: "malformed JSON", text })),
    fc.integer({ min: 1_000, max: 30_000 }).map((depth) => ({ what: "deep nesting", text: `${"[".repeat(depth)}${"]".repeat(depth)}` })),
    fc.integer({ min: 1_000, max: 30_000 }).map((depth) => ({ what: "deep unclosed nesting", text: '{"a":'.repeat(depth) })),
    // Nesting past the mock's limit inside a body that is otherwise valid: refused before anything walks it.
    fc.integer({ min: 65, max: 20_000 }).map((depth) => ({
      what: "nesting beyond 64 levels inside a valid body",
      text: `${validText.slice(0, -1)}${validText === "{}" ? "" : ","}"zz_deep":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`,
      expectStatus: 400,
    })),
    fc.integer({ min: 20_000, max: 200_000 }).map((n) => ({ what: "a huge array", text: `[${Array(n).fill(1).join(",")}]` })),
    fc.integer({ min: (1 << 20) + 1, max: 3 << 20 }).map((size) => ({ what: "a body over 1 MiB", text: `{"padding":"${"x".repeat(size)}"}` })),
  );
  return fc.oneof(...options);
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters.

function paramBreaks(op: ContractOperation): fc.Arbitrary<{ what: string; target: string }> | undefined {
  const call = VALID_CALLS[op.operationId] ?? {};
  const options: fc.Arbitrary<{ what: string; target: string }>[] = [];
  const withQuery = (extra: string, drop?: string) => {
    const base = validTarget(op, Object.fromEntries(Object.entries(call.params?.query ?? {}).filter(([k]) => k !== drop)));
    return extra === "" ? base : `${base}${base.includes("?") ? "&" : "?"}${extra}`;
  };
  for (const parameter of op.parameters) {
    const name = String(parameter.name);
    const schema = resolve(parameter.schema);
    const texts: fc.Arbitrary<string>[] = [];
    const allowed = types(schema) ?? [];
    if (allowed.includes("integer") || allowed.includes("number")) {
      texts.push(fc.constantFrom("abc", "1e309", "-1e309", "Infinity", "-Infinity", "NaN", "1..2", "--1", "1x"));
      if (!allowed.includes("number")) texts.push(fc.constantFrom("1.5", "0.1"));
    }
    if (allowed.includes("boolean")) texts.push(fc.stringMatching(/^[a-z]{2,8}$/).filter((s) => s !== "true" && s !== "false"));
    const listed = enumValues(schema);
    if (listed?.every((v) => typeof v === "string")) texts.push(unlisted);
    if (listed?.every((v) => typeof v === "number"))
      texts.push(
        fc
          .integer({ min: -1000, max: 100_000 })
          .filter((n) => !listed.includes(n))
          .map(String),
      );
    if (schema.type === "array") {
      const items = resolve(schema.items);
      const itemValues = enumValues(items);
      if (itemValues) texts.push(unlisted);
    }
    if (typeof schema.minimum === "number") texts.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => String((schema.minimum as number) - d)));
    if (typeof schema.maximum === "number") texts.push(fc.integer({ min: 1, max: 1_000_000 }).map((d) => String((schema.maximum as number) + d)));
    if (typeof schema.format === "string" && FORMAT_BREAKERS[schema.format]) texts.push(fc.constantFrom(...FORMAT_BREAKERS[schema.format]!));
    if (typeof schema.pattern === "string") texts.push(fc.constantFrom("UPPER", "a-b", "a b", "é"));
    if (typeof schema.maxLength === "number") texts.push(fc.constant("x".repeat((schema.maxLength as number) + 1)));
    // Percent-encoded odd bytes where the value must be a uuid, a listed value or match a pattern.
    if (schema.format === "uuid" || listed || typeof schema.pattern === "string") {
      // At least one byte that decodes to no character a listed value, a uuid or the pattern could hold.
      texts.push(
        fc
          .uint8Array({ minLength: 1, maxLength: 12 })
          .filter((bytes) => bytes.some((b) => !/[a-z0-9_-]/.test(String.fromCharCode(b))))
          .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("")),
      );
      texts.push(fc.constantFrom("%ZZ", "%", "%E0%A4%A", "%00", "%C0%AF"));
    }
    if (texts.length === 0) continue;
    const value = fc.oneof(...texts);
    if (parameter.in === "path") {
      options.push(
        value.map((text) => ({
          what: `path parameter ${name} broken`,
          target:
            op.template.replace(/\{([^}]+)\}/g, (_, n: string) =>
              n === name ? (/%/.test(text) ? text : encodeURIComponent(text)) : encodeURIComponent(String(call.params?.path?.[n])),
            ) + withQuery("").slice(validTarget(op, {}).length),
        })),
      );
    } else if (parameter.in === "query") {
      options.push(
        value.map((text) => ({
          what: `query parameter ${name} broken`,
          target: withQuery(`${name}=${/%/.test(text) ? text : encodeURIComponent(text)}`, name),
        })),
      );
      if (schema.type !== "array") {
        options.push(
          fc.constant({
            what: `query parameter ${name} repeated`,
            target: withQuery(`${name}=${encodeURIComponent(String(call.params?.query?.[name] ?? "1"))}&${name}=2`, name),
          }),
        );
      }
    }
    if (parameter.in === "query" && parameter.required === true) {
      options.push(fc.constant({ what: `required query parameter ${name} missing`, target: withQuery("", name) }));
    }
  }
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The properties' generators: one bad request at a time, for any operation.

/** A property's bad requests for one operation; undefined where the property has nothing to break in it. */
type PerOperation = (op: ContractOperation) => fc.Arbitrary<Bad> | undefined;

function replaceHeader(request: RawRequest, name: string, value: string | undefined): RawRequest {
  const headers = request.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  return { ...request, headers: value === undefined ? headers : [...headers, [name, value]] };
}

const badBodies: PerOperation = (op) =>
  bodyBreaks(op)?.map((broken) => ({
    what: broken.what,
    op,
    declared: true,
    expectStatus: broken.expectStatus,
    request: { ...validRequest(op), body: Buffer.from(broken.text) },
  }));

const badParams: PerOperation = (op) =>
  paramBreaks(op)?.map((broken) => ({ what: broken.what, op, declared: true, request: { ...validRequest(op), target: broken.target } }));

const ODD_CONTENT_TYPES = [
  "text/plain",
  "application/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json; charset=",
  "application/json, text/plain",
  "application/json; charset=\xff\xfe",
  'application/json; charset="utf-8',
  "application/jsonx",
  "json",
  "application/octet-stream",
];
const badContentTypes: PerOperation = (op) =>
  op.operation.requestBody === undefined
    ? undefined
    : fc
        .oneof(
          fc.constantFrom(...ODD_CONTENT_TYPES),
          fc.stringMatching(/^[a-z]{1,10}\/[a-z]{1,10}$/).filter((t) => !/(^|\/|\+)json$|^\*\//.test(t) && !t.endsWith("/*")),
          fc.stringMatching(/^[a-z0-9-]{1,12}$/).map((cs) => `application/json; charset=x-unknown-${cs}`),
          fc
            .uint8Array({ minLength: 1, maxLength: 8 })
            .map((bytes) => `application/json; charset=${Buffer.from(bytes.map((b) => 0x80 | b)).toString("latin1")}`),
        )
        .map((type) => ({ what: `content-type ${JSON.stringify(type)}`, op, declared: true, request: replaceHeader(validRequest(op), "Content-Type", type) }));

function declaredCodes(op: ContractOperation): number[] {
  return Object.keys(op.operation.responses as JsonObject)
    .filter((s) => /^\d{3}$/.test(s))
    .map(Number);
}

const badNegotiation: PerOperation = (op) =>
  fc
    .oneof(
      fc
        .constantFrom("invalid", "text/html", "application/xml", "image/png", "text/*", "text/html;q=1", ";;;", "application/", "\xe9/\xe9")
        .map((v) => ({ what: `Accept: ${v}`, header: "Accept", value: v })),
      fc
        .stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}$/)
        .filter((t) => !/json$/.test(t))
        .map((v) => ({ what: `Accept: ${v}`, header: "Accept", value: v })),
      unlisted.map((name) => ({ what: "Prefer: an example that does not exist", header: "Prefer", value: `example=${name}` })),
      fc
        .tuple(fc.constantFrom(...declaredCodes(op).filter((c) => c < 300)), unlisted)
        .map(([code, name]) => ({ what: "Prefer: a declared code, an example that does not exist", header: "Prefer", value: `code=${code}, example=${name}` })),
      fc
        .integer({ min: 100, max: 999 })
        .filter((c) => !declaredCodes(op).includes(c))
        .map((code) => ({ what: "Prefer: a code the operation does not declare", header: "Prefer", value: `code=${code}` })),
    )
    .map(({ what, header, value }) => ({ what, op, declared: true, request: replaceHeader(validRequest(op), header, value) }));

const badCredentials: PerOperation = (op) => {
  const own = validator.credentialHeader(op)!;
  const accepted = new Set(
    op.securityAlternatives
      .flat()
      .map((scheme) => String(deref(contract, ((contract.components as JsonObject).securitySchemes as JsonObject)[scheme]).name).toLowerCase()),
  );
  const others = Object.keys(CREDENTIALS).filter((h) => !accepted.has(h));
  const without = replaceHeader(validRequest(op), own, undefined);
  return fc
    .oneof(
      fc.constant({ what: "no credential", request: without }),
      fc.constantFrom("", " ", "\t").map((v) => ({ what: "an empty credential", request: replaceHeader(without, own, v) })),
      ...(others.length > 0
        ? [
            fc
              .constantFrom(...others)
              .map((h) => ({ what: `only ${h}, which ${op.operationId} does not take`, request: replaceHeader(without, h, CREDENTIALS[h]!) })),
          ]
        : []),
    )
    .map(({ what, request }) => ({ what, op, declared: true, request }));
};

const oddByte = fc.integer({ min: 0, max: 255 }).filter((b) => ![0x09, 0x0a, 0x0d, 0x20, 0x23, 0x2f, 0x3f, 0x5c].includes(b));
const KNOWN_METHODS = new Set(http.METHODS);

const badTransport: PerOperation = (op) => {
  const valid = validRequest(op);
  const taken = operations.filter((other) => other.template === op.template).map((other) => other.method);
  const otherMethods = HTTP_METHODS.map((m) => m.toUpperCase()).filter((m) => !taken.includes(m) && m !== "HEAD" && m !== "OPTIONS");
  const literal = op.template.split("/").filter((s) => s !== "" && !s.startsWith("{"));
  return fc.oneof(
    fc
      .stringMatching(/^[a-z0-9_]{1,12}(\/[a-z0-9_]{1,12}){0,3}$/)
      .map((p) => `/v3/${p}`)
      .filter((p) => !router.pathExists(p))
      .map((target) => ({ what: "an unknown path", op, declared: false, request: { ...valid, target } })),
    fc
      .constantFrom(...otherMethods)
      .map((method) => ({ what: `${method}, which the path does not answer`, op, declared: true, request: { ...valid, method } })),
    fc
      .stringMatching(/^[A-Z]{3,12}$/)
      .filter((m) => !KNOWN_METHODS.has(m))
      .map((method) => ({ what: "an unknown method", op, declared: false, request: { ...valid, method } })),
    // Only bytes that decode to no letter, digit or URL-unreserved mark, so the segment cannot turn into another one.
    fc
      .tuple(
        fc.constantFrom(...literal),
        fc.uint8Array({ minLength: 1, maxLength: 6 }).filter((bytes) => bytes.every((b) => !/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)))),
      )
      .map(([segment, bytes]) => ({
        what: "percent-encoded odd bytes in a literal path segment",
        op,
        declared: false,
        request: {
          ...valid,
          target: valid.target.replace(`/${segment}`, `/${segment}${[...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("")}`),
        },
      })),
    fc
      .tuple(fc.constantFrom(...literal), fc.array(oddByte, { minLength: 1, maxLength: 6 }))
      .filter(([, bytes]) => bytes.every((b) => !/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))))
      .map(([segment, bytes]) => ({
        what: "raw odd bytes in a literal path segment",
        op,
        declared: false,
        request: { ...valid, target: valid.target.replace(`/${segment}`, `/${segment}${Buffer.from(bytes).toString("latin1")}`) },
      })),
    fc
      .tuple(
        fc.stringMatching(/^[A-Za-z-]{1,10}$/),
        fc.integer({ min: 0, max: 31 }).filter((b) => b !== 9 && b !== 10 && b !== 13),
      )
      .map(([name, control]) => ({
        what: "a control byte in a header value",
        op,
        declared: false,
        request: { ...valid, headers: [...valid.headers, [`X-${name}`, `a${String.fromCharCode(control)}b`]] as [string, string][] },
      })),
    fc.constantFrom("X Odd", "X(Odd)", "X\u00e9", "X@Odd", "").map((name) => ({
      what: "an invalid header name",
      op,
      declared: false,
      request: { ...valid, headers: [...valid.headers, [name, "1"]] as [string, string][] },
    })),
    fc.integer({ min: 17 * 1024, max: 64 * 1024 }).map((size) => ({
      what: "headers over 16 KB",
      op,
      declared: true,
      expectStatus: 431,
      request: { ...valid, headers: [...valid.headers, ["X-Padding", "a".repeat(size)]] as [string, string][] },
    })),
    fc.integer({ min: 17 * 1024, max: 64 * 1024 }).map((size) => ({
      what: "a request target over 16 KB",
      op,
      declared: true,
      expectStatus: 414,
      request: { ...valid, target: `${valid.target}${valid.target.includes("?") ? "&" : "?"}zz_padding=${"a".repeat(size)}` },
    })),
    fc
      .stringMatching(/^[a-z0-9-]{1,16}$/)
      .filter((v) => v !== "100-continue")
      .map((value) => ({
        what: `Expect: ${value}`,
        op,
        declared: false,
        request: { ...valid, headers: [...valid.headers, ["Expect", value]] as [string, string][] },
      })),
    fc
      .constantFrom<[string, string][][]>(
        [
          ["Content-Length", "2"],
          ["Content-Length", "3"],
        ],
        [
          ["Content-Length", "2"],
          ["Transfer-Encoding", "chunked"],
        ],
        [["Transfer-Encoding", "chunked, identity"]],
        [["Content-Length", "-1"]],
        [["Content-Length", "abc"]],
      )
      .map((framing) => ({
        what: `conflicting or invalid framing ${JSON.stringify(framing)}`,
        op,
        declared: false,
        request: { ...valid, headers: [...valid.headers, ...framing], body: Buffer.from("{}"), noLength: true },
      })),
  );
};

// ---------------------------------------------------------------------------------------------------------------

export interface RobustnessProperty {
  name: string;
  /** Any operation's bad requests, the operation drawn first. */
  arbitrary: fc.Arbitrary<Bad>;
  /** One bad request for each operation the property applies to, so every run tries every operation. */
  examples(seed: number): Bad[];
  /** Its share of the runs. */
  weight: number;
}

function property(name: string, perOperation: PerOperation, weight: number): RobustnessProperty {
  const applicable = operations.filter((op) => perOperation(op) !== undefined);
  return {
    name,
    arbitrary: fc.constantFrom(...applicable).chain((op) => perOperation(op)!),
    examples: (seed) => applicable.map((op, i) => fc.sample(perOperation(op)!, { numRuns: 1, seed: seed + i })[0]!),
    weight,
  };
}

export const PROPERTIES: RobustnessProperty[] = [
  property("bodies broken against the operation's request schema, malformed, truncated, deep, huge or oversized", badBodies, 3),
  property("parameters of the wrong type, out of range, unlisted, non-finite, repeated or missing", badParams, 2),
  property("wrong and odd content types and charsets", badContentTypes, 1),
  property("odd Accept and Prefer headers", badNegotiation, 1),
  property("missing, empty or wrong credentials", badCredentials, 1),
  property("unknown paths and methods, odd bytes in paths and headers, requests Node's parser refuses", badTransport, 2),
];

/** Starts a fresh mock when an earlier fault has left this one answering valid requests differently. */
export async function ensureHealthy(): Promise<void> {
  for (const op of operations.slice(0, 3)) {
    if ((await probe(op)) !== undefined) {
      console.log("[robustness] the mock no longer answers valid requests as before: starting a fresh one");
      mockUrl = await restartPrivateMock();
      return;
    }
  }
}

/** Starts the mock under test and records each operation's valid answer. */
export async function startMockUnderTest(): Promise<void> {
  mockUrl = await startPrivateMock();
  for (const op of operations) {
    const outcome = await sendRaw(mockUrl, validRequest(op), ANSWER_MS);
    if (!outcome.ok) throw new Error(`the valid ${op.operationId} got no answer before the run: ${outcome.failure}`);
    baseline.set(op.operationId, { status: outcome.answer.status, body: outcome.answer.body });
  }
}

export const stopMockUnderTest = stopPrivateMock;

/** Each operation's valid answer before the run. */
export function baselineOf(operationId: string): { status: number; body: string } | undefined {
  return baseline.get(operationId);
}

// The hostile inputs found before, always tried. Accept: invalid goes last: today it takes Prism down for good.
const op = (id: string) => operations.find((o) => o.operationId === id)!;
const labs = op("listLabs");
const link = op("createLinkToken");
const psc = op("getOrderPscInfo");
const listOrders = op("listOrders");
const insurance = op("createInsurance");
const orderParams = listOrders.parameters.filter((p) => p.in === "query" && types(resolve(p.schema))?.includes("integer")).map((p) => String(p.name));

export const HOSTILE: Bad[] = [
  {
    what: "content-type application/json; charset=",
    op: link,
    declared: true,
    request: replaceHeader(validRequest(link), "Content-Type", "application/json; charset="),
  },
  {
    what: "content-type application/json, text/plain",
    op: link,
    declared: true,
    request: replaceHeader(validRequest(link), "Content-Type", "application/json, text/plain"),
  },
  {
    what: "a charset with non-ASCII bytes",
    op: link,
    declared: true,
    request: replaceHeader(validRequest(link), "Content-Type", "application/json; charset=\xe9\xff"),
  },
  {
    what: "Prefer naming an example that does not exist",
    op: labs,
    declared: true,
    request: replaceHeader(validRequest(labs), "Prefer", "code=200, example=no_such_example"),
  },
  { what: "Accept: text/html", op: labs, declared: true, request: replaceHeader(validRequest(labs), "Accept", "text/html") },
  {
    what: "an absolute-form request line with a broken host",
    op: labs,
    declared: false,
    request: { ...validRequest(labs), target: `http://[${validTarget(labs)}` },
  },
  { what: "CONNECT", op: labs, declared: false, request: { ...validRequest(labs), method: "CONNECT", target: "127.0.0.1:1" } },
  { what: "CONNECT to an API path", op: labs, declared: false, request: { ...validRequest(labs), method: "CONNECT" } },
  {
    what: "headers over 16 KB",
    op: labs,
    declared: true,
    expectStatus: 431,
    request: { ...validRequest(labs), headers: [...validRequest(labs).headers, ["X-Padding", "a".repeat(20_000)]] },
  },
  {
    what: "a request target over 16 KB",
    op: labs,
    declared: true,
    expectStatus: 414,
    request: { ...validRequest(labs), target: `${validRequest(labs).target}?zz_padding=${"a".repeat(17_000)}` },
  },
  {
    what: "nesting beyond 64 levels inside a valid body",
    op: link,
    declared: true,
    expectStatus: 400,
    request: {
      ...validRequest(link),
      body: Buffer.from(`{"user_id":"3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f","zz_deep":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}`),
    },
  },
  {
    what: "a control byte in a header",
    op: labs,
    declared: false,
    request: { ...validRequest(labs), headers: [...validRequest(labs).headers, ["X-Odd", "a\x01b"]] },
  },
  { what: "an unknown method", op: labs, declared: false, request: { ...validRequest(labs), method: "FROB" } },
  {
    what: "conflicting length headers",
    op: link,
    declared: false,
    request: {
      ...validRequest(link),
      headers: [...validRequest(link).headers, ["Content-Length", "2"], ["Transfer-Encoding", "chunked"]],
      body: Buffer.from("{}"),
      noLength: true,
    },
  },
  {
    what: "two different content-lengths",
    op: link,
    declared: false,
    request: {
      ...validRequest(link),
      headers: [...validRequest(link).headers, ["Content-Length", "2"], ["Content-Length", "3"]],
      body: Buffer.from("{}"),
      noLength: true,
    },
  },
  {
    what: "Expect: something-else",
    op: labs,
    declared: false,
    request: { ...validRequest(labs), headers: [...validRequest(labs).headers, ["Expect", "something-else"]] },
  },
  ...["1e309", "-1e309", "Infinity"].flatMap((value) =>
    orderParams.map((name) => ({
      what: `${name}=${value}`,
      op: listOrders,
      declared: true,
      request: { ...validRequest(listOrders), target: `${validTarget(listOrders)}${validTarget(listOrders).includes("?") ? "&" : "?"}${name}=${value}` },
    })),
  ),
  {
    what: "radius=1e309",
    op: psc,
    declared: true,
    request: { ...validRequest(psc), target: `${validTarget(psc)}${validTarget(psc).includes("?") ? "&" : "?"}radius=1e309` },
  },
  ...["1e309", "-1e309"].map((number) => ({
    what: `${number} as a number in a JSON body (guarantor.household_size)`,
    op: insurance,
    declared: true,
    request: {
      ...validRequest(insurance),
      body: Buffer.from(JSON.stringify(VALID_CALLS.createInsurance!.body).replace(/"household_size":[^,}]+/, `"household_size":${number}`)),
    },
  })),
  { what: "1e309 in a JSON body, where a string is due", op: link, declared: true, request: { ...validRequest(link), body: Buffer.from('{"user_id":1e309}') } },
  {
    what: "a body shorter than its content-length (must get 408 from a short request timeout)",
    op: link,
    declared: false,
    timeoutMs: SHORT_BODY_MS,
    expectStatus: 408,
    request: { ...validRequest(link), headers: [...validRequest(link).headers, ["Content-Length", "100"]], body: Buffer.from('{"user_id":'), noLength: true },
  },
  { what: "Accept: invalid", op: labs, declared: true, request: replaceHeader(validRequest(labs), "Accept", "invalid") },
];
