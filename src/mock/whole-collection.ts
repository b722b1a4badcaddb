// What the mock makes of a whole collection (an example's list, or what the stateful mock holds) for a request: the
// filters the query sets (x-svc-filter) applied, then the page it asks for (x-svc-paging) cut, as the service would.
import type { JsonObject } from "../contract/json.ts";
import { matchesFilter, type CollectionMarks } from "../contract/collections.ts";

/** Whether an answer holds a collection the request cuts: a success of an operation that marks a paged list or a filter. */
export function cutsCollection(status: number, marks: CollectionMarks): boolean {
  return status >= 200 && status < 300 && (marks.paging !== undefined || marks.filters.length > 0);
}

/**
 * The answer a collection makes for a request: every filter the query sets applied to its list, then the asked page
 * cut from the filtered list, with `total`, `page`, `size` and `pages` saying what was cut (a page past the last is
 * empty). The body is a whole collection (an example, or what the stateful mock holds); a new body is returned.
 */
export function shapeCollection(body: JsonObject, marks: CollectionMarks, query: URLSearchParams): JsonObject {
  const shaped: JsonObject = { ...body };
  for (const filter of marks.filters) {
    const values = query.getAll(filter.parameter);
    const list = shaped[filter.items];
    if (values.length === 0 || !Array.isArray(list)) continue;
    shaped[filter.items] = list.filter((item) => matchesFilter(item, filter, values));
  }
  const { paging } = marks;
  const list = paging === undefined ? undefined : shaped[paging.items];
  if (paging === undefined || !Array.isArray(list)) return shaped;
  const page = Number(query.get("page") ?? 1);
  const size = Number(query.get("size") ?? paging.sizeDefault);
  shaped[paging.items] = list.slice((page - 1) * size, page * size);
  return { ...shaped, total: list.length, page, size, pages: Math.ceil(list.length / size) };
}
