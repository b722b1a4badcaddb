// A request against its operation: the body read as JSON (or refused at the transport level: 415, 400), then each
// parameter and the body against their schemas as published (an open enumeration takes any string, in requests too).
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { anchorRefs, compileOnce, createContractAjv, jsonSchemaRef, pathPointer } from "./ajv.ts";
import { bodyField, toDetails, type ErrorDetail } from "./error-details.ts";
import type { JsonObject } from "./json.ts";
import { hasNonFinite, MAX_JSON_DEPTH, nestsDeeperThan } from "./json-limits.ts";
import { isJsonContentType } from "./media-type.ts";
import { deref, type ContractOperation } from "./operations.ts";

export interface RequestInput {
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body text; undefined or empty when the request had none. */
  body: string | undefined;
  contentType: string | undefined;
}

/** A transport-level refusal of the body (every operation declares these): not JSON at all, or not sent as JSON. */
export interface TransportRefusal {
  status: 400 | 415;
  code: "invalid_json" | "unsupported_media_type";
  message: string;
  details?: ErrorDetail[];
}

/**
 * The body as JSON, or the transport-level refusal of it. Only operations that declare a body read one (a body sent
 * to any other is ignored, as most servers do); an empty body is `undefined`, left to validation.
 */
export function readBody(operation: ContractOperation, input: RequestInput): { body: unknown } | { refusal: TransportRefusal } {
  const text = input.body ?? "";
  if (operation.operation.requestBody === undefined || text.trim() === "") return { body: undefined };
  if (!isJsonContentType(input.contentType)) {
    const sent = input.contentType === undefined ? "no Content-Type" : `Content-Type ${input.contentType}`;
    return {
      refusal: {
        status: 415,
        code: "unsupported_media_type",
        message: `The request body must be sent as Content-Type application/json (in UTF-8), not with ${sent}.`,
      },
    };
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return {
      refusal: {
        status: 400,
        code: "invalid_json",
        message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
        details: [{ location: "body", field: "", message: `nests more than ${MAX_JSON_DEPTH} levels deep` }],
      },
    };
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    return {
      refusal: {
        status: 400,
        code: "invalid_json",
        message: "The request body is not well-formed JSON.",
        details: [{ location: "body", field: "", message: "is not valid JSON" }],
      },
    };
  }
}

export class RequestValidator {
  readonly #document: JsonObject;
  readonly #compileBody: (schema: object) => ValidateFunction;
  readonly #compileParameter: (schema: object) => ValidateFunction;
  /** Compiled once per parameter object: building the key of a compile (a clone and a JSON text of the schema) costs more than validating. */
  readonly #parameterValidators = new WeakMap<JsonObject, ValidateFunction>();
  readonly #bodyValidators = new WeakMap<ContractOperation, ValidateFunction>();

  constructor(document: JsonObject) {
    this.#document = document;
    const requests: Ajv2020 = createContractAjv(document);
    // Query and path values arrive as text: "25" must count as the integer 25, "a" as the list ["a"].
    const parameters: Ajv2020 = createContractAjv(document, { coerceTypes: "array" });
    this.#compileBody = compileOnce(requests);
    this.#compileParameter = compileOnce(parameters);
  }

  /** Every invalid part of a request whose body was read: parameters first, then the body. */
  validateInput(operation: ContractOperation, input: RequestInput, body: unknown): ErrorDetail[] {
    const details: ErrorDetail[] = [];
    for (const parameter of operation.parameters) {
      details.push(...this.#validateParameter(parameter, input));
    }
    this.#validateBody(operation, body, details);
    return details;
  }

  #validateParameter(parameter: JsonObject, input: RequestInput): ErrorDetail[] {
    const name = String(parameter.name);
    const location = parameter.in as ErrorDetail["location"];
    const schema = deref(this.#document, parameter.schema);
    let raw: string | string[] | undefined;
    if (location === "path") raw = input.pathParams[name];
    else if (location === "query") {
      const values = input.query.getAll(name);
      if (values.length > 1 && schema.type !== "array") return [{ location, field: name, message: "must be given once" }];
      raw = values.length === 0 ? undefined : schema.type === "array" ? values : values[0];
    } else if (location === "header") raw = input.headers[name.toLowerCase()];
    if (raw === undefined) {
      return parameter.required === true ? [{ location, field: name, message: "is required" }] : [];
    }
    let validate = this.#parameterValidators.get(parameter);
    if (validate === undefined) {
      validate = this.#compileParameter({
        type: "object",
        properties: { value: anchorRefs(structuredClone(parameter.schema)) as object },
      });
      this.#parameterValidators.set(parameter, validate);
    }
    const holder = { value: raw };
    // Coercion reads "1e309" and "Infinity" as numbers, which JSON Schema's integer and number then accept.
    if (validate(holder)) return hasNonFinite(holder.value) ? [{ location, field: name, message: "must be a finite number" }] : [];
    return toDetails(location, validate.errors ?? [], () => name);
  }

  #validateBody(operation: ContractOperation, body: unknown, details: ErrorDetail[]): void {
    const requestBody = operation.requestBody;
    if (requestBody === undefined) return;
    if (body === undefined) {
      if (requestBody.required === true) details.push({ location: "body", field: "", message: "a JSON body is required" });
      return;
    }
    let validate = this.#bodyValidators.get(operation);
    if (validate === undefined) {
      validate = this.#compileBody({
        $ref: jsonSchemaRef(operation.operation.requestBody, pathPointer(operation.template, operation.method.toLowerCase(), "requestBody")),
      });
      this.#bodyValidators.set(operation, validate);
    }
    if (!validate(body)) details.push(...toDetails("body", validate.errors ?? [], bodyField));
    // JSON.parse reads 1e309 as Infinity, which JSON Schema's integer and number accept.
    else if (hasNonFinite(body)) details.push({ location: "body", field: "", message: "has a number too large to represent (it must be finite)" });
  }
}
