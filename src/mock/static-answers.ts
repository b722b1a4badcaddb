// Makes the mock's table of static answers from the bundled contract: every operation × declared status × named
// example, serialized once, so a request is answered by a lookup (Prism's static mode would send the same bytes).
import type { ContractOperation } from "../contract/operations.ts";
import { deref } from "../contract/operations.ts";
import { isObject, type JsonObject } from "../contract/json.ts";
import { mockBranches, type MockBranch } from "./branches.ts";
import { collectionMarks, type CollectionMarks } from "../contract/collections.ts";
import { encodeText } from "./platform.ts";
import { withNearest } from "../shared/nearest-name.ts";

export interface StaticAnswer {
  status: number;
  example: string;
  body: Uint8Array;
  /** The response's required headers with their examples, as name, value, name, value... (such as Retry-After on a 429). */
  headers: string[];
}

export interface OperationAnswers {
  /** Declared statuses in the contract's order, each with its named examples in order. */
  byStatus: Map<number, Map<string, StaticAnswer>>;
  /** The status answered when the caller chose none and no branch applies: the lowest 2xx, as Prism picks it. */
  defaultStatus: number;
  /** The branches of the document's rules, in order (x-svc-mock-branches). */
  branches: MockBranch[];
  /** Its paged list and filters (x-svc-paging, x-svc-filter), which cut and filter the collection an answer holds. */
  collections: CollectionMarks;
}

/** A caller's choice among the declared answers (from `Prefer`, or a branch of the document's rules). */
export interface Choice {
  code?: number;
  example?: string;
  dynamic?: boolean;
}

/**
 * The headers a response declares required, each with its example: a client may rely on them (a 429's Retry-After),
 * so the mock sends them. Optional ones are left out, since an example could be wrong for the request (405's Allow).
 */
function requiredHeaders(document: JsonObject, response: JsonObject): string[] {
  const headers: string[] = [];
  for (const [name, raw] of Object.entries((response.headers ?? {}) as JsonObject)) {
    const header = deref(document, raw);
    if (header.required !== true) continue;
    const schema = isObject(header.schema) ? deref(document, header.schema) : {};
    const named = isObject(header.examples) ? Object.values(header.examples)[0] : undefined;
    const example = header.example ?? schema.example ?? (named === undefined ? undefined : deref(document, named).value);
    if (example === undefined) throw new Error(`${name}, a required header of a response, has no example for the mock to send`);
    headers.push(name.toLowerCase(), String(example));
  }
  return headers;
}

export function answersOf(document: JsonObject, operation: ContractOperation): OperationAnswers {
  const byStatus = new Map<number, Map<string, StaticAnswer>>();
  for (const [key, response] of Object.entries(operation.responses)) {
    if (!/^\d{3}$/.test(key)) continue;
    const status = Number(key);
    const media = (response.content as JsonObject | undefined)?.["application/json"];
    const headers = requiredHeaders(document, response);
    const examples = new Map<string, StaticAnswer>();
    for (const [name, example] of Object.entries(((isObject(media) ? media.examples : undefined) ?? {}) as JsonObject)) {
      examples.set(name, { status, example: name, body: encodeText(JSON.stringify(deref(document, example).value)), headers });
    }
    byStatus.set(status, examples);
  }
  const statuses = [...byStatus.keys()];
  const defaultStatus = statuses.filter((s) => s >= 200 && s < 300).sort((a, b) => a - b)[0] ?? statuses[0]!;
  return { byStatus, defaultStatus, branches: mockBranches(operation), collections: collectionMarks(document, operation) };
}

/**
 * Parses a Prefer header as Prism reads it (`code=404, example=name, dynamic=true`); throws a message naming what is
 * wrong, which the host answers with its own 400, never an answer the caller did not ask for.
 */
export function parsePrefer(header: string): Choice {
  const choice: Choice = {};
  for (const part of header.split(/[,;]/)) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    const eq = trimmed.indexOf("=");
    const key = (eq < 0 ? trimmed : trimmed.slice(0, eq)).trim().toLowerCase();
    const value =
      eq < 0
        ? ""
        : trimmed
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, "$1");
    if (key === "code") {
      if (!/^\d{3}$/.test(value)) throw new Error(`Prefer code=${value} is not a status code`);
      choice.code = Number(value);
    } else if (key === "example") {
      if (value === "") throw new Error("Prefer example= names no example");
      choice.example = value;
    } else if (key === "dynamic") {
      if (value !== "true" && value !== "false") throw new Error(`Prefer dynamic=${value} is neither true nor false`);
      choice.dynamic = value === "true";
    }
    // Other preferences (return=minimal, respond-async, ...) do not change a mock's answer; RFC 7240 lets a server ignore them.
  }
  return choice;
}

/** Every example an operation declares, by status (`200: connected, pending_provider_mfa; 422: invalid_request`). */
function exampleNames(answers: OperationAnswers): string {
  return [...answers.byStatus]
    .filter(([, examples]) => examples.size > 0)
    .map(([status, examples]) => `${status}: ${[...examples.keys()].join(", ")}`)
    .join("; ");
}

/** The static answer a choice selects, or a message saying why it selects none. */
export function pick(answers: OperationAnswers, operationId: string, choice: Choice): StaticAnswer | string {
  if (choice.code !== undefined) {
    const examples = answers.byStatus.get(choice.code);
    if (examples === undefined) return `${operationId} declares no ${choice.code}; it declares ${[...answers.byStatus.keys()].join(", ")}`;
    if (choice.example === undefined) return examples.values().next().value ?? `${operationId} ${choice.code} has no example`;
    return (
      examples.get(choice.example) ??
      `${operationId} ${choice.code} has no example ${withNearest(choice.example, examples.keys())}; it has ${[...examples.keys()].join(", ")}`
    );
  }
  if (choice.example !== undefined) {
    // The example is looked for in the default answer first, then in every other declared status, in order.
    const order = [answers.defaultStatus, ...[...answers.byStatus.keys()].filter((s) => s !== answers.defaultStatus)];
    for (const status of order) {
      const found = answers.byStatus.get(status)?.get(choice.example);
      if (found) return found;
    }
    const every = [...answers.byStatus.values()].flatMap((examples) => [...examples.keys()]);
    return `${operationId} has no example ${withNearest(choice.example, every)}; it has ${exampleNames(answers)}`;
  }
  return answers.byStatus.get(answers.defaultStatus)?.values().next().value ?? `${operationId} has no example to answer with`;
}
