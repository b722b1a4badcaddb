// The bundled contract's operations, each with its parameters, request body and responses resolved once (references
// followed) and its security decoded, and `$ref` following for what is not resolved yet.
import { isObject, type JsonObject } from "./json.ts";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface ContractOperation {
  method: string;
  /** The path template as the contract writes it, such as `/v3/order/{order_id}/psc/info`. */
  template: string;
  operationId: string;
  operation: JsonObject;
  /** Other paths the operation answers at (`x-svc-path-aliases` of its path item). */
  aliases: string[];
  /** Path-item and operation parameters, with references followed. */
  parameters: JsonObject[];
  /** The security scheme names of the first requirement; empty when the operation needs none. */
  securitySchemes: string[];
  /** Every requirement the operation accepts (any one will do), each as its scheme names: management operations take the management key or the deprecated org key. */
  securityAlternatives: string[][];
  /** The request body, its reference followed; undefined when the operation takes none. */
  requestBody: JsonObject | undefined;
  /** The declared responses by their key (`200`, `4XX`, `default`) in the contract's order, each reference followed. */
  responses: Record<string, JsonObject>;
}

/** Follows local `$ref`s (`#/components/...`) until it reaches a value that is not a reference. */
export function deref<T = JsonObject>(document: JsonObject, node: unknown): T {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32 || !current.$ref.startsWith("#/")) throw new Error(`cannot follow $ref ${String(current.$ref)}`);
    current = current.$ref
      .slice(2)
      .split("/")
      .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((parent, key) => (isObject(parent) ? parent[key] : undefined), document);
  }
  return current as T;
}

export function listOperations(document: JsonObject): ContractOperation[] {
  const rootSecurity = (document.security ?? []) as Record<string, string[]>[];
  const operations: ContractOperation[] = [];
  for (const [template, rawPathItem] of Object.entries((document.paths ?? {}) as Record<string, unknown>)) {
    const pathItem = deref(document, rawPathItem);
    const shared = ((pathItem.parameters ?? []) as unknown[]).map((p) => deref(document, p));
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const own = ((operation.parameters ?? []) as unknown[]).map((p) => deref(document, p));
      const ownKeys = new Set(own.map((p) => `${String(p.in)}:${String(p.name)}`));
      const security = (operation.security ?? rootSecurity) as Record<string, string[]>[];
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: String(operation.operationId),
        operation,
        aliases: (pathItem["x-svc-path-aliases"] ?? []) as string[],
        parameters: [...shared.filter((p) => !ownKeys.has(`${String(p.in)}:${String(p.name)}`)), ...own],
        securitySchemes: Object.keys(security[0] ?? {}),
        securityAlternatives: security.map((requirement) => Object.keys(requirement)),
        requestBody: operation.requestBody === undefined ? undefined : deref(document, operation.requestBody),
        responses: Object.fromEntries(Object.entries((operation.responses ?? {}) as JsonObject).map(([key, response]) => [key, deref(document, response)])),
      });
    }
  }
  return operations;
}
