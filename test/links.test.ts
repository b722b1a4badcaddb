// Every id a generic stateful tester needs is handed to it: each path, query and body parameter holding an id is the target of a link from an operation that yields it, or says where the caller has it (x-svc-caller-known); each link's body is its target's valid call with expressions only where ids go, and validates (Ajv).
import { describe, expect, it } from "vitest";
import { anchorRefs, createContractAjv } from "../src/contract/ajv.ts";
import { isObject, type JsonObject } from "../src/contract/json.ts";
import { responseLinks } from "../src/contract/links.ts";
import { deref, listOperations, type ContractOperation } from "../src/contract/operations.ts";
import { validCall } from "../src/contract/valid-calls.ts";
import { contract } from "./support/contract.ts";

/** A name that holds an id by the contract's own spelling: `id`, `user_id`, `team_ids`. */
const ID_NAME = /^(id|[a-z0-9_]+_ids?)$/;
const CALLER_KNOWN = "x-svc-caller-known";

/** Where an operation takes an id: `path.user_id`, `query.user_id`, `body/connections/0/user_id`. */
interface IdHolder {
  operationId: string;
  where: string;
  callerKnown: boolean;
}

/** The id fields of a request schema, with their pointers (array items as 0) and their own marks. */
function bodyIds(document: JsonObject, schema: unknown, pointer: string, seen: Set<unknown>): { pointer: string; callerKnown: boolean }[] {
  const node = deref(document, schema);
  if (!isObject(node) || seen.has(node)) return [];
  seen.add(node);
  const own = Object.entries(isObject(node.properties) ? node.properties : {}).flatMap(([name, property]) => [
    ...(ID_NAME.test(name) ? [{ pointer: `${pointer}/${name}`, callerKnown: isObject(property) && typeof property[CALLER_KNOWN] === "string" }] : []),
    ...bodyIds(document, property, `${pointer}/${name}`, seen),
  ]);
  const members = ["allOf", "anyOf", "oneOf"].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]) : []));
  return [
    ...own,
    ...(node.items === undefined ? [] : bodyIds(document, node.items, `${pointer}/0`, seen)),
    ...members.flatMap((m) => bodyIds(document, m, pointer, seen)),
  ];
}

const bodySchema = (op: ContractOperation) => (op.requestBody?.content as JsonObject | undefined)?.["application/json"] as JsonObject | undefined;

function idHolders(document: JsonObject, operations: ContractOperation[]): IdHolder[] {
  return operations.flatMap((op) => [
    ...op.parameters
      .filter((p) => (p.in === "path" || p.in === "query") && ID_NAME.test(String(p.name)))
      .map((p) => ({ operationId: op.operationId, where: `${String(p.in)}.${String(p.name)}`, callerKnown: typeof p[CALLER_KNOWN] === "string" })),
    ...bodyIds(document, bodySchema(op)?.schema, "", new Set()).map((field) => ({ operationId: op.operationId, where: `body${field.pointer}`, ...field })),
  ]);
}

/** Each runtime expression of a link's body, with the place it fills (array items as 0). */
function expressionsIn(value: unknown, pointer = ""): { pointer: string; expression: string }[] {
  if (typeof value === "string" && value.startsWith("$")) return [{ pointer, expression: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => expressionsIn(item, `${pointer}/${index}`));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => expressionsIn(item, `${pointer}/${key}`));
  return [];
}

/** The id holder an expression in a body fills: array items as 0, and an item of a list of ids (`team_ids/0`) as the list. */
const bodyHolder = (pointer: string) => `body${pointer.replace(/\/\d+(?=\/|$)/g, "/0").replace(/(_ids)\/0$/, "$1")}`;

/** An id holder a link fills, named as idHolders names it, from an operation whose answer (or own call) yields it. */
function linkedHolders(document: JsonObject, operations: ContractOperation[]): Set<string> {
  const filled = new Set<string>();
  for (const op of operations) {
    for (const status of Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s))) {
      for (const link of responseLinks(document, op, status)) {
        for (const [qualified, value] of Object.entries(link.parameters))
          if (typeof value === "string" && value.startsWith("$")) filled.add(`${link.operationId} ${qualified}`);
        for (const { pointer } of expressionsIn(link.requestBody)) filled.add(`${link.operationId} ${bodyHolder(pointer)}`);
      }
    }
  }
  return filled;
}

/** The id holders no link fills and no x-svc-caller-known explains. */
function unhanded(document: JsonObject): string[] {
  const operations = listOperations(document);
  const filled = linkedHolders(document, operations);
  return idHolders(document, operations)
    .filter((holder) => !holder.callerKnown && !filled.has(`${holder.operationId} ${holder.where}`))
    .map((holder) => `${holder.operationId} ${holder.where}`);
}

/** A copy of a value with each runtime expression replaced by what the valid call holds in its place. */
function filledFrom(value: unknown, call: unknown): unknown {
  if (typeof value === "string" && value.startsWith("$")) return call;
  if (Array.isArray(value)) return value.map((item, index) => filledFrom(item, Array.isArray(call) ? call[index] : undefined));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, filledFrom(item, isObject(call) ? call[key] : undefined)]));
  return value;
}

const operations = listOperations(contract);
const holders = idHolders(contract, operations);
const bodyLinks = operations.flatMap((op) =>
  Object.keys(op.responses).flatMap((status) =>
    responseLinks(contract, op, status)
      .filter((link) => link.requestBody !== undefined)
      .map((link) => ({ from: `${op.operationId} ${status} ${link.name}`, link, target: operations.find((o) => o.operationId === link.operationId)! })),
  ),
);

describe("links for every id", () => {
  it("finds the ids the contract takes: user, team, key, endpoint, pipeline and order ids, in paths, queries and bodies", () => {
    const where = new Set(holders.map((h) => h.where));
    for (const expected of [
      "path.user_id",
      "query.user_id",
      "body/user_id",
      "path.team_id",
      "path.api_key_id",
      "path.webhook_id",
      "path.pipeline_id",
      "path.key_id",
      "path.order_id",
      "body/team_ids",
    ])
      expect(where, expected).toContain(expected);
    expect(holders.filter((h) => h.where === "path.user_id").length).toBe(12);
  });

  it("hands every id a tool needs by a link from an operation that yields it, or says where the caller has it", () => {
    expect(unhanded(contract)).toEqual([]);
  });

  it("misses the ids a link no longer hands on", () => {
    const broken = structuredClone(contract);
    const create = ((broken.paths as JsonObject)["/v2/user"] as JsonObject).post as JsonObject;
    delete ((create.responses as JsonObject)["200"] as JsonObject).links;
    expect(unhanded(broken)).toEqual(
      expect.arrayContaining(["getLatestInsurance path.user_id", "getHistoricalPullIntrospection query.user_id", "createLinkToken body/user_id"]),
    );
  });

  it("misses an id field added to a body with neither a link nor x-svc-caller-known", () => {
    const broken = structuredClone(contract);
    const schema = ((broken.components as JsonObject).schemas as JsonObject).UserCreateRequest as JsonObject;
    (schema.properties as JsonObject).referrer_id = { type: "string" };
    expect(unhanded(broken)).toEqual(["createUser body/referrer_id"]);
  });

  it("finds links with bodies (createLinkToken, bulkImportConnections, createManagementKey)", () => {
    expect(bodyLinks.map((b) => b.link.operationId).sort()).toEqual(
      expect.arrayContaining(["bulkImportConnections", "createLinkToken", "createManagementKey"]),
    );
  });

  const ajv = createContractAjv(contract);
  for (const { from, link, target } of bodyLinks) {
    it(`${from}: its body is ${link.operationId}'s valid call with expressions only where ids go, and validates`, () => {
      const call = validCall(contract, target).body;
      expect(filledFrom(link.requestBody, call)).toEqual(call);
      const validate = ajv.compile(anchorRefs(structuredClone(bodySchema(target)!.schema)) as object);
      // Each expression stands for an id of the target's own form: the valid call's value in its place.
      expect(validate(filledFrom(link.requestBody, call)), JSON.stringify(validate.errors)).toBe(true);
      for (const { pointer } of expressionsIn(link.requestBody))
        expect(holders.map((h) => `${h.operationId} ${h.where}`)).toContain(`${link.operationId} ${bodyHolder(pointer)}`);
    });
  }
});
