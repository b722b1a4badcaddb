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
  /** The operation of the path item the path reaches that takes this method; undefined for a 404 or a 405. */
  match(method: string, pathname: string): RouteMatch | undefined;
  /** Whether some path item of the contract (an alias included) reaches this path, whatever the method. */
  pathExists(pathname: string): boolean;
  /** The methods of the path item the path reaches: a 405's `Allow` and a preflight's methods. */
  methodsAt(pathname: string): string[];
  operations: ContractOperation[];
}

/** A path of the contract (a path item's template or one of its aliases) with the operations it takes, by method. */
interface PathRoute {
  regex: RegExp;
  names: string[];
  segments: string[];
  byMethod: Map<string, ContractOperation>;
}

/**
 * Which of two paths that both match a request is the more concrete, negative for `a`: fewer parameters first, then,
 * between as many, the one whose first literal segment comes where the other has a parameter. OpenAPI leaves a tie of
 * two templated paths to the tooling; this rule makes the choice the same whatever order the contract lists them in.
 */
function byConcreteness(a: PathRoute, b: PathRoute): number {
  if (a.names.length !== b.names.length) return a.names.length - b.names.length;
  const templated = (segment: string | undefined) => segment?.includes("{") === true;
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    if (templated(a.segments[i]) !== templated(b.segments[i])) return templated(a.segments[i]) ? 1 : -1;
  }
  // Paths of different lengths never match the same request; ordered all the same, so the sort's order is a total one.
  return a.segments.length - b.segments.length;
}

export function createRouter(document: JsonObject): Router {
  const operations = listOperations(document);
  const byPath = new Map<string, PathRoute>();
  for (const operation of operations) {
    for (const template of [operation.template, ...operation.aliases]) {
      let route = byPath.get(template);
      if (route === undefined) byPath.set(template, (route = { ...templateRegex(template), segments: template.split("/"), byMethod: new Map() }));
      route.byMethod.set(operation.method, operation);
    }
  }
  // OpenAPI matches a concrete path before a templated one, and the path item before the method: a request reaches one
  // path item, and a method it does not take is a 405 naming its methods, never an operation of a path it shadows
  // (`PUT .../custom_credentials/prepare` is not `setTeamCustomCredential` with provider "prepare").
  const routes = [...byPath.values()].sort(byConcreteness);
  // A path seen before is not matched against every route again: the mock answers the same paths many times over.
  const found = new Map<string, PathRoute | null>();
  const find = (pathname: string) => {
    let route = found.get(pathname);
    if (route === undefined) {
      route = routes.find((each) => each.regex.test(pathname)) ?? null;
      // Bounded, so a client sending endless distinct paths cannot grow it without limit.
      if (found.size >= 10_000) found.clear();
      found.set(pathname, route);
    }
    return route;
  };
  return {
    operations,
    match(method, pathname) {
      const route = find(pathname);
      const operation = route?.byMethod.get(method.toUpperCase());
      if (route == null || operation === undefined) return undefined;
      const values = route.regex.exec(pathname)!.slice(1);
      const pathParams = Object.fromEntries(route.names.map((name, i) => [name, decodeSegment(values[i]!)]));
      return { operation, pathParams };
    },
    pathExists: (pathname) => find(pathname) !== null,
    methodsAt: (pathname) => [...(find(pathname)?.byMethod.keys() ?? [])],
  };
}

/** The path to send upstream: the canonical template filled with the request's path parameters. */
export function canonicalPath(match: RouteMatch): string {
  return match.operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(match.pathParams[name] ?? ""));
}
