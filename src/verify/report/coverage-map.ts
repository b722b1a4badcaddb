// What verify's requests covered, per operation: the statuses it saw beside those the contract declares, and the
// inputs (path and query parameters, top-level body fields) it sent beside those the operation takes; the report draws it.
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import type { Call } from "../calls.ts";

export interface OperationCoverage {
  operationId: string;
  method: string;
  path: string;
  declaredStatuses: string[];
  seenStatuses: number[];
  /** Each input the operation takes (`query size`, `body name`) and whether a request sent it. */
  inputs: { name: string; exercised: boolean }[];
  requests: number;
}

/** The inputs an operation takes: its parameters but credentials, and its JSON body's top-level fields (every branch of a union). */
export function declaredInputs(document: JsonObject, op: ContractOperation): string[] {
  const names = op.parameters.filter((p) => p.in === "path" || p.in === "query").map((p) => `${String(p.in)} ${String(p.name)}`);
  const media = isObject(op.requestBody?.content) ? op.requestBody.content["application/json"] : undefined;
  const fields = new Set<string>();
  const visit = (raw: unknown, depth: number) => {
    const schema = deref(document, raw);
    if (!isObject(schema) || depth > 4) return;
    if (isObject(schema.properties)) Object.keys(schema.properties).forEach((name) => fields.add(name));
    for (const key of ["oneOf", "anyOf", "allOf"] as const)
      if (Array.isArray(schema[key])) (schema[key] as unknown[]).forEach((branch) => visit(branch, depth + 1));
  };
  if (isObject(media)) visit(media.schema, 0);
  return [...names, ...[...fields].map((name) => `body ${name}`)];
}

export class CoverageMap {
  readonly #seen = new Map<string, { statuses: Set<number>; inputs: Set<string>; requests: number }>();

  /** Notes one request of an operation and the status it got (none when no answer came). */
  note(op: ContractOperation, call: Call, status: number | undefined): void {
    const entry = this.#seen.get(op.operationId) ?? { statuses: new Set<number>(), inputs: new Set<string>(), requests: 0 };
    this.#seen.set(op.operationId, entry);
    entry.requests += 1;
    if (status !== undefined) entry.statuses.add(status);
    Object.keys(call.path).forEach((name) => entry.inputs.add(`path ${name}`));
    Object.keys(call.query).forEach((name) => entry.inputs.add(`query ${name}`));
    if (isObject(call.body)) Object.keys(call.body).forEach((name) => entry.inputs.add(`body ${name}`));
  }

  summary(document: JsonObject, operations: ContractOperation[]): OperationCoverage[] {
    return operations.map((op) => {
      const seen = this.#seen.get(op.operationId);
      return {
        operationId: op.operationId,
        method: op.method,
        path: op.template,
        declaredStatuses: Object.keys(op.responses),
        seenStatuses: [...(seen?.statuses ?? [])].sort((a, b) => a - b),
        inputs: declaredInputs(document, op).map((name) => ({ name, exercised: seen?.inputs.has(name) ?? false })),
        requests: seen?.requests ?? 0,
      };
    });
  }
}
