// Spectral function of the svc-collection-marks rule: an operation that takes page and size says which list it pages
// (x-svc-paging), and each filter (x-svc-filter) names a list and a field its 200 answer has (openapi/extensions.md).
// The build reads the same marks (src/contract/collections.ts) and stops on the same mistakes; this says where, in review.

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** The properties of the operation's 200 JSON answer (Spectral hands the operation over with references resolved). */
function answerProperties(operation) {
  const schema = operation.responses?.["200"]?.content?.["application/json"]?.schema;
  return isObject(schema?.properties) ? schema.properties : {};
}

function pagingProblems(operation, query, properties) {
  const mark = operation["x-svc-paging"];
  const paged = ["page", "size"].every((name) => query.some((p) => p.name === name));
  if (mark === undefined)
    return paged ? [{ message: "This operation takes page and size: say which list of its answer they page in x-svc-paging: {items: <list>}.", path: [] }] : [];
  if (!isObject(mark) || typeof mark.items !== "string" || Object.keys(mark).length !== 1)
    return [{ message: "x-svc-paging is {items: <the answer's array of items>}.", path: ["x-svc-paging"] }];
  const problems = [];
  if (!paged) problems.push({ message: "A paged operation takes the query parameters page and size.", path: ["x-svc-paging"] });
  if (properties[mark.items]?.type !== "array")
    problems.push({ message: `x-svc-paging names ${mark.items}, which is not an array of the 200 answer.`, path: ["x-svc-paging", "items"] });
  for (const count of ["total", "page", "size", "pages"]) {
    if (properties[count] === undefined) problems.push({ message: `A paged answer says ${count}.`, path: ["x-svc-paging"] });
  }
  return problems;
}

function filterProblems(parameter, index, properties) {
  const mark = parameter["x-svc-filter"];
  if (mark === undefined) return [];
  const where = ["parameters", index, "x-svc-filter"];
  const match = isObject(mark) ? (mark.match ?? "equals") : undefined;
  const keys = isObject(mark) ? Object.keys(mark).filter((key) => !["items", "field", "match"].includes(key)) : [];
  if (
    !isObject(mark) ||
    typeof mark.items !== "string" ||
    typeof mark.field !== "string" ||
    !["equals", "all"].includes(match) ||
    keys.length > 0 ||
    parameter.in !== "query"
  ) {
    return [
      { message: "x-svc-filter is {items: <list>, field: <property of its items>, match: equals | all (default equals)} on a query parameter.", path: where },
    ];
  }
  const list = properties[mark.items];
  if (list?.type !== "array" || !isObject(list.items?.properties?.[mark.field])) {
    return [{ message: `x-svc-filter names ${mark.items}[].${mark.field}, which the 200 answer does not have.`, path: where }];
  }
  return [];
}

export default function collectionMarked(operation) {
  if (!isObject(operation)) return [];
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  const properties = answerProperties(operation);
  return [
    ...pagingProblems(
      operation,
      parameters.filter((p) => isObject(p) && p.in === "query"),
      properties,
    ),
    ...parameters.flatMap((parameter, index) => (isObject(parameter) ? filterProblems(parameter, index, properties) : [])),
  ];
}
