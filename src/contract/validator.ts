// Validates requests and responses against the bundled contract with Ajv (JSON Schema 2020-12), closing the gaps in
// Prism's own checks: one object over the credential check, request validation and response validation, each in a
// file of its own, for the mock and verify.
import { CredentialCheck } from "./credential-check.ts";
import { Credentials } from "./credentials.ts";
import type { ErrorDetail } from "./error-details.ts";
import type { JsonObject } from "./json.ts";
import type { ContractOperation } from "./operations.ts";
import { readBody, RequestValidator, type RequestInput, type TransportRefusal } from "./request-validation.ts";
import { ResponseValidator } from "./response-validation.ts";
import { unlistedValues, type UnlistedValue } from "./unlisted-values.ts";

export { detailsLine, type ErrorDetail } from "./error-details.ts";
export { isJsonContentType } from "./media-type.ts";
export { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-limits.ts";
export type { RequestInput, TransportRefusal } from "./request-validation.ts";
export type { UnlistedValue } from "./unlisted-values.ts";

export interface RequestVerdict {
  /** Why the body cannot be read at all, if it cannot; `details` is then empty. */
  refusal?: TransportRefusal;
  details: ErrorDetail[];
  /** The parsed JSON body, when there was a valid one. */
  body?: unknown;
}

export class ContractValidator {
  readonly #document: JsonObject;
  readonly #credentials: CredentialCheck;
  readonly #requests: RequestValidator;
  readonly #responses: ResponseValidator;

  constructor(document: JsonObject) {
    this.#document = document;
    this.#credentials = new CredentialCheck(new Credentials(document));
    this.#requests = new RequestValidator(document);
    this.#responses = new ResponseValidator(document);
  }

  /** The security header an operation needs (its first requirement's), by the scheme's definition. */
  credentialHeader(operation: ContractOperation): string | undefined {
    return this.#credentials.header(operation);
  }

  /**
   * Whether a request carries a credential the operation accepts; when it does not, what to say: the header it
   * lacks, and, when it carries another kind of credential instead, that this one is not accepted here.
   */
  credentialRefusal(operation: ContractOperation, headers: RequestInput["headers"]): string | undefined {
    return this.#credentials.refusal(operation, headers);
  }

  /**
   * The request's parameters and body against the contract (the credential is `credentialRefusal`'s job): a body that
   * cannot be read at all is a transport-level refusal; everything else that is wrong is a detail of one 422.
   */
  validateRequest(operation: ContractOperation, input: RequestInput): RequestVerdict {
    const read = readBody(operation, input);
    if ("refusal" in read) return { refusal: read.refusal, details: [] };
    const details = this.validateInput(operation, input, read.body);
    return { details, body: read.body };
  }

  /** Every invalid part of a request whose body was read: parameters first, then the body. */
  validateInput(operation: ContractOperation, input: RequestInput, body: unknown): ErrorDetail[] {
    return this.#requests.validateInput(operation, input, body);
  }

  /**
   * The values a valid request gives a non-exhaustive enumeration that it does not list: accepted, as the contract
   * says, but worth telling the caller (a typo looks the same as a value the service added).
   */
  unlistedValues(operation: ContractOperation, input: RequestInput, body: unknown): UnlistedValue[] {
    return unlistedValues(this.#document, operation, input, body);
  }

  /**
   * The body as JSON, or the transport-level refusal of it. Only operations that declare a body read one (a body sent
   * to any other is ignored, as most servers do); an empty body is `undefined`, left to validation.
   */
  readBody(operation: ContractOperation, input: RequestInput): { body: unknown } | { refusal: TransportRefusal } {
    return readBody(operation, input);
  }

  /** Errors in a response body against the operation's declared response for that status. */
  validateResponse(operation: ContractOperation, status: number, body: unknown): ErrorDetail[] {
    return this.#responses.validate(operation, status, body);
  }
}
