// Matches a request's method and path to an operation of the contract, aliases included (`x-svc-path-aliases`).
import { listOperations, type ContractOperation } from "./operations.ts";
import type { JsonObject } from "./json.ts";

export interface RouteMatch {
  operation: ContractOperation;
  pathParams: Record<string, string>;
}

function templateRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (part.startsWith("{") && part.endsWith("}")) {
        names.push(part.slice(1, -1));
        return "([^/]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { regex: new RegExp(`^${pattern}$`), names };
}

/** A path segment as text; a malformed %-escape stays as sent, so validation reports it instead of a crash. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface Router {
  match(method: string, pathname: string): RouteMatch | undefined;
  /** Whether some operation answers at this path with another method. */
  pathExists(pathname: string): boolean;
  /** The methods the operations at this path answer. */
  methodsAt(pathname: string): string[];
  operations: ContractOperation[];
}

export function createRouter(document: JsonObject): Router {
  const operations = listOperations(document);
  const routes: { regex: RegExp; names: string[]; operation: ContractOperation }[] = [];
  for (const operation of operations) {
    for (const template of [operation.template, ...operation.aliases]) {
      routes.push({ ...templateRegex(template), operation });
    }
  }
  // Literal segments beat parameters (`/v3/lab_tests/labs` before `/v3/lab_tests/{lab_test_id}/...`).
  routes.sort((a, b) => a.names.length - b.names.length);
  // A path seen before is not matched against every route again: the mock answers the same paths many times over.
  const found = new Map<string, typeof routes>();
  const find = (pathname: string) => {
    let matching = found.get(pathname);
    if (matching === undefined) {
      matching = routes.filter((route) => route.regex.test(pathname));
      // Bounded, so a client sending endless distinct paths cannot grow it without limit.
      if (found.size >= 10_000) found.clear();
      found.set(pathname, matching);
    }
    return matching;
  };
  return {
    operations,
    match(method, pathname) {
      for (const route of find(pathname)) {
        if (route.operation.method !== method.toUpperCase()) continue;
        const values = route.regex.exec(pathname)!.slice(1);
        const pathParams = Object.fromEntries(route.names.map((name, i) => [name, decodeSegment(values[i]!)]));
        return { operation: route.operation, pathParams };
      }
      return undefined;
    },
    pathExists: (pathname) => find(pathname).length > 0,
    methodsAt: (pathname) => [...new Set(find(pathname).map((route) => route.operation.method))],
  };
}

/** The path to send upstream: the canonical template filled with the request's path parameters. */
export function canonicalPath(match: RouteMatch): string {
  return match.operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(match.pathParams[name] ?? ""));
}
