// Spectral function of the svc-links-valid rule: each link of an answer names an operation the contract has, by
// operationId, fills only that operation's parameters (qualified path. or query.), and each runtime expression reaches
// a part of the schemas: the answer's body, the call's own parameters, and, in a requestBody, a field the target takes.
// Tools (Schemathesis, Specmatic) follow these links blind; a wrong pointer hands them nothing (openapi/extensions.md).

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const METHODS = ["get", "put", "post", "delete", "patch"];

/** The schema a JSON pointer reaches inside a schema (Spectral hands it over with references resolved), or undefined. */
function schemaAt(schema, tokens) {
  if (tokens.length === 0) return schema;
  if (!isObject(schema)) return undefined;
  const [token, ...rest] = tokens;
  const here = /^\d+$/.test(token) ? schema.items : schema.properties?.[token];
  if (here !== undefined) return schemaAt(here, rest);
  for (const member of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    const found = schemaAt(member, tokens);
    if (found !== undefined) return found;
  }
  return undefined;
}

const pointerTokens = (pointer) =>
  pointer
    .replace(/^\//, "")
    .split("/")
    .filter((t) => t !== "")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
const jsonSchemaOf = (holder) => holder?.content?.["application/json"]?.schema;

/** What is wrong with one runtime expression of a link on this answer of this operation, or undefined. */
function expressionProblem(expression, operation, response) {
  const body = /^\$response\.body#(\/.*)$/.exec(expression);
  if (body !== null)
    return schemaAt(jsonSchemaOf(response), pointerTokens(body[1])) === undefined ? `${expression} reaches no field of this answer's schema.` : undefined;
  const part = /^\$request\.(path|query)\.([A-Za-z0-9_]+)$/.exec(expression);
  if (part !== null) {
    const has = (operation.parameters ?? []).some((p) => p.in === part[1] && p.name === part[2]);
    return has ? undefined : `${expression}: this operation takes no ${part[1]} parameter ${part[2]}.`;
  }
  return `${expression} is not a runtime expression this contract uses ($response.body#/<pointer>, $request.path.<name>, $request.query.<name>).`;
}

/** Each runtime expression in a requestBody, with the pointer of the place it fills. */
function bodyExpressions(value, pointer = "") {
  if (typeof value === "string" && value.startsWith("$")) return [{ expression: value, pointer }];
  if (Array.isArray(value)) return value.flatMap((item, index) => bodyExpressions(item, `${pointer}/${index}`));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => bodyExpressions(item, `${pointer}/${key}`));
  return [];
}

function linkProblems(link, operation, response, byId, where) {
  if (!isObject(link)) return [{ message: "A link is an object.", path: where }];
  if (link.operationRef !== undefined) return [{ message: "A link names its target by operationId, never operationRef.", path: [...where, "operationRef"] }];
  const target = byId.get(link.operationId);
  if (target === undefined)
    return [{ message: `A link's operationId ${String(link.operationId)} names no operation of the contract.`, path: [...where, "operationId"] }];
  const problems = [];
  const targetParameters = [...(target.pathItem.parameters ?? []), ...(target.operation.parameters ?? [])];
  for (const [qualified, value] of Object.entries(isObject(link.parameters) ? link.parameters : {})) {
    const at = [...where, "parameters", qualified];
    const split = /^(path|query)\.([A-Za-z0-9_]+)$/.exec(qualified);
    if (split === null) problems.push({ message: `A link's parameter ${qualified} is qualified path.<name> or query.<name>.`, path: at });
    else if (!targetParameters.some((p) => p.in === split[1] && p.name === split[2]))
      problems.push({ message: `${link.operationId} takes no ${split[1]} parameter ${split[2]}.`, path: at });
    if (typeof value === "string" && value.startsWith("$")) {
      const problem = expressionProblem(value, operation, response);
      if (problem !== undefined) problems.push({ message: problem, path: at });
    }
  }
  if (link.requestBody !== undefined) {
    const schema = jsonSchemaOf(target.operation.requestBody);
    const found = bodyExpressions(link.requestBody);
    if (schema === undefined) problems.push({ message: `${link.operationId} takes no JSON body.`, path: [...where, "requestBody"] });
    if (found.length === 0)
      problems.push({ message: "A link's requestBody hands an id on: it holds a runtime expression where the id goes.", path: [...where, "requestBody"] });
    for (const { expression, pointer } of found) {
      const problem = expressionProblem(expression, operation, response);
      if (problem !== undefined) problems.push({ message: problem, path: [...where, "requestBody"] });
      if (schema !== undefined && schemaAt(schema, pointerTokens(pointer)) === undefined)
        problems.push({ message: `${link.operationId}'s body has no field ${pointer} for ${expression}.`, path: [...where, "requestBody"] });
    }
  }
  return problems;
}

export default function linksValid(document) {
  if (!isObject(document?.paths)) return [];
  const byId = new Map();
  const operations = [];
  for (const [template, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = pathItem?.[method];
      if (!isObject(operation)) continue;
      const merged = { ...operation, parameters: [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])] };
      byId.set(operation.operationId, { operation, pathItem });
      operations.push({ template, method, operation: merged });
    }
  }
  return operations.flatMap(({ template, method, operation }) =>
    Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
      Object.entries(isObject(response?.links) ? response.links : {}).flatMap(([name, link]) =>
        linkProblems(link, operation, response, byId, ["paths", template, method, "responses", status, "links", name]),
      ),
    ),
  );
}
