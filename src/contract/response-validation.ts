// A response body against what its operation declares for the status: its JSON schema, no body, or an undeclared status.
// What is wrong is bounded whatever the body: a body is checked first by a validator that stops at its first problem,
// and only a body small enough has every problem collected (Ajv makes an object per problem, so a 16 MiB list of wrong
// items would make millions), of which the first few are named and the rest counted.
import type { ValidateFunction } from "ajv/dist/2020.js";
import { compileOnce, createContractAjv, jsonSchemaRef, pathPointer } from "./ajv.ts";
import { bodyField, toDetails, type ErrorDetail } from "./error-details.ts";
import { isObject, type JsonObject } from "./json.ts";
import type { ContractOperation } from "./operations.ts";

/** The most values (objects, arrays and scalars) of a body whose every problem is collected; past it, its first is named. */
export const ALL_PROBLEMS_VALUES = 10_000;
/** The most problems of one body named one by one; the rest are counted. */
export const NAMED_PROBLEMS = 20;

/** Whether a JSON value holds more than `limit` values, found without walking more than that many. */
function holdsMoreThan(value: unknown, limit: number): boolean {
  let count = 1;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    const children = Array.isArray(node) ? node : isObject(node) ? Object.values(node) : [];
    if ((count += children.length) > limit) return true;
    for (const child of children) if (typeof child === "object" && child !== null) stack.push(child);
  }
  return false;
}

/** The schema's validators: one that stops at the first problem (compiled first), one that collects them all (on need). */
interface Validators {
  first: ValidateFunction;
  all?: ValidateFunction;
  schema: object;
}

export class ResponseValidator {
  readonly #document: JsonObject;
  /** Made on first use: the mock checks only Prism's dynamic and the stateful answers, and starts faster without it. */
  #compileFirst: ((schema: object) => ValidateFunction) | undefined;
  #compileAll: ((schema: object) => ValidateFunction) | undefined;
  /** Each operation's validators by status, so checking an answer is one lookup (the stateful mock checks every one). */
  readonly #validators = new WeakMap<ContractOperation, Map<number, Validators | null | string>>();

  constructor(document: JsonObject) {
    this.#document = document;
  }

  /** Errors in a response body against the operation's declared response for that status. */
  validate(operation: ContractOperation, status: number, body: unknown): ErrorDetail[] {
    let byStatus = this.#validators.get(operation);
    if (byStatus === undefined) this.#validators.set(operation, (byStatus = new Map()));
    let validate = byStatus.get(status);
    if (validate === undefined) byStatus.set(status, (validate = this.#validator(operation, status)));
    if (typeof validate === "string") return [{ location: "body", field: "", message: validate }];
    if (validate === null) return body === undefined ? [] : [{ location: "body", field: "", message: "has a body the contract does not declare" }];
    if (validate.first(body)) return [];
    if (holdsMoreThan(body, ALL_PROBLEMS_VALUES)) {
      const first = toDetails("body", validate.first.errors ?? [], bodyField);
      return [
        ...first,
        { location: "body", field: "", message: `holds more than ${ALL_PROBLEMS_VALUES} values: its first problem is named, the rest not looked for` },
      ];
    }
    validate.all ??= (this.#compileAll ??= compileOnce(createContractAjv(this.#document)))(validate.schema);
    validate.all(body);
    const details = toDetails("body", validate.all.errors ?? [], bodyField);
    if (details.length <= NAMED_PROBLEMS) return details;
    return [...details.slice(0, NAMED_PROBLEMS), { location: "body", field: "", message: `has ${details.length - NAMED_PROBLEMS} more problems, not named` }];
  }

  /** The validators of an operation's response for a status; null when it declares no JSON body, a message when it does not declare the status. */
  #validator(operation: ContractOperation, status: number): Validators | null | string {
    const responses = (operation.operation.responses ?? {}) as JsonObject;
    const key = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined;
    if (key === undefined) return `status ${status} is not declared by ${operation.operationId}`;
    const response = operation.responses[key]!;
    const media = isObject(response.content) ? response.content["application/json"] : undefined;
    if (!isObject(media)) return null;
    this.#compileFirst ??= compileOnce(createContractAjv(this.#document, { allErrors: false }));
    const schema = { $ref: jsonSchemaRef(responses[key], pathPointer(operation.template, operation.method.toLowerCase(), "responses", key)) };
    return { first: this.#compileFirst(schema), schema };
  }
}
