// Classifies every difference between a base bundle and a head bundle, per operation and per webhook, as breaking,
// additive or a deprecation (the policy is openapi/breaking-changes.md).
import { HTTP_METHODS } from "../../../src/contract/operations.ts";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { compareLinks } from "./link-diff.ts";
import { encodePointer } from "./source-map.ts";
import { fieldName, followRefs as follow, SchemaDiff, type ChangeKind, type Direction } from "./schema-diff.ts";

export interface Subject {
  /** `package`: a part of the package's surface (an entry, a command, engines, a peer), see surface-diff.ts. */
  type: "operation" | "webhook" | "package";
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
  security: Credential[][];
  /** The pointer of the entry that names it in the bundle (`/paths/...` or `/webhooks/...`), for a removal. */
  entryPointer: string;
}

/** One credential a requirement asks for: compared by what the client sends, shown with the scheme's name. */
interface Credential {
  key: string;
  label: string;
  pointer: string;
}

/**
 * Each operation's security as its alternatives, each alternative as the credentials it sends (`header x-svc-api-key`).
 * No requirement and an empty requirement both mean no credential.
 */
function securityOf(document: JsonObject, operation: JsonObject): Credential[][] {
  const requirements = (operation.security ?? document.security ?? []) as Record<string, unknown>[];
  const schemes = (isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {}) as JsonObject;
  const alternatives = requirements.map((requirement) =>
    Object.keys(requirement)
      .map((name) => {
        const pointer = `/components/securitySchemes${encodePointer([name])}`;
        const scheme = follow(document, schemes[name], pointer).node;
        const key =
          scheme.type === "apiKey"
            ? `${String(scheme.in)} ${String(scheme.in) === "header" ? String(scheme.name).toLowerCase() : String(scheme.name)}`
            : scheme.type === "http"
              ? `http ${String(scheme.scheme).toLowerCase()}`
              : String(scheme.type);
        return { key, label: `${key} (${name})`, pointer };
      })
      .sort((a, b) => a.key.localeCompare(b.key)),
  );
  return alternatives.length === 0 ? [[]] : alternatives;
}

const sameCredentials = (a: Credential[], b: Credential[]) => a.length === b.length && a.every((credential, index) => credential.key === b[index]!.key);

function endpoints(document: JsonObject): Map<string, Endpoint> {
  const found = new Map<string, Endpoint>();
  const add = (type: Subject["type"], name: string, entryPointer: string, rawPathItem: unknown) => {
    const { node: pathItem, pointer: itemPointer } = follow(document, rawPathItem, entryPointer);
    const shared = ((pathItem.parameters ?? []) as unknown[]).map((node, index) => ({
      node: node as JsonObject,
      pointer: `${itemPointer}/parameters/${index}`,
    }));
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

/** A parameter's or header's schema: its `schema`, or the schema of its one `content` entry. */
function parameterSchema(parameter: { node: JsonObject; pointer: string }): [unknown, string] {
  if (parameter.node.schema !== undefined) return [parameter.node.schema, `${parameter.pointer}/schema`];
  const content = isObject(parameter.node.content) ? parameter.node.content : {};
  const [type] = Object.keys(content);
  if (type === undefined) return [{}, parameter.pointer];
  return [(content[type] as JsonObject).schema ?? {}, `${parameter.pointer}/content${encodePointer([type])}/schema`];
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
    const target = [...after.entries()].find(
      ([otherKey, other]) => !before.has(otherKey) && other.operation.operationId === operationId && operationId !== undefined,
    );
    if (target) movedTo.set(target[0], endpoint);
  }
  const moved = new Set([...movedTo.values()]);

  for (const [key, endpoint] of before) {
    if (after.has(key) || moved.has(endpoint)) continue;
    const what = endpoint.subject.type === "operation" ? "operation removed" : "webhook removed";
    changes.push({
      kind: "breaking",
      rule: `${endpoint.subject.type}-removed`,
      subject: endpoint.subject,
      where: endpoint.subject.type,
      message: what,
      pointer: endpoint.entryPointer,
      side: "base",
    });
  }
  for (const [key, endpoint] of after) {
    const previous = before.get(key) ?? movedTo.get(key);
    if (!previous) {
      const what = endpoint.subject.type === "operation" ? "operation added" : "webhook added";
      changes.push({
        kind: "additive",
        rule: `${endpoint.subject.type}-added`,
        subject: endpoint.subject,
        where: endpoint.subject.type,
        message: what,
        pointer: endpoint.pointer,
        side: "head",
      });
      continue;
    }
    if (!before.has(key)) {
      // A CHANGELOG entry may name the operation by where it was.
      const subject = { ...endpoint.subject, names: [...endpoint.subject.names, previous.subject.key] };
      changes.push({
        kind: "breaking",
        rule: "path-or-method-changed",
        subject,
        where: "operation",
        message: `moved from ${previous.subject.key} to ${endpoint.subject.key}`,
        pointer: endpoint.pointer,
        side: "head",
      });
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
      changes.push({
        kind: change.kind,
        rule: change.rule,
        subject,
        where: field ? `${where}: ${field}` : where,
        message: change.message,
        pointer: change.pointer,
        side: change.side,
      });
    }
  };

  if (!isWebhook && was.operation.operationId !== now.operation.operationId) {
    add(
      "breaking",
      "operation-id-changed",
      "operation",
      `operationId changed from ${String(was.operation.operationId)} to ${String(now.operation.operationId)}`,
    );
  }
  if (now.operation.deprecated === true && was.operation.deprecated !== true) add("deprecated", "deprecated", subject.type, "deprecated");
  // A team the service has not enabled gets 403 from a closed-beta operation: moving one into the beta breaks such teams.
  const closedBeta = (operation: JsonObject) => operation["x-svc-closed-beta"] === true;
  if (closedBeta(now.operation) && !closedBeta(was.operation))
    add("breaking", "closed-beta-added", subject.type, "moved into closed beta: teams not enabled get 403");
  if (!closedBeta(now.operation) && closedBeta(was.operation)) add("additive", "closed-beta-removed", subject.type, "out of closed beta: open to every team");

  // Security: every alternative a client may use today must still be accepted; an operation open to all breaks no one.
  const show = (alternative: Credential[]) => (alternative.length === 0 ? "no credential" : alternative.map((credential) => credential.label).join(" + "));
  const security = now.operation.security !== undefined ? `${now.pointer}/security` : "/security";
  const open = now.security.some((alternative) => alternative.length === 0);
  for (const alternative of was.security) {
    if (open || now.security.some((other) => sameCredentials(other, alternative))) continue;
    // A credential whose scheme is still declared changed where it is declared; one no longer declared, where it was asked for.
    const changed = alternative
      .map((credential) => credential.pointer)
      .find((pointer) => follow(head, { $ref: `#${pointer}` }, pointer).node.type !== undefined);
    add("breaking", "security-changed", "security", `no longer accepts ${show(alternative)}`, changed ?? security);
  }
  for (const alternative of now.security) {
    if (!was.security.some((other) => sameCredentials(other, alternative)))
      add("additive", "security-alternative-added", "security", `now also accepts ${show(alternative)}`, security);
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
      add(
        breaking ? "breaking" : "additive",
        breaking ? "parameter-added-required" : "parameter-added",
        where,
        breaking ? "required parameter added" : "optional parameter added",
        parameter.pointer,
      );
      continue;
    }
    const old = follow(base, previous.node, previous.pointer);
    if (old.node.required !== true && parameter.node.required === true && !isWebhook)
      add("breaking", "parameter-made-required", where, "made required", parameter.pointer);
    if (old.node.required === true && parameter.node.required !== true && isWebhook)
      add("breaking", "webhook-header-made-optional", where, "may no longer be sent", parameter.pointer);
    if (parameter.node.deprecated === true && old.node.deprecated !== true) add("deprecated", "deprecated", where, "deprecated", parameter.pointer);
    const [oldSchema, oldSchemaPointer] = parameterSchema(old);
    const [newSchema, newSchemaPointer] = parameterSchema(parameter);
    schemaChanges(where, oldSchema, oldSchemaPointer, newSchema, newSchemaPointer, direction);
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
    add(
      breaking ? "breaking" : "additive",
      breaking ? "request-body-added-required" : "request-body-added",
      bodyName,
      breaking ? "required body added" : "body added",
      newBody.pointer,
    );
  }
  if (hadBody && hasBody) {
    if (!isWebhook && oldBody.node.required !== true && newBody.node.required === true)
      add("breaking", "request-body-made-required", bodyName, "made required", newBody.pointer);
    compareContent(bodyName, oldBody, newBody, direction, !isWebhook);
  }

  // Responses: what the service answers (for a webhook, what the receiver answers, which the service reads).
  const oldResponses = (isObject(was.operation.responses) ? was.operation.responses : {}) as JsonObject;
  const newResponses = (isObject(now.operation.responses) ? now.operation.responses : {}) as JsonObject;
  const responseDirection: Direction = isWebhook ? "request" : "response";
  // `2XX` covers `200`: a status still declared by its range is not removed.
  const covered = (status: string) => status in newResponses || `${status[0]}XX` in newResponses;
  for (const status of Object.keys(oldResponses)) {
    if (covered(status)) continue;
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
    compareContent(`response ${status}`, oldResponse, newResponse, responseDirection, false);
    for (const link of compareLinks(base, head, oldResponse, newResponse))
      add(link.kind, link.rule, `response ${status} link ${link.name}`, link.message, link.pointer);
    // Header names are case-insensitive.
    const headersOf = (response: JsonObject) =>
      new Map(Object.entries(isObject(response.headers) ? response.headers : {}).map(([name, header]) => [name.toLowerCase(), { name, header }]));
    const oldHeaders = headersOf(oldResponse.node);
    const newHeaders = headersOf(newResponse.node);
    for (const [key, { name }] of oldHeaders) {
      if (!newHeaders.has(key))
        add(
          responseDirection === "response" ? "breaking" : "additive",
          "response-header-removed",
          `response ${status} header ${name}`,
          "header removed",
          newResponse.pointer,
        );
    }
    for (const [key, { name, header: node }] of newHeaders) {
      const where = `response ${status} header ${name}`;
      const header = follow(head, node, `${newResponse.pointer}/headers${encodePointer([name])}`);
      const before = oldHeaders.get(key);
      if (!before) {
        add("additive", "response-header-added", where, "header added", header.pointer);
        continue;
      }
      const old = follow(base, before.header, `${oldResponse.pointer}/headers${encodePointer([before.name])}`);
      if (old.node.required === true && header.node.required !== true)
        add(responseDirection === "response" ? "breaking" : "additive", "response-header-made-optional", where, "may no longer be sent", header.pointer);
      if (header.node.deprecated === true && old.node.deprecated !== true) add("deprecated", "deprecated", where, "deprecated", header.pointer);
      const [oldSchema, oldSchemaPointer] = parameterSchema(old);
      const [newSchema, newSchemaPointer] = parameterSchema(header);
      schemaChanges(where, oldSchema, oldSchemaPointer, newSchema, newSchemaPointer, responseDirection);
    }
  }
  return changes;

  /** Media types removed or added, and each kept one's schema: the `where` is a body or a response status. */
  function compareContent(
    where: string,
    old: { node: JsonObject; pointer: string },
    now: { node: JsonObject; pointer: string },
    dir: Direction,
    clientSends: boolean,
  ): void {
    const oldContent = (isObject(old.node.content) ? old.node.content : {}) as JsonObject;
    const newContent = (isObject(now.node.content) ? now.node.content : {}) as JsonObject;
    for (const type of Object.keys(oldContent)) {
      if (type in newContent) continue;
      const breaking = clientSends || dir === "response";
      add(breaking ? "breaking" : "additive", "media-type-removed", where, `${type} no longer ${clientSends ? "accepted" : "sent"}`, now.pointer);
    }
    for (const type of Object.keys(newContent)) {
      const media = `${now.pointer}/content${encodePointer([type])}`;
      if (!(type in oldContent)) {
        add("additive", "media-type-added", where, `${type} added`, media);
        continue;
      }
      const oldMedia = oldContent[type];
      const newMedia = newContent[type];
      if (!isObject(oldMedia) || !isObject(newMedia) || (oldMedia.schema === undefined && newMedia.schema === undefined)) continue;
      schemaChanges(where, oldMedia.schema ?? {}, `${old.pointer}/content${encodePointer([type])}/schema`, newMedia.schema ?? {}, `${media}/schema`, dir);
    }
  }
}
