// What the contract says of an operation's lists in machine-readable form: the paged list of its answer
// (`x-svc-paging`) and the query parameters that filter a list (`x-svc-filter`), read once and checked for their form
// (openapi/extensions.md), and what a filter's value means for an item.
import { isObject, type JsonObject } from "./json.ts";
import { deref, type ContractOperation } from "./operations.ts";

/** A paged list: the answer's array of items, and the page size when none is asked for and the largest one. */
export interface Paging {
  items: string;
  sizeDefault: number;
  sizeMax: number;
}

/** How a filter's value picks items: the item's field equals it, or the item's array field holds every value given. */
export type FilterMatch = "equals" | "all";

/** A query parameter that keeps only the items of the answer's `items` list whose `field` matches it. */
export interface Filter {
  parameter: string;
  items: string;
  field: string;
  match: FilterMatch;
}

export interface CollectionMarks {
  paging?: Paging;
  filters: Filter[];
}

function fail(operation: ContractOperation, message: string): never {
  throw new Error(`${operation.operationId}: ${message} (openapi/extensions.md)`);
}

function queryParameter(operation: ContractOperation, name: string): JsonObject | undefined {
  return operation.parameters.find((parameter) => parameter.in === "query" && parameter.name === name);
}

/** The properties of the operation's 200 JSON answer, references followed. */
function answerProperties(document: JsonObject, operation: ContractOperation): JsonObject {
  const media = (operation.responses["200"]?.content as JsonObject | undefined)?.["application/json"];
  const schema = isObject(media) ? deref(document, media.schema) : {};
  return (schema.properties ?? {}) as JsonObject;
}

function pagingOf(document: JsonObject, operation: ContractOperation): Paging | undefined {
  const mark = operation.operation["x-svc-paging"];
  if (mark === undefined) return undefined;
  if (!isObject(mark) || typeof mark.items !== "string" || Object.keys(mark).length !== 1)
    fail(operation, "x-svc-paging is { items: <the answer's array of items> }");
  const page = queryParameter(operation, "page");
  const size = queryParameter(operation, "size");
  if (page === undefined || size === undefined) fail(operation, "a paged operation takes the query parameters page and size");
  const properties = answerProperties(document, operation);
  if (deref(document, properties[mark.items]).type !== "array") fail(operation, `x-svc-paging names ${mark.items}, which is not an array of its 200 answer`);
  for (const count of ["total", "page", "size", "pages"]) if (properties[count] === undefined) fail(operation, `a paged answer says ${count}`);
  const sizeSchema = deref(document, size.schema);
  return { items: mark.items, sizeDefault: Number(sizeSchema.default), sizeMax: Number(sizeSchema.maximum) };
}

function filtersOf(document: JsonObject, operation: ContractOperation): Filter[] {
  const filters: Filter[] = [];
  for (const parameter of operation.parameters) {
    const mark = parameter["x-svc-filter"];
    if (mark === undefined) continue;
    const match = isObject(mark) ? (mark.match ?? "equals") : undefined;
    if (
      !isObject(mark) ||
      typeof mark.items !== "string" ||
      typeof mark.field !== "string" ||
      (match !== "equals" && match !== "all") ||
      parameter.in !== "query"
    ) {
      fail(operation, `x-svc-filter of ${String(parameter.name)} is { items, field, match?: equals | all } on a query parameter`);
    }
    const list = deref(document, answerProperties(document, operation)[mark.items]);
    const item = deref(document, list.items);
    if (list.type !== "array" || !isObject((item.properties as JsonObject | undefined)?.[mark.field])) {
      fail(operation, `x-svc-filter of ${String(parameter.name)} names ${mark.items}[].${mark.field}, which its 200 answer does not have`);
    }
    filters.push({ parameter: String(parameter.name), items: mark.items, field: mark.field, match });
  }
  return filters;
}

/** The operation's paged list and filters; throws, naming the operation, on a mark whose form or target is wrong. */
export function collectionMarks(document: JsonObject, operation: ContractOperation): CollectionMarks {
  const paging = pagingOf(document, operation);
  return { ...(paging ? { paging } : {}), filters: filtersOf(document, operation) };
}

/** The distinct values a filter's field takes in a list, as text (one per element of an array field, for `all`). */
export function filterValues(list: unknown[], filter: Filter): string[] {
  const values = list.flatMap((item) => {
    const field = isObject(item) ? item[filter.field] : undefined;
    return Array.isArray(field) ? field : [field];
  });
  return [...new Set(values.filter((value) => value !== null && value !== undefined && typeof value !== "object").map(String))];
}

/** Whether an item's field matches a filter's values (one value for `equals`, every repetition for `all`): what the mark means. */
export function matchesFilter(item: unknown, filter: Filter, values: string[]): boolean {
  const field = isObject(item) ? item[filter.field] : undefined;
  if (filter.match === "all") return Array.isArray(field) && values.every((value) => field.some((held) => String(held) === value));
  return field !== null && field !== undefined && String(field) === values[0];
}
