// What the contract declares of an event's delivery (the bundle's `webhooks`): the headers it must carry and the schema
// its payload keeps, so that verify judges a delivery by the contract rather than by what the parser happens to read.
import type { IncomingHttpHeaders } from "node:http";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { anchorRefs, compileOnce, createContractAjv } from "../../contract/ajv.ts";
import { bodyField, detailsLine, toDetails } from "../../contract/error-details.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import { deref } from "../../contract/operations.ts";

interface HeaderRule {
  name: string;
  validate: ValidateFunction | undefined;
}

export class EventContract {
  readonly #document: JsonObject;
  readonly #compile: (schema: object) => ValidateFunction;

  constructor(document: JsonObject) {
    this.#document = document;
    this.#compile = compileOnce(createContractAjv(document));
  }

  /** Whether the contract defines this kind of event (the kind a delivery names: `constructor` is none, not Object's). */
  defines(kind: string): boolean {
    return isObject(this.#document.webhooks) && Object.hasOwn(this.#document.webhooks, kind);
  }

  /** The required headers a delivery of the kind lacks, or whose value breaks its schema (never quoting the value: one is the signature). */
  headerProblems(kind: string, headers: IncomingHttpHeaders): string[] {
    return this.#headerRules(kind).flatMap(({ name, validate }) => {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return [`${name} is missing`];
      const text = Array.isArray(value) ? value.join(", ") : value;
      if (validate === undefined || validate(text)) return [];
      return [detailsLine(toDetails("header", validate.errors ?? [], () => name))];
    });
  }

  /** What is wrong with a payload against the kind's schema, a field each (`/user_id is required`). */
  payloadProblems(kind: string, payload: unknown): string[] {
    const schema = this.#media(kind).schema;
    if (!isObject(schema)) return [`the contract declares no JSON schema for ${kind}`];
    const validate = this.#compile(anchorRefs(structuredClone(schema)));
    if (validate(payload)) return [];
    return toDetails("body", validate.errors ?? [], bodyField).map((detail) => detailsLine([detail]));
  }

  #operation(kind: string): JsonObject {
    const item = deref(this.#document, (this.#document.webhooks as JsonObject)[kind]);
    return deref(this.#document, item.post);
  }

  #headerRules(kind: string): HeaderRule[] {
    const parameters = (this.#operation(kind).parameters ?? []) as unknown[];
    return parameters
      .map((parameter) => deref(this.#document, parameter))
      .filter((parameter) => parameter.in === "header" && parameter.required === true && typeof parameter.name === "string")
      .map((parameter) => ({
        name: parameter.name as string,
        validate: isObject(parameter.schema) ? this.#compile(anchorRefs(structuredClone(parameter.schema))) : undefined,
      }));
  }

  #media(kind: string): JsonObject {
    const body = deref(this.#document, this.#operation(kind).requestBody);
    const media = isObject(body?.content) ? body.content["application/json"] : undefined;
    return isObject(media) ? media : {};
  }
}
