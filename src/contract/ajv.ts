// Makes Ajv (JSON Schema 2020-12, with formats) validators over the bundled contract, for the mock host and the tests.
import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { isObject, walkObjects } from "./json.ts";

// ajv-formats is CommonJS; under ESM its function is the default export's default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

/** The id under which the contract is added, so `contract.json#/components/...` reaches any part of it. */
export const CONTRACT_ID = "contract.json";

/** An Ajv holding the contract (or a variant of it); OpenAPI keywords such as `example` are ignored. */
export function createContractAjv(contract: object, options: Options = {}): Ajv2020 {
  // validateSchema: false, as the linters already hold the contract to OpenAPI's schema dialect: checking it again
  // against JSON Schema's meta-schema compiled that meta-schema and walked the whole contract in every Ajv, about a
  // third of the mock's start.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, ...options });
  addFormats(ajv);
  ajv.addSchema(contract, CONTRACT_ID);
  return ajv;
}

/** Points a copied schema's local `$ref`s (`#/...`) into the contract, in place. */
export function anchorRefs<T>(schema: T): T {
  walkObjects(schema, (node) => {
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) node.$ref = `${CONTRACT_ID}${node.$ref}`;
  });
  return schema;
}

/** Compiles each distinct schema once for an Ajv: operations that share a schema share its validator. */
export function compileOnce(ajv: Ajv2020): (schema: object) => ValidateFunction {
  const cache = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validate = cache.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      cache.set(key, validate);
    }
    return validate;
  };
}

/** The JSON Pointer of a place under an operation's path item (`#/paths/~1v2~1user/post/requestBody`). */
export function pathPointer(template: string, ...rest: string[]): string {
  const escape = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");
  return ["#", "paths", escape(template), ...rest.map(escape)].join("/");
}

/** Where the JSON schema of a request body or response lives, whether it is inline or a component. */
export function jsonSchemaRef(node: unknown, inlinePointer: string): string {
  const base = isObject(node) && typeof node.$ref === "string" ? node.$ref : inlinePointer;
  return `${CONTRACT_ID}${base}/content/application~1json/schema`;
}
