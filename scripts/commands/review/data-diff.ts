// Compares the data a declaration of the package's surface carries by value (rule 17 of openapi/breaking-changes.md):
// lists as sets and records by key (a listed value, an event kind, a status, a route or a key added is additive, one
// removed breaking), an operation table's routes by their parts, each change said as its difference.
import type { DataValue } from "../../build/surface-data.ts";
import type { OperationRow, OperationTable } from "../../../src/client/types.ts";
import type { ChangeKind } from "./schema-diff.ts";

export interface DataChange {
  kind: ChangeKind;
  rule: string;
  /** Where in the declaration's data, for the report: `CollectionMethod`, `route GET /v3/x`, `credential apiKey`. */
  at: string;
  message: string;
  /** The keys from the declaration's data to what changed: its place in surface.json. */
  keys: string[];
  /** The listed value there, whose own line it is. */
  element?: string | number | boolean | null;
  side: "head" | "base";
  /** Names a CHANGELOG bullet may use for it: the keys it sits under (an enumeration, a route and its operationId). */
  names: string[];
}

type Scalar = string | number | boolean | null;
/** What an operation table carries as data; its `unknown`, a message's words, is not recorded (surface-data.ts). */
type TableData = Pick<OperationTable, "credentials" | "statuses" | "operations">;
const TABLE_PARTS = ["credentials", "statuses", "operations"] as const;

const isRecord = (value: DataValue | undefined): value is { [key: string]: DataValue } => typeof value === "object" && value !== null && !Array.isArray(value);
const isScalar = (value: DataValue): value is Scalar => value === null || typeof value !== "object";
const isScalarList = (value: DataValue): value is Scalar[] => Array.isArray(value) && value.every(isScalar);
const isTable = (value: DataValue): value is TableData & { [key: string]: DataValue } =>
  isRecord(value) && isRecord(value.credentials) && Array.isArray(value.statuses) && isRecord(value.operations);

/** Each key of either side, the head's order first. */
const keysOf = (was: object, now: object) => [...new Set([...Object.keys(now), ...Object.keys(was)])];
const quoted = (value: DataValue) => JSON.stringify(value);
/** A value in a message: short, or its start. */
const brief = (value: DataValue) => {
  const text = quoted(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};
/** `knownValues.CollectionMethod`, or `table["a b"]` for a key that is not a name. */
const child = (label: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${label}.${key}` : `${label}[${JSON.stringify(key)}]`);

/** Every difference between two values of the declaration `name`, as its data holds them (`at` empty: the whole value). */
export function diffData(name: string, was: DataValue, now: DataValue): DataChange[] {
  const changes: DataChange[] = [];
  walk(changes, "", name, [], [], was, now);
  return changes;
}

function walk(changes: DataChange[], at: string, label: string, keys: string[], names: string[], was: DataValue, now: DataValue): void {
  if (isTable(was) && isTable(now)) return tables(changes, at, label, keys, names, was, now);
  if (isRecord(was) && isRecord(now)) {
    for (const key of keysOf(was, now)) {
      const inner = child(label, key);
      const where = keys.length === 0 ? key : at;
      const place = { keys: [...keys, key], names: [...names, key] };
      if (now[key] === undefined) changes.push({ kind: "breaking", rule: "data-removed", at: where, message: `${inner} removed`, side: "base", ...place });
      else if (was[key] === undefined) changes.push({ kind: "additive", rule: "data-added", at: where, message: `${inner} added`, side: "head", ...place });
      else walk(changes, where, inner, place.keys, place.names, was[key]!, now[key]!);
    }
    return;
  }
  if (isScalarList(was) && isScalarList(now)) {
    // The value is a name too: a bullet naming an event kind accepts its removal from eventKinds.
    return setChanges(changes, was, now, (value, verb) => `${label}: ${quoted(value)} ${verb}`, { at, keys, names }, true);
  }
  if (quoted(was) !== quoted(now))
    changes.push({ kind: "breaking", rule: "data-changed", at, message: `${label}: was ${brief(was)}, is ${brief(now)}`, keys, side: "head", names });
}

/** An operation table: its routes by their parts, each route's statuses, its credentials; anything else as data. */
function tables(changes: DataChange[], at: string, label: string, keys: string[], names: string[], was: TableData, now: TableData): void {
  const common: string[] = [];
  for (const route of keysOf(was.operations, now.operations)) {
    const before = was.operations[route];
    const after = now.operations[route];
    const place = { at: `route ${route}`, keys: [...keys, "operations", route], names: [...names, route, (after ?? before)![0]] };
    if (!after) changes.push({ kind: "breaking", rule: "data-removed", message: `route ${route} removed (${before![0]})`, side: "base", ...place });
    else if (!before) changes.push({ kind: "additive", rule: "data-added", message: `route ${route} added (${after[0]})`, side: "head", ...place });
    else {
      common.push(route);
      for (const change of rowChanges(before, after)) changes.push({ ...change, message: `route ${route}: ${change.message}`, side: "head", ...place });
    }
  }
  statusChanges(changes, keys, names, was, now, common);
  credentialChanges(changes, keys, names, was.credentials, now.credentials);
  const rest = (table: TableData) => Object.fromEntries(Object.entries(table).filter(([key]) => !(TABLE_PARTS as readonly string[]).includes(key)));
  walk(changes, at, label, keys, names, rest(was) as DataValue, rest(now) as DataValue);
}

/** How a value added and one removed are rated, said, and located (a removed one on the base's line). */
const ADDED = ["additive", "data-added", "added", "head"] as const;
const REMOVED = ["breaking", "data-removed", "removed", "base"] as const;

/** A list compared as a set: a value removed is breaking, one added additive, each said by `say`, located on its line. */
function setChanges(
  changes: DataChange[],
  was: readonly Scalar[],
  now: readonly Scalar[],
  say: (value: Scalar, verb: "added" | "removed") => string,
  place: Pick<DataChange, "at" | "keys" | "names">,
  valuesAreNames = false,
): void {
  const each = (values: readonly Scalar[], other: readonly Scalar[], [kind, rule, verb, side]: typeof ADDED | typeof REMOVED) => {
    for (const value of values.filter((v) => !other.includes(v)))
      changes.push({
        kind,
        rule,
        message: say(value, verb),
        element: value,
        side,
        ...place,
        names: valuesAreNames ? [...place.names, String(value)] : place.names,
      });
  };
  each(was, now, REMOVED);
  each(now, was, ADDED);
}

type Part = Pick<DataChange, "kind" | "rule" | "message">;

/** A route's row by its parts (its statuses are statusChanges'): [operationId, credential, statuses, paging]. */
function rowChanges([wasId, wasCredential, , wasPaging]: OperationRow, [nowId, nowCredential, , nowPaging]: OperationRow): Part[] {
  const parts: Part[] = [];
  if (wasId !== nowId) parts.push({ kind: "breaking", rule: "data-changed", message: `operationId ${wasId} -> ${nowId}` });
  if (wasCredential !== nowCredential) {
    // Needing no credential opens the route to every client; needing one, or another, refuses a client without it.
    if (nowCredential === null) parts.push({ kind: "additive", rule: "data-widened", message: `takes no credential now (took ${wasCredential})` });
    else parts.push({ kind: "breaking", rule: "data-changed", message: `takes the credential ${nowCredential}, took ${wasCredential ?? "none"}` });
  }
  if (!wasPaging && nowPaging) {
    const [items, sizeDefault, sizeMax] = nowPaging;
    parts.push({ kind: "additive", rule: "data-added", message: `paged now (items in "${items}", ${sizeDefault} a page by default, at most ${sizeMax})` });
  } else if (wasPaging && !nowPaging) parts.push({ kind: "breaking", rule: "data-removed", message: "no longer paged: paginate refuses it" });
  else if (wasPaging && nowPaging) parts.push(...pagingChanges(wasPaging, nowPaging));
  return parts;
}

/**
 * A paged list's [items, default size, largest size]. paginate reads the items from the key, sends the caller's size or
 * the default, and refuses a size above the largest: a larger largest is additive, a smaller one refuses sizes that
 * worked. A new default changes how many items a page holds for a call without a size, not which items the list
 * yields (the contract's review reads a parameter's `default` as an annotation too): additive, said as a change.
 */
function pagingChanges([wasItems, wasDefault, wasMax]: NonNullable<OperationRow[3]>, [nowItems, nowDefault, nowMax]: NonNullable<OperationRow[3]>): Part[] {
  const parts: Part[] = [];
  if (wasItems !== nowItems) parts.push({ kind: "breaking", rule: "data-changed", message: `a page's items in "${nowItems}", were in "${wasItems}"` });
  if (nowMax > wasMax) parts.push({ kind: "additive", rule: "data-widened", message: `largest page size ${wasMax} -> ${nowMax}` });
  if (nowMax < wasMax)
    parts.push({ kind: "breaking", rule: "data-changed", message: `largest page size ${wasMax} -> ${nowMax}: paginate refuses a size above ${nowMax}` });
  if (nowDefault !== wasDefault) parts.push({ kind: "additive", rule: "data-default-changed", message: `default page size ${wasDefault} -> ${nowDefault}` });
  return parts;
}

/**
 * What each route declares is the table's common statuses and its row's own: compared per route, so that a status
 * moving between the two is no change. A status added to (or removed from) every route is said once.
 */
function statusChanges(changes: DataChange[], keys: string[], names: string[], was: TableData, now: TableData, common: string[]): void {
  const declared = (table: TableData, route: string) => new Set([...table.statuses, ...table.operations[route]![2]]);
  const found = new Map<string, { status: number; added: boolean; routes: string[] }>();
  for (const route of common) {
    const before = declared(was, route);
    const after = declared(now, route);
    const note = (status: number, added: boolean) => {
      const key = `${added} ${status}`;
      if (!found.has(key)) found.set(key, { status, added, routes: [] });
      found.get(key)!.routes.push(route);
    };
    for (const status of after) if (!before.has(status)) note(status, true);
    for (const status of before) if (!after.has(status)) note(status, false);
  }
  for (const { status, added, routes } of found.values()) {
    const [kind, rule, verb, side] = added ? ADDED : REMOVED;
    if (routes.length === common.length && routes.length > 1) {
      changes.push({ kind, rule, at: "statuses", message: `every route: status ${status} ${verb}`, keys: [...keys, "statuses"], element: status, side, names });
      continue;
    }
    for (const route of routes) {
      const operationId = now.operations[route]![0];
      const place = { keys: [...keys, "operations", route], names: [...names, route, operationId] };
      changes.push({ kind, rule, at: `route ${route}`, message: `route ${route}: status ${status} ${verb}`, element: status, side, ...place });
    }
  }
}

/** Each credential option: [the header it is sent as, ...headers that stand in for it when a call sets them]. */
function credentialChanges(changes: DataChange[], keys: string[], names: string[], was: TableData["credentials"], now: TableData["credentials"]): void {
  for (const option of keysOf(was, now)) {
    const before = was[option];
    const after = now[option];
    const place = { at: `credential ${option}`, keys: [...keys, "credentials", option], names: [...names, option] };
    if (!after) {
      changes.push({ kind: "breaking", rule: "data-removed", message: `credential option ${option} removed`, side: "base", ...place });
      continue;
    }
    if (!before) {
      changes.push({ kind: "additive", rule: "data-added", message: `credential option ${option} added (sent as ${after[0]})`, side: "head", ...place });
      continue;
    }
    if (before[0] !== after[0])
      changes.push({ kind: "breaking", rule: "data-changed", message: `credential ${option}: sent as ${after[0]}, was ${before[0]}`, side: "head", ...place });
    const standsIn = (header: Scalar, verb: string) => `credential ${option}: header ${header} ${verb === "added" ? "stands" : "no longer stands"} in for it`;
    setChanges(changes, before.slice(1), after.slice(1), standsIn, place);
  }
}
