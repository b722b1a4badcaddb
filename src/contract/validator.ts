// Validates requests and responses against the bundled contract with Ajv (JSON Schema 2020-12), closing the gaps in Prism's own checks.
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { anchorRefs, CONTRACT_ID, createContractAjv } from "./ajv.ts";
import { Credentials } from "./credentials.ts";
import { deref, type ContractOperation } from "./operations.ts";
import { isObject, type JsonObject } from "./json.ts";
import { closeNonExhaustiveEnums } from "./open-enums.ts";

export interface ErrorDetail {
  location: "path" | "query" | "header" | "body";
  field: string;
  message: string;
}

/** Details as one line (`/user_id is required; /created_on must be string`), for a log line or a header. */
export function detailsLine(details: Pick<ErrorDetail, "field" | "message">[]): string {
  return details.map((detail) => `${detail.field || "/"} ${detail.message}`).join("; ");
}

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

export interface RequestVerdict {
  /** Why the body cannot be read at all, if it cannot; `details` is then empty. */
  refusal?: TransportRefusal;
  details: ErrorDetail[];
  /** The parsed JSON body, when there was a valid one. */
  body?: unknown;
}

/**
 * Whether a Content-Type header is exactly one JSON media type (`application/json` or `application/<x>+json`) with
 * well-formed parameters and, if it names a charset, UTF-8: JSON text is UTF-8 (RFC 8259), and a header that lists
 * several types, names no charset after `charset=`, or another one, says the body is not what the mock can read.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  // Media type names are case-insensitive (RFC 9110, 8.3.1): APPLICATION/JSON is application/json.
  const match = /^\s*application\/([A-Za-z0-9!#$&^_.+-]+)\s*((?:;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"(?:[^"\\\x00-\x1f\x7f-\uffff]|\\.)*")\s*)*)$/i.exec(header);
  if (!match || !(match[1]!.toLowerCase() === "json" || match[1]!.toLowerCase().endsWith("+json"))) return false;
  for (const [, name, value] of match[2]!.matchAll(/;\s*([^=\s]+)=("(?:[^"\\]|\\.)*"|[^;\s]+)/g)) {
    if (name!.toLowerCase() === "charset" && value!.replace(/^"(.*)"$/, "$1").toLowerCase() !== "utf-8") return false;
  }
  return true;
}

/** Whether a value holds a number that is not finite anywhere inside it; iterative, so no nesting can overflow it. */
function hasNonFinite(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "number" && !Number.isFinite(next)) return true;
    if (Array.isArray(next)) pending.push(...next);
    else if (isObject(next)) pending.push(...Object.values(next));
  }
  return false;
}

/** How deeply a JSON body may nest: far beyond any body of the contract, far below what recursion anywhere could overflow. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text opens more than `limit` arrays or objects inside each other (brackets in strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}

function pointerFor(template: string, ...rest: string[]): string {
  const escape = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");
  return ["#", "paths", escape(template), ...rest.map(escape)].join("/");
}

/** Where the JSON schema of a request body or response lives, whether it is inline or a component. */
function jsonSchemaRef(node: unknown, inlinePointer: string): string {
  const base = isObject(node) && typeof node.$ref === "string" ? node.$ref : inlinePointer;
  return `${CONTRACT_ID}${base}/content/application~1json/schema`;
}

function describe(error: ErrorObject): string {
  if (error.keyword === "enum") return `must be one of: ${(error.params.allowedValues as unknown[]).join(", ")}`;
  if (error.keyword === "required") return "is required";
  return error.message ?? "is invalid";
}

/** One detail per field: the most specific error, not the anyOf and null-branch noise around it. */
function toDetails(location: ErrorDetail["location"], errors: ErrorObject[], fieldOf: (error: ErrorObject) => string): ErrorDetail[] {
  const byField = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const field = fieldOf(error);
    byField.set(field, [...(byField.get(field) ?? []), error]);
  }
  return [...byField].map(([field, fieldErrors]) => {
    const telling = fieldErrors.filter((e) => e.keyword !== "anyOf" && !(e.keyword === "type" && e.params.type === "null"));
    const chosen = telling.find((e) => e.keyword === "enum") ?? telling[0] ?? fieldErrors[0]!;
    return { location, field, message: describe(chosen) };
  });
}

function bodyField(error: ErrorObject): string {
  return error.keyword === "required" ? `${error.instancePath}/${String(error.params.missingProperty)}` : error.instancePath;
}

export class ContractValidator {
  readonly #document: JsonObject;
  readonly #requests: Ajv2020;
  readonly #parameters: Ajv2020;
  #responses: Ajv2020 | undefined;
  readonly #cache = new Map<string, ValidateFunction>();
  /** Compiled once per parameter object: building the key of #compile (a clone and a JSON text of the schema) costs more than validating. */
  readonly #parameterValidators = new WeakMap<JsonObject, ValidateFunction>();
  readonly #bodyValidators = new WeakMap<ContractOperation, ValidateFunction>();
  /** Each operation's response validators by status, so checking an answer is one lookup (the stateful mock checks every one). */
  readonly #responseValidators = new WeakMap<ContractOperation, Map<number, ValidateFunction | null | string>>();
  /** The security headers of each operation's alternatives, lower-case, worked out once. */
  readonly #acceptedHeaders = new WeakMap<ContractOperation, string[][]>();
  readonly #credentials: Credentials;

  constructor(document: JsonObject) {
    this.#document = document;
    this.#credentials = new Credentials(document);
    const closed = closeNonExhaustiveEnums(document);
    this.#requests = createContractAjv(closed);
    // Query and path values arrive as text: "25" must count as the integer 25, "a" as the list ["a"].
    this.#parameters = createContractAjv(closed, { coerceTypes: "array" });
    // The responses' validator is made on first use: the mock checks only Prism's dynamic answers, and starts faster without it.
  }

  #compile(ajv: Ajv2020, kind: string, schema: object): ValidateFunction {
    const key = `${kind} ${JSON.stringify(schema)}`;
    let validate = this.#cache.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      this.#cache.set(key, validate);
    }
    return validate;
  }

  /** The header of a security scheme, lower-case. */
  #schemeHeader(name: string): string {
    const credential = this.#credentials.scheme(name);
    if (credential === undefined) throw new Error(`no security scheme ${name} in the contract`);
    return credential.headerKey;
  }

  /** The security header an operation needs (its first requirement's), by the scheme's definition. */
  credentialHeader(operation: ContractOperation): string | undefined {
    const name = operation.securitySchemes[0];
    return name === undefined ? undefined : this.#schemeHeader(name);
  }

  /**
   * Whether a request carries a credential the operation accepts; when it does not, what to say: the header it
   * lacks, and, when it carries another kind of credential instead, that this one is not accepted here.
   */
  credentialRefusal(operation: ContractOperation, headers: RequestInput["headers"]): string | undefined {
    if (operation.securityAlternatives.length === 0) return undefined;
    const present = (header: string) => {
      const value = headers[header];
      return value !== undefined && value !== "";
    };
    let accepted = this.#acceptedHeaders.get(operation);
    if (accepted === undefined) {
      accepted = operation.securityAlternatives.map((names) => names.map((name) => this.#schemeHeader(name)));
      this.#acceptedHeaders.set(operation, accepted);
    }
    if (accepted.some((headersOfOne) => headersOfOne.every(present))) return undefined;
    const wanted = accepted.map((headersOfOne) => headersOfOne.join(" and ")).join(", or ");
    const acceptedHeaders = new Set(accepted.flat());
    const others = this.#credentials.headerKeys().filter((header) => !acceptedHeaders.has(header) && present(header));
    return others.length === 0
      ? `The ${wanted} header is missing.`
      : `This operation takes ${wanted}; ${others.join(" and ")} is another kind of credential and is not accepted here.`;
  }

  /**
   * The request's parameters and body against the contract (the credential is `credentialRefusal`'s job): a body that
   * cannot be read at all is a transport-level refusal; everything else that is wrong is a detail of one 422.
   */
  validateRequest(operation: ContractOperation, input: RequestInput): RequestVerdict {
    const read = this.readBody(operation, input);
    if ("refusal" in read) return { refusal: read.refusal, details: [] };
    const details = this.validateInput(operation, input, read.body);
    return { details, body: read.body };
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
      validate = this.#compile(this.#parameters, "parameter", {
        type: "object",
        properties: { value: anchorRefs(closeNonExhaustiveEnums(parameter.schema)) as object },
      });
      this.#parameterValidators.set(parameter, validate);
    }
    const holder = { value: raw };
    // Coercion reads "1e309" and "Infinity" as numbers, which JSON Schema's integer and number then accept.
    if (validate(holder)) return hasNonFinite(holder.value) ? [{ location, field: name, message: "must be a finite number" }] : [];
    return toDetails(location, validate.errors ?? [], () => name);
  }

  /**
   * The body as JSON, or the transport-level refusal of it. Only operations that declare a body read one (a body sent
   * to any other is ignored, as most servers do); an empty body is `undefined`, left to validation.
   */
  readBody(operation: ContractOperation, input: RequestInput): { body: unknown } | { refusal: TransportRefusal } {
    const text = input.body ?? "";
    if (operation.operation.requestBody === undefined || text.trim() === "") return { body: undefined };
    if (!isJsonContentType(input.contentType)) {
      const sent = input.contentType === undefined ? "no Content-Type" : `Content-Type ${input.contentType}`;
      return {
        refusal: { status: 415, code: "unsupported_media_type", message: `The request body must be sent as Content-Type application/json (in UTF-8), not with ${sent}.` },
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

  #validateBody(operation: ContractOperation, body: unknown, details: ErrorDetail[]): unknown {
    const requestBody = operation.operation.requestBody === undefined ? undefined : deref(this.#document, operation.operation.requestBody);
    if (requestBody === undefined) return undefined;
    if (body === undefined) {
      if (requestBody.required === true) details.push({ location: "body", field: "", message: "a JSON body is required" });
      return undefined;
    }
    let validate = this.#bodyValidators.get(operation);
    if (validate === undefined) {
      validate = this.#compile(this.#requests, "body", {
        $ref: jsonSchemaRef(operation.operation.requestBody, pointerFor(operation.template, operation.method.toLowerCase(), "requestBody")),
      });
      this.#bodyValidators.set(operation, validate);
    }
    if (!validate(body)) details.push(...toDetails("body", validate.errors ?? [], bodyField));
    // JSON.parse reads 1e309 as Infinity, which JSON Schema's integer and number accept.
    else if (hasNonFinite(body)) details.push({ location: "body", field: "", message: "has a number too large to represent (it must be finite)" });
    return body;
  }

  /** Errors in a response body against the operation's declared response for that status. */
  validateResponse(operation: ContractOperation, status: number, body: unknown): ErrorDetail[] {
    let byStatus = this.#responseValidators.get(operation);
    if (byStatus === undefined) this.#responseValidators.set(operation, (byStatus = new Map()));
    let validate = byStatus.get(status);
    if (validate === undefined) byStatus.set(status, (validate = this.#responseValidator(operation, status)));
    if (typeof validate === "string") return [{ location: "body", field: "", message: validate }];
    if (validate === null) return body === undefined ? [] : [{ location: "body", field: "", message: "has a body the contract does not declare" }];
    return validate(body) ? [] : toDetails("body", validate.errors ?? [], bodyField);
  }

  /** The validator of an operation's response for a status; null when it declares no JSON body, a message when it does not declare the status. */
  #responseValidator(operation: ContractOperation, status: number): ValidateFunction | null | string {
    const responses = (operation.operation.responses ?? {}) as JsonObject;
    const key = String(status) in responses ? String(status) : "default" in responses ? "default" : undefined;
    if (key === undefined) return `status ${status} is not declared by ${operation.operationId}`;
    const response = deref(this.#document, responses[key]);
    const media = isObject(response.content) ? response.content["application/json"] : undefined;
    if (!isObject(media)) return null;
    this.#responses ??= createContractAjv(this.#document);
    return this.#compile(this.#responses, "response", {
      $ref: jsonSchemaRef(responses[key], pointerFor(operation.template, operation.method.toLowerCase(), "responses", key)),
    });
  }
}
