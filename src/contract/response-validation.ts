// A response body against what its operation declares for the status: its JSON schema, no body, or an undeclared status.
import type { ValidateFunction } from "ajv/dist/2020.js";
import { compileOnce, createContractAjv, jsonSchemaRef, pathPointer } from "./ajv.ts";
import { bodyField, toDetails, type ErrorDetail } from "./error-details.ts";
import { isObject, type JsonObject } from "./json.ts";
import type { ContractOperation } from "./operations.ts";

export class ResponseValidator {
  readonly #document: JsonObject;
  /** Made on first use: the mock checks only Prism's dynamic and the stateful answers, and starts faster without it. */
  #compile: ((schema: object) => ValidateFunction) | undefined;
  /** Each operation's validators by status, so checking an answer is one lookup (the stateful mock checks every one). */
  readonly #validators = new WeakMap<ContractOperation, Map<number, ValidateFunction | null | string>>();

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
    return validate(body) ? [] : toDetails("body", validate.errors ?? [], bodyField);
  }

  /** The validator of an operation's response for a status; null when it declares no JSON body, a message when it does not declare the status. */
  #validator(operation: ContractOperation, status: number): ValidateFunction | null | string {
    const responses = (operation.operation.responses ?? {}) as JsonObject;
    const key = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined;
    if (key === undefined) return `status ${status} is not declared by ${operation.operationId}`;
    const response = operation.responses[key]!;
    const media = isObject(response.content) ? response.content["application/json"] : undefined;
    if (!isObject(media)) return null;
    this.#compile ??= compileOnce(createContractAjv(this.#document));
    return this.#compile({
      $ref: jsonSchemaRef(responses[key], pathPointer(operation.template, operation.method.toLowerCase(), "responses", key)),
    });
  }
}
