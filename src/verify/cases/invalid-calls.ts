// Makes a few invalid calls per operation from the contract (never a hand-kept list): a path or query parameter that
// breaks its schema, a body missing a field, with a field of the wrong type, or missing altogether. Each is checked
// to be invalid by ContractValidator before it is offered, so the generator cannot send a valid call by accident.
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import type { ContractValidator } from "../../contract/validator.ts";
import { refusedByContract, type Call, type Credential } from "../calls.ts";

export interface InvalidCall {
  /** What is wrong with it, as the check names it: `query page=0`, `body without client_user_id`. */
  what: string;
  call: Call;
}

/** At most this many per operation: enough to see that input is checked, few enough to be gentle on a shared server. */
export const MAX_INVALID_CALLS = 3;

interface Breaking {
  value: unknown;
}

/**
 * Values that break a parameter's schema, most telling first. Only closed enumerations give an unlisted value: a
 * non-exhaustive one (x-svc-non-exhaustive) takes any string, as the contract says and the mock does, so an unlisted
 * value breaks nothing (the service may still refuse one it does not support).
 */
function breakingValues(document: JsonObject, raw: unknown): Breaking[] {
  const schema = deref(document, raw);
  if (!isObject(schema) || schema["x-svc-non-exhaustive"] === true) return [];
  if (schema.type === "array") return breakingValues(document, schema.items).map(({ value }) => ({ value: [value] }));
  const values: Breaking[] = [];
  if (Array.isArray(schema.enum)) {
    const numbers = schema.enum.filter((item): item is number => typeof item === "number");
    values.push({ value: numbers.length > 0 ? Math.max(...numbers) + 1 : "not_a_listed_value" });
  }
  if (schema.format === "uuid") values.push({ value: "not-a-uuid" });
  if (schema.format === "date") values.push({ value: "not-a-date" });
  if (schema.format === "date-time") values.push({ value: "not-a-date-time" });
  if (typeof schema.minimum === "number") values.push({ value: schema.minimum - 1 });
  if (typeof schema.maximum === "number") values.push({ value: schema.maximum + 1 });
  if (schema.type === "integer" || schema.type === "number") values.push({ value: "not-a-number" });
  if (schema.type === "boolean") values.push({ value: "not-a-boolean" });
  if (typeof schema.pattern === "string") values.push({ value: "Not Valid!" });
  return values;
}

/** A value of another JSON type than the one given, for a body field. */
function wrongType(value: unknown): unknown {
  if (typeof value === "string") return 12345;
  if (typeof value === "number") return "not-a-number";
  if (typeof value === "boolean") return "not-a-boolean";
  if (Array.isArray(value)) return "not-an-array";
  if (isObject(value)) return "not-an-object";
  return 12345;
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Every way, per kind, to break one part of a valid call; the first of each kind is the one most likely to be telling. */
function candidates(document: JsonObject, op: ContractOperation, valid: Call): InvalidCall[][] {
  const byLocation = (location: "path" | "query"): InvalidCall[] =>
    op.parameters
      .filter((parameter) => parameter.in === location)
      .flatMap((parameter) => {
        const name = String(parameter.name);
        // One value per parameter: variety across parameters tells more than three ways to break one.
        const first = breakingValues(document, parameter.schema)[0];
        if (first === undefined) return [];
        const call: Call = structuredClone(valid);
        if (location === "path") call.path[name] = String(first.value);
        else call.query[name] = first.value;
        return [{ what: `${location} ${name}=${describeValue(first.value)}`, call }];
      });
  const missing: InvalidCall[] = [];
  const retyped: InvalidCall[] = [];
  if (isObject(valid.body)) {
    const fields = Object.keys(valid.body);
    const required = new Set(requiredFields(document, op));
    // Required fields first: leaving out an optional one is valid, and the validator would drop that candidate anyway.
    for (const field of [...fields.filter((f) => required.has(f)), ...fields.filter((f) => !required.has(f))]) {
      const call: Call = structuredClone(valid);
      delete (call.body as JsonObject)[field];
      missing.push({ what: `body without ${field}`, call });
    }
    for (const field of fields) {
      const call: Call = structuredClone(valid);
      const value = wrongType((valid.body as JsonObject)[field]);
      (call.body as JsonObject)[field] = value;
      retyped.push({ what: `body ${field}=${JSON.stringify(value)}`, call });
    }
  }
  const none: InvalidCall[] = [];
  if (valid.body !== undefined && op.requestBody?.required === true) {
    none.push({ what: "no body", call: { path: { ...valid.path }, query: { ...valid.query } } });
  }
  return [byLocation("path"), byLocation("query"), missing, retyped, none];
}

function requiredFields(document: JsonObject, op: ContractOperation): string[] {
  const requestBody = op.requestBody;
  const media = isObject(requestBody?.content) ? requestBody.content["application/json"] : undefined;
  const schema = isObject(media) ? deref(document, media.schema) : undefined;
  return Array.isArray(schema?.required) ? (schema.required as string[]) : [];
}

/**
 * Up to MAX_INVALID_CALLS invalid calls for an operation, each breaking one part of its valid call: taken in turn from
 * the path, the query, a missing field, a retyped field and a missing body, so one of each is tried before a second of any; only calls the validator refuses.
 */
export function invalidCalls(
  document: JsonObject,
  validator: ContractValidator,
  op: ContractOperation,
  valid: Call,
  credential: Credential | undefined,
): InvalidCall[] {
  const isInvalid = ({ call }: InvalidCall) => refusedByContract(validator, op, call, credential);
  const kinds = candidates(document, op, valid).map((list) => list.filter(isInvalid));
  const chosen: InvalidCall[] = [];
  for (let round = 0; chosen.length < MAX_INVALID_CALLS && kinds.some((list) => list.length > round); round++) {
    for (const list of kinds) {
      const next = list[round];
      if (next !== undefined && chosen.length < MAX_INVALID_CALLS) chosen.push(next);
    }
  }
  return chosen;
}
