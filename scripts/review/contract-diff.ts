// Classifies every difference between a base bundle and a head bundle, per operation and per webhook, as breaking,
// additive or a deprecation (the policy is openapi/breaking-changes.md).
import { isDeepStrictEqual } from "node:util";
import { HTTP_METHODS } from "../lib/operations.ts";
import { isObject, type JsonObject } from "../lib/walk.ts";
import { encodePointer } from "./source-map.ts";
import { fieldName, followRefs as follow, SchemaDiff, type ChangeKind, type Direction } from "./schema-diff.ts";

export interface Subject {
  type: "operation" | "webhook";
  /** `POST /v2/link/token` for an operation, the event kind for a webhook. */
  key: string;
  /** `createLinkToken (POST /v2/link/token)`, or `webhook daily.data.sleep.created`. */
  label: string;
  /** Names a CHANGELOG entry may use for it: operationId, `METHOD /path`, the event kind. */
  names: string[];
}

export interface ContractChange {
  kind: ChangeKind;
  rule: string;
  subject: Subject;
  /** Where in the operation: `request body: filter_on_providers[]`, `response 200: markers[].unit`, `query parameter size`. */
  where: string;
  message: string;
  pointer: string;
  side: "head" | "base";
}

interface Endpoint {
  subject: Subject;
  /** The operation object, and where it lies in its bundle. */
  operation: JsonObject;
  pointer: string;
  /** Path-item parameters and the operation's own, references not followed, each with its pointer. */
  parameters: { node: JsonObject; pointer: string }[];
  security: string[][];
  /** The pointer of the entry that names it in the bundle (`/paths/...` or `/webhooks/...`), for a removal. */
  entryPointer: string;
}

/** Each operation's security as its alternatives, each alternative as the headers it sends: `header x-svc-api-key`. */
function securityOf(document: JsonObject, operation: JsonObject): string[][] {
  const requirements = (operation.security ?? document.security ?? []) as Record<string, unknown>[];
  const schemes = (isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {}) as JsonObject;
  return requirements.map((requirement) =>
    Object.keys(requirement)
      .map((name) => {
        const scheme = follow(document, schemes[name], "").node;
        return scheme.type === "apiKey" ? `${String(scheme.in)} ${String(scheme.name).toLowerCase()} (${name})` : `${String(scheme.type)} (${name})`;
      })
      .sort(),
  );
}

function endpoints(document: JsonObject): Map<string, Endpoint> {
  const found = new Map<string, Endpoint>();
  const add = (type: Subject["type"], name: string, entryPointer: string, rawPathItem: unknown) => {
    const { node: pathItem, pointer: itemPointer } = follow(document, rawPathItem, entryPointer);
    const shared = ((pathItem.parameters ?? []) as unknown[]).map((node, index) => ({ node: node as JsonObject, pointer: `${itemPointer}/parameters/${index}` }));
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const pointer = `${itemPointer}/${method}`;
      const own = ((operation.parameters ?? []) as unknown[]).map((node, index) => ({ node: node as JsonObject, pointer: `${pointer}/parameters/${index}` }));
      const key = type === "operation" ? `${method.toUpperCase()} ${name}` : name;
      const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
      const subject: Subject =
        type === "operation"
          ? { type, key, label: operationId ? `${operationId} (${key})` : key, names: [key, ...(operationId ? [operationId] : [])] }
          : { type, key: method === "post" ? name : `${name} ${method.toUpperCase()}`, label: `webhook ${name}`, names: [name] };
      found.set(`${type} ${subject.key}`, {
        subject,
        operation,
        pointer,
        parameters: [...shared, ...own],
        security: type === "operation" ? securityOf(document, operation) : [],
        entryPointer: method === "post" || type === "operation" ? entryPointer : pointer,
      });
    }
  };
  for (const [template, item] of Object.entries((document.paths ?? {}) as JsonObject)) add("operation", template, `/paths${encodePointer([template])}`, item);
  for (const [kind, item] of Object.entries((document.webhooks ?? {}) as JsonObject)) add("webhook", kind, `/webhooks${encodePointer([kind])}`, item);
  return found;
}

const parameterKey = (document: JsonObject, node: unknown) => {
  const parameter = follow(document, node, "").node;
  const name = String(parameter.name);
  return `${String(parameter.in)} ${parameter.in === "header" ? name.toLowerCase() : name}`;
};

export function diffContracts(base: JsonObject, head: JsonObject): ContractChange[] {
  const schemas = new SchemaDiff({ base, head });
  const before = endpoints(base);
  const after = endpoints(head);
  const changes: ContractChange[] = [];

  // An operation whose operationId reappears elsewhere moved: its path or method changed.
  const movedTo = new Map<string, Endpoint>();
  for (const [key, endpoint] of before) {
    if (after.has(key) || endpoint.subject.type !== "operation") continue;
    const operationId = endpoint.operation.operationId;
    const target = [...after.entries()].find(([otherKey, other]) => !before.has(otherKey) && other.operation.operationId === operationId && operationId !== undefined);
    if (target) movedTo.set(target[0], endpoint);
  }
  const moved = new Set([...movedTo.values()]);

  for (const [key, endpoint] of before) {
    if (after.has(key) || moved.has(endpoint)) continue;
    const what = endpoint.subject.type === "operation" ? "operation removed" : "webhook removed";
    changes.push({ kind: "breaking", rule: `${endpoint.subject.type}-removed`, subject: endpoint.subject, where: endpoint.subject.type, message: what, pointer: endpoint.entryPointer, side: "base" });
  }
  for (const [key, endpoint] of after) {
    const previous = before.get(key) ?? movedTo.get(key);
    if (!previous) {
      const what = endpoint.subject.type === "operation" ? "operation added" : "webhook added";
      changes.push({ kind: "additive", rule: `${endpoint.subject.type}-added`, subject: endpoint.subject, where: endpoint.subject.type, message: what, pointer: endpoint.pointer, side: "head" });
      continue;
    }
    if (!before.has(key)) {
      changes.push({ kind: "breaking", rule: "path-or-method-changed", subject: endpoint.subject, where: "operation", message: `moved from ${previous.subject.key} to ${endpoint.subject.key}`, pointer: endpoint.pointer, side: "head" });
    }
    changes.push(...compareEndpoint(base, head, schemas, previous, endpoint));
  }
  return changes;
}

function compareEndpoint(base: JsonObject, head: JsonObject, schemas: SchemaDiff, was: Endpoint, now: Endpoint): ContractChange[] {
  const changes: ContractChange[] = [];
  const subject = now.subject;
  const isWebhook = subject.type === "webhook";
  const add = (kind: ChangeKind, rule: string, where: string, message: string, pointer = now.pointer, side: "head" | "base" = "head") =>
    changes.push({ kind, rule, subject, where, message, pointer, side });
  const schemaChanges = (where: string, baseNode: unknown, basePointer: string, headNode: unknown, headPointer: string, direction: Direction) => {
    for (const change of schemas.compare(baseNode, basePointer, headNode, headPointer, direction)) {
      const field = fieldName(change.field);
      changes.push({ kind: change.kind, rule: change.rule, subject, where: field ? `${where}: ${field}` : where, message: change.message, pointer: change.pointer, side: change.side });
    }
  };

  if (!isWebhook && was.operation.operationId !== now.operation.operationId) {
    add("breaking", "operation-id-changed", "operation", `operationId changed from ${String(was.operation.operationId)} to ${String(now.operation.operationId)}`);
  }
  if (now.operation.deprecated === true && was.operation.deprecated !== true) add("deprecated", "deprecated", subject.type, "deprecated");
  // A team the service has not enabled gets 403 from a closed-beta operation: moving one into the beta breaks such teams.
  const closedBeta = (operation: JsonObject) => operation["x-svc-closed-beta"] === true;
  if (closedBeta(now.operation) && !closedBeta(was.operation)) add("breaking", "closed-beta-added", subject.type, "moved into closed beta: teams not enabled get 403");
  if (!closedBeta(now.operation) && closedBeta(was.operation)) add("additive", "closed-beta-removed", subject.type, "out of closed beta: open to every team");

  // Security: every alternative a client may use today must still be accepted.
  const show = (alternative: string[]) => (alternative.length === 0 ? "no credential" : alternative.join(" + "));
  const security = now.operation.security !== undefined ? `${now.pointer}/security` : "/security";
  for (const alternative of was.security) {
    if (!now.security.some((other) => isDeepStrictEqual(other, alternative))) add("breaking", "security-changed", "security", `no longer accepts ${show(alternative)}`, security);
  }
  for (const alternative of now.security) {
    if (!was.security.some((other) => isDeepStrictEqual(other, alternative))) add("additive", "security-alternative-added", "security", `now also accepts ${show(alternative)}`, security);
  }

  // Parameters: sent by the client to an operation; sent by the service with a webhook (its headers), so read like a response.
  const direction: Direction = isWebhook ? "response" : "request";
  const baseParams = new Map(was.parameters.map((entry) => [parameterKey(base, entry.node), entry]));
  const headParams = new Map(now.parameters.map((entry) => [parameterKey(head, entry.node), entry]));
  const parameterWhere = (key: string) => `${key.split(" ")[0]} parameter ${key.split(" ").slice(1).join(" ")}`;
  for (const key of baseParams.keys()) {
    if (headParams.has(key)) continue;
    const message = isWebhook ? "header no longer sent" : "parameter removed: a client that sends it may be refused";
    add("breaking", isWebhook ? "webhook-header-removed" : "parameter-removed", parameterWhere(key), message, now.pointer);
  }
  for (const [key, entry] of headParams) {
    const where = parameterWhere(key);
    const parameter = follow(head, entry.node, entry.pointer);
    const previous = baseParams.get(key);
    if (!previous) {
      const breaking = !isWebhook && parameter.node.required === true;
      add(breaking ? "breaking" : "additive", breaking ? "parameter-added-required" : "parameter-added", where, breaking ? "required parameter added" : "optional parameter added", parameter.pointer);
      continue;
    }
    const old = follow(base, previous.node, previous.pointer);
    if (old.node.required !== true && parameter.node.required === true && !isWebhook) add("breaking", "parameter-made-required", where, "made required", parameter.pointer);
    if (old.node.required === true && parameter.node.required !== true && isWebhook) add("breaking", "webhook-header-made-optional", where, "may no longer be sent", parameter.pointer);
    if (parameter.node.deprecated === true && old.node.deprecated !== true) add("deprecated", "deprecated", where, "deprecated", parameter.pointer);
    schemaChanges(where, old.node.schema, `${old.pointer}/schema`, parameter.node.schema, `${parameter.pointer}/schema`, direction);
  }

  // The body: a request for an operation; for a webhook, the payload the client reads.
  const oldBody = follow(base, was.operation.requestBody, `${was.pointer}/requestBody`);
  const newBody = follow(head, now.operation.requestBody, `${now.pointer}/requestBody`);
  const bodyName = isWebhook ? "payload" : "request body";
  const hadBody = was.operation.requestBody !== undefined;
  const hasBody = now.operation.requestBody !== undefined;
  if (hadBody && !hasBody) add("breaking", isWebhook ? "payload-removed" : "request-body-removed", bodyName, "removed");
  if (!hadBody && hasBody) {
    const breaking = !isWebhook && newBody.node.required === true;
    add(breaking ? "breaking" : "additive", breaking ? "request-body-added-required" : "request-body-added", bodyName, breaking ? "required body added" : "body added", newBody.pointer);
  }
  if (hadBody && hasBody) {
    if (!isWebhook && oldBody.node.required !== true && newBody.node.required === true) add("breaking", "request-body-made-required", bodyName, "made required", newBody.pointer);
    changes.push(...compareContent(schemas, subject, bodyName, oldBody, newBody, direction, !isWebhook));
  }

  // Responses: what the service answers (for a webhook, what the receiver answers, which the service reads).
  const oldResponses = (isObject(was.operation.responses) ? was.operation.responses : {}) as JsonObject;
  const newResponses = (isObject(now.operation.responses) ? now.operation.responses : {}) as JsonObject;
  const responseDirection: Direction = isWebhook ? "request" : "response";
  for (const status of Object.keys(oldResponses)) {
    if (status in newResponses) continue;
    const success = /^2/.test(status);
    if (success && !isWebhook) add("breaking", "success-status-removed", `response ${status}`, "success status removed", `${now.pointer}/responses`);
    else add("additive", "status-removed", `response ${status}`, "no longer declared", `${now.pointer}/responses`);
  }
  for (const status of Object.keys(newResponses)) {
    const newResponse = follow(head, newResponses[status], `${now.pointer}/responses/${status}`);
    if (!(status in oldResponses)) {
      add("additive", "status-added", `response ${status}`, "status added", newResponse.pointer);
      continue;
    }
    const oldResponse = follow(base, oldResponses[status], `${was.pointer}/responses/${status}`);
    changes.push(...compareContent(schemas, subject, `response ${status}`, oldResponse, newResponse, responseDirection, false));
    const oldHeaders = (isObject(oldResponse.node.headers) ? oldResponse.node.headers : {}) as JsonObject;
    const newHeaders = (isObject(newResponse.node.headers) ? newResponse.node.headers : {}) as JsonObject;
    for (const name of Object.keys(oldHeaders)) {
      if (!(name in newHeaders)) add(responseDirection === "response" ? "breaking" : "additive", "response-header-removed", `response ${status} header ${name}`, "header removed", newResponse.pointer);
    }
    for (const name of Object.keys(newHeaders)) {
      const header = follow(head, newHeaders[name], `${newResponse.pointer}/headers${encodePointer([name])}`);
      if (!(name in oldHeaders)) {
        add("additive", "response-header-added", `response ${status} header ${name}`, "header added", header.pointer);
        continue;
      }
      const old = follow(base, oldHeaders[name], `${oldResponse.pointer}/headers${encodePointer([name])}`);
      schemaChanges(`response ${status} header ${name}`, old.node.schema, `${old.pointer}/schema`, header.node.schema, `${header.pointer}/schema`, responseDirection);
    }
  }
  return changes;

  function compareContent(
    diff: SchemaDiff,
    who: Subject,
    where: string,
    old: { node: JsonObject; pointer: string },
    now: { node: JsonObject; pointer: string },
    dir: Direction,
    clientSends: boolean,
  ): ContractChange[] {
    const found: ContractChange[] = [];
    const oldContent = (isObject(old.node.content) ? old.node.content : {}) as JsonObject;
    const newContent = (isObject(now.node.content) ? now.node.content : {}) as JsonObject;
    for (const type of Object.keys(oldContent)) {
      if (type in newContent) continue;
      const breaking = clientSends || dir === "response";
      found.push({ kind: breaking ? "breaking" : "additive", rule: "media-type-removed", subject: who, where, message: `${type} no longer ${clientSends ? "accepted" : "sent"}`, pointer: now.pointer, side: "head" });
    }
    for (const type of Object.keys(newContent)) {
      const media = `${now.pointer}/content${encodePointer([type])}`;
      if (!(type in oldContent)) {
        found.push({ kind: "additive", rule: "media-type-added", subject: who, where, message: `${type} added`, pointer: media, side: "head" });
        continue;
      }
      const oldMedia = oldContent[type];
      const newMedia = newContent[type];
      if (!isObject(oldMedia) || !isObject(newMedia) || (oldMedia.schema === undefined && newMedia.schema === undefined)) continue;
      for (const change of diff.compare(oldMedia.schema ?? {}, `${old.pointer}/content${encodePointer([type])}/schema`, newMedia.schema ?? {}, `${media}/schema`, dir)) {
        const field = fieldName(change.field);
        found.push({ kind: change.kind, rule: change.rule, subject: who, where: field ? `${where}: ${field}` : where, message: change.message, pointer: change.pointer, side: change.side });
      }
    }
    return found;
  }
}
