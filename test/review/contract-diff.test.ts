// The breaking-change detector on pairs of small documents: a base, and the same document with one change, per rule of
// openapi/breaking-changes.md, each with the classification it must get.
import { describe, expect, it } from "vitest";
import { diffContracts, type ContractChange } from "../../scripts/commands/review/contract-diff.ts";

type Doc = Record<string, any>;

/** Three operations and two webhooks that share the `Thing` component; a closed and an open enumeration; two credentials. */
function baseDocument(): Doc {
  const thingBody = { content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } };
  return {
    openapi: "3.1.0",
    info: { title: "Fixture", version: "1.0.0" },
    security: [{ ApiKey: [] }],
    paths: {
      "/v2/things": {
        get: {
          operationId: "listThings",
          parameters: [
            { name: "size", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 100 } },
            { name: "kind", in: "query", schema: { $ref: "#/components/schemas/ThingKind" } },
          ],
          responses: {
            "200": {
              description: "The things.",
              content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } },
            },
          },
        },
        post: {
          operationId: "createThing",
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/ThingCreate" } } } },
          responses: {
            "201": {
              description: "Created.",
              ...thingBody,
              links: { readThing: { operationId: "getThing", parameters: { "path.thing_id": "$response.body#/id" } } },
            },
            "422": { description: "Invalid." },
          },
        },
      },
      "/v2/things/{thing_id}": {
        parameters: [{ name: "thing_id", in: "path", required: true, schema: { type: "string" } }],
        get: {
          operationId: "getThing",
          responses: {
            "200": { description: "The thing.", headers: { "X-Request-Id": { required: true, schema: { type: "string" } } }, ...thingBody },
            "404": { description: "Not found." },
          },
        },
        delete: { operationId: "deleteThing", security: [{ AdminKey: [] }, { ApiKey: [] }], responses: { "204": { description: "Deleted." } } },
      },
    },
    webhooks: {
      "thing.created": { $ref: "#/components/pathItems/ThingEvent" },
      "thing.updated": { $ref: "#/components/pathItems/ThingEvent" },
    },
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "x-svc-api-key" },
        AdminKey: { type: "apiKey", in: "header", name: "X-Admin-Key" },
      },
      pathItems: {
        ThingEvent: {
          post: {
            parameters: [{ name: "webhook-id", in: "header", required: true, schema: { type: "string" } }],
            requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/ThingEventPayload" } } } },
            responses: { "200": { description: "Received." } },
          },
        },
      },
      schemas: {
        Thing: {
          type: "object",
          required: ["id", "shape", "kind", "label"],
          properties: {
            id: { type: "string", format: "uuid" },
            shape: { $ref: "#/components/schemas/Shape" },
            kind: { $ref: "#/components/schemas/ThingKind" },
            label: { type: "string" },
            note: { type: ["string", "null"] },
            owner: { anyOf: [{ $ref: "#/components/schemas/Owner" }, { type: "null" }] },
            version: { const: "v1" },
            weight: { type: "integer" },
          },
        },
        Owner: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
        Shape: { type: "string", enum: ["round", "square"] },
        ThingKind: {
          "x-svc-non-exhaustive": true,
          anyOf: [
            { title: "Listed value", type: "string", enum: ["small", "large"] },
            { title: "Value added later", type: "string" },
          ],
        },
        ThingCreate: {
          type: "object",
          required: ["label"],
          properties: {
            label: { type: "string", maxLength: 100 },
            shape: { $ref: "#/components/schemas/Shape" },
            note: { type: ["string", "null"] },
            count: { type: "number" },
          },
        },
        ThingEventPayload: {
          type: "object",
          required: ["event_type", "data"],
          properties: { event_type: { type: "string" }, data: { $ref: "#/components/schemas/Thing" }, source: { type: "string" } },
        },
      },
    },
  };
}

interface Case {
  change: (doc: Doc) => void;
  /** What the detector must report: kind, rule, and for each affected operation or webhook, where. */
  expected: { kind: ContractChange["kind"]; rule: string; subjects: string[]; where: string }[];
}

const ALL_THING_READERS = ["listThings", "createThing", "getThing", "thing.created", "thing.updated"];
const names = (change: ContractChange) => change.subject.names.find((name) => !name.includes(" ")) ?? change.subject.key;

const CASES: Record<string, Case> = {
  "a link removed is breaking (rule 19)": {
    change: (doc) => delete doc.paths["/v2/things"].post.responses["201"].links.readThing,
    expected: [{ kind: "breaking", rule: "link-removed", subjects: ["createThing"], where: "response 201 link readThing" }],
  },
  "a link's target changed is breaking (rule 19)": {
    change: (doc) => (doc.paths["/v2/things"].post.responses["201"].links.readThing.operationId = "deleteThing"),
    expected: [{ kind: "breaking", rule: "link-changed", subjects: ["createThing"], where: "response 201 link readThing" }],
  },
  "a link's expression changed is breaking (rule 19)": {
    change: (doc) => (doc.paths["/v2/things"].post.responses["201"].links.readThing.parameters["path.thing_id"] = "$response.body#/label"),
    expected: [{ kind: "breaking", rule: "link-changed", subjects: ["createThing"], where: "response 201 link readThing" }],
  },
  "a link's parameter written unqualified or qualified is the same link (rule 19)": {
    change: (doc) => (doc.paths["/v2/things"].post.responses["201"].links.readThing.parameters = { thing_id: "$response.body#/id" }),
    expected: [],
  },
  "a link added is additive, and a link's description changed is nothing (rule 19)": {
    change: (doc) => {
      const links = doc.paths["/v2/things"].post.responses["201"].links;
      links.readThing.description = "Reads the thing back.";
      links.deleteThing = { operationId: "deleteThing", parameters: { "path.thing_id": "$response.body#/id" } };
    },
    expected: [{ kind: "additive", rule: "link-added", subjects: ["createThing"], where: "response 201 link deleteThing" }],
  },
  "an operation removed is breaking": {
    change: (doc) => delete doc.paths["/v2/things/{thing_id}"].delete,
    expected: [{ kind: "breaking", rule: "operation-removed", subjects: ["deleteThing"], where: "operation" }],
  },
  "a webhook removed is breaking": {
    change: (doc) => delete doc.webhooks["thing.updated"],
    expected: [{ kind: "breaking", rule: "webhook-removed", subjects: ["thing.updated"], where: "webhook" }],
  },
  "a path changed is breaking, named as a move": {
    change: (doc) => {
      doc.paths["/v2/thing/{thing_id}"] = doc.paths["/v2/things/{thing_id}"];
      delete doc.paths["/v2/things/{thing_id}"];
    },
    expected: [
      { kind: "breaking", rule: "path-or-method-changed", subjects: ["getThing"], where: "operation" },
      { kind: "breaking", rule: "path-or-method-changed", subjects: ["deleteThing"], where: "operation" },
    ],
  },
  "a method changed is breaking": {
    change: (doc) => {
      const path = doc.paths["/v2/things/{thing_id}"];
      path.post = path.delete;
      delete path.delete;
    },
    expected: [{ kind: "breaking", rule: "path-or-method-changed", subjects: ["deleteThing"], where: "operation" }],
  },
  "an operation's security narrowed is breaking for that operation only": {
    change: (doc) => (doc.paths["/v2/things/{thing_id}"].delete.security = [{ AdminKey: [] }]),
    expected: [{ kind: "breaking", rule: "security-changed", subjects: ["deleteThing"], where: "security" }],
  },
  "the root security changed is breaking for each operation that inherits it": {
    change: (doc) => (doc.security = [{ AdminKey: [] }]),
    expected: ["listThings", "createThing", "getThing"].flatMap((subject) => [
      { kind: "breaking" as const, rule: "security-changed", subjects: [subject], where: "security" },
      { kind: "additive" as const, rule: "security-alternative-added", subjects: [subject], where: "security" },
    ]),
  },
  "a credential header renamed is breaking for each operation": {
    change: (doc) => (doc.components.securitySchemes.AdminKey.name = "X-Management-Key"),
    expected: [
      { kind: "breaking", rule: "security-changed", subjects: ["deleteThing"], where: "security" },
      { kind: "additive", rule: "security-alternative-added", subjects: ["deleteThing"], where: "security" },
    ],
  },
  "a request parameter made required is breaking": {
    change: (doc) => (doc.paths["/v2/things"].get.parameters[0].required = true),
    expected: [{ kind: "breaking", rule: "parameter-made-required", subjects: ["listThings"], where: "query parameter size" }],
  },
  "a required request parameter added is breaking, an optional one additive": {
    change: (doc) =>
      doc.paths["/v2/things"].get.parameters.push(
        { name: "owner", in: "query", required: true, schema: { type: "string" } },
        { name: "page", in: "query", schema: { type: "integer" } },
      ),
    expected: [
      { kind: "breaking", rule: "parameter-added-required", subjects: ["listThings"], where: "query parameter owner" },
      { kind: "additive", rule: "parameter-added", subjects: ["listThings"], where: "query parameter page" },
    ],
  },
  "a request parameter's bound tightened is breaking": {
    change: (doc) => (doc.paths["/v2/things"].get.parameters[0].schema.maximum = 50),
    expected: [{ kind: "breaking", rule: "constraint-tightened", subjects: ["listThings"], where: "query parameter size" }],
  },
  "a request field newly required is breaking": {
    change: (doc) => doc.components.schemas.ThingCreate.required.push("shape"),
    expected: [{ kind: "breaking", rule: "request-field-made-required", subjects: ["createThing"], where: "request body: shape" }],
  },
  "an optional request field added is additive": {
    change: (doc) => (doc.components.schemas.ThingCreate.properties.colour = { type: "string" }),
    expected: [{ kind: "additive", rule: "field-added", subjects: ["createThing"], where: "request body: colour" }],
  },
  "a request type narrowed is breaking (number to integer)": {
    change: (doc) => (doc.components.schemas.ThingCreate.properties.count.type = "integer"),
    expected: [{ kind: "breaking", rule: "request-type-narrowed", subjects: ["createThing"], where: "request body: count" }],
  },
  "a request field no longer nullable (type array) is breaking": {
    change: (doc) => (doc.components.schemas.ThingCreate.properties.note.type = "string"),
    expected: [{ kind: "breaking", rule: "request-null-refused", subjects: ["createThing"], where: "request body: note" }],
  },
  "a value removed from a request enum is breaking for requests, additive for responses": {
    change: (doc) => (doc.components.schemas.Shape.enum = ["round"]),
    expected: [
      { kind: "breaking", rule: "request-enum-value-removed", subjects: ["createThing"], where: "request body: shape" },
      ...ALL_THING_READERS.map((subject) => ({
        kind: "additive" as const,
        rule: "response-enum-value-removed",
        subjects: [subject],
        where: whereOfThing(subject, "shape"),
      })),
    ],
  },
  "a value added to a closed enum is breaking where it is read, additive where it is sent": {
    change: (doc) => doc.components.schemas.Shape.enum.push("oval"),
    expected: [
      { kind: "additive", rule: "request-enum-value-added", subjects: ["createThing"], where: "request body: shape" },
      ...ALL_THING_READERS.map((subject) => ({
        kind: "breaking" as const,
        rule: "closed-enum-value-added",
        subjects: [subject],
        where: whereOfThing(subject, "shape"),
      })),
    ],
  },
  "a value added to a non-exhaustive enum is additive everywhere": {
    change: (doc) => doc.components.schemas.ThingKind.anyOf[0].enum.push("huge"),
    expected: [
      { kind: "additive", rule: "open-enum-value-added", subjects: ["listThings"], where: "query parameter kind" },
      ...ALL_THING_READERS.map((subject) => ({
        kind: "additive" as const,
        rule: "open-enum-value-added",
        subjects: [subject],
        where: whereOfThing(subject, "kind"),
      })),
    ],
  },
  "a const changed in a response is a closed value added and one removed": {
    change: (doc) => (doc.components.schemas.Thing.properties.version.const = "v2"),
    expected: ALL_THING_READERS.flatMap((subject) => [
      { kind: "additive" as const, rule: "response-enum-value-removed", subjects: [subject], where: whereOfThing(subject, "version") },
      { kind: "breaking" as const, rule: "closed-enum-value-added", subjects: [subject], where: whereOfThing(subject, "version") },
    ]),
  },
  "a shared component's field removed is breaking for each of its three operations and two webhooks": {
    change: (doc) => delete doc.components.schemas.Thing.properties.label,
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "breaking" as const,
      rule: "response-field-removed",
      subjects: [subject],
      where: whereOfThing(subject, "label"),
    })),
  },
  "a response field made optional is breaking": {
    change: (doc) => (doc.components.schemas.Thing.required = ["id", "shape", "kind"]),
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "breaking" as const,
      rule: "response-field-made-optional",
      subjects: [subject],
      where: whereOfThing(subject, "label"),
    })),
  },
  "a response field made nullable through anyOf with null is breaking": {
    change: (doc) => (doc.components.schemas.Thing.properties.label = { anyOf: [{ type: "string" }, { type: "null" }] }),
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "breaking" as const,
      rule: "response-made-nullable",
      subjects: [subject],
      where: whereOfThing(subject, "label"),
    })),
  },
  "a nullable reference made non-null is additive for readers": {
    change: (doc) => (doc.components.schemas.Thing.properties.owner = { $ref: "#/components/schemas/Owner" }),
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "additive" as const,
      rule: "response-no-longer-null",
      subjects: [subject],
      where: whereOfThing(subject, "owner"),
    })),
  },
  "a response type widened is breaking (integer to number)": {
    change: (doc) => (doc.components.schemas.Thing.properties.weight.type = "number"),
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "breaking" as const,
      rule: "response-type-widened",
      subjects: [subject],
      where: whereOfThing(subject, "weight"),
    })),
  },
  "a response field added is additive": {
    change: (doc) => (doc.components.schemas.Thing.properties.colour = { type: "string" }),
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "additive" as const,
      rule: "field-added",
      subjects: [subject],
      where: whereOfThing(subject, "colour"),
    })),
  },
  "a success status removed is breaking": {
    change: (doc) => {
      const get = doc.paths["/v2/things/{thing_id}"].get;
      get.responses["203"] = get.responses["200"];
      delete get.responses["200"];
    },
    expected: [
      { kind: "breaking", rule: "success-status-removed", subjects: ["getThing"], where: "response 200" },
      { kind: "additive", rule: "status-added", subjects: ["getThing"], where: "response 203" },
    ],
  },
  "a webhook payload field removed is breaking (a payload is read like a response)": {
    change: (doc) => delete doc.components.schemas.ThingEventPayload.properties.source,
    expected: ["thing.created", "thing.updated"].map((subject) => ({
      kind: "breaking" as const,
      rule: "response-field-removed",
      subjects: [subject],
      where: "payload: source",
    })),
  },
  "a webhook payload field added, or made required, is additive": {
    change: (doc) => {
      doc.components.schemas.ThingEventPayload.properties.occurred_at = { type: "string" };
      doc.components.schemas.ThingEventPayload.required.push("source");
    },
    expected: ["thing.created", "thing.updated"].flatMap((subject) => [
      { kind: "additive" as const, rule: "response-field-made-required", subjects: [subject], where: "payload: source" },
      { kind: "additive" as const, rule: "field-added", subjects: [subject], where: "payload: occurred_at" },
    ]),
  },
  "a webhook payload field made optional is breaking": {
    change: (doc) => (doc.components.schemas.ThingEventPayload.required = ["event_type"]),
    expected: ["thing.created", "thing.updated"].map((subject) => ({
      kind: "breaking" as const,
      rule: "response-field-made-optional",
      subjects: [subject],
      where: "payload: data",
    })),
  },
  "a webhook header no longer sent is breaking": {
    change: (doc) => (doc.components.pathItems.ThingEvent.post.parameters = []),
    expected: ["thing.created", "thing.updated"].map((subject) => ({
      kind: "breaking" as const,
      rule: "webhook-header-removed",
      subjects: [subject],
      where: "header parameter webhook-id",
    })),
  },
  "an operation moved into closed beta is breaking, out of it additive": {
    change: (doc) => {
      doc.paths["/v2/things"].get["x-svc-closed-beta"] = true;
    },
    expected: [{ kind: "breaking", rule: "closed-beta-added", subjects: ["listThings"], where: "operation" }],
  },
  "request values moved into closed beta are breaking": {
    change: (doc) => (doc.components.schemas.ThingCreate.properties.shape = { $ref: "#/components/schemas/Shape", "x-svc-closed-beta": ["square"] }),
    expected: [{ kind: "breaking", rule: "closed-beta-values-added", subjects: ["createThing"], where: "request body: shape" }],
  },
  "a field deprecated beside its $ref is a deprecation": {
    change: (doc) => (doc.components.schemas.ThingEventPayload.properties.data = { $ref: "#/components/schemas/Thing", deprecated: true }),
    expected: ["thing.created", "thing.updated"].map((subject) => ({
      kind: "deprecated" as const,
      rule: "deprecated",
      subjects: [subject],
      where: "payload: data",
    })),
  },
  "a response header whose name changes only its case is no change": {
    change: (doc) => {
      const headers = doc.paths["/v2/things/{thing_id}"].get.responses["200"].headers;
      headers["x-request-id"] = headers["X-Request-Id"];
      delete headers["X-Request-Id"];
    },
    expected: [],
  },
  "a response header made optional is breaking, deprecated a deprecation": {
    change: (doc) => (doc.paths["/v2/things/{thing_id}"].get.responses["200"].headers["X-Request-Id"] = { deprecated: true, schema: { type: "string" } }),
    expected: [
      { kind: "breaking", rule: "response-header-made-optional", subjects: ["getThing"], where: "response 200 header X-Request-Id" },
      { kind: "deprecated", rule: "deprecated", subjects: ["getThing"], where: "response 200 header X-Request-Id" },
    ],
  },
  "a security scheme renamed, sending the same credential, is no change": {
    change: (doc) => {
      doc.components.securitySchemes.TeamKey = doc.components.securitySchemes.ApiKey;
      delete doc.components.securitySchemes.ApiKey;
      doc.security = [{ TeamKey: [] }];
      doc.paths["/v2/things/{thing_id}"].delete.security = [{ AdminKey: [] }, { TeamKey: [] }];
    },
    expected: [],
  },
  "an operation opened to every caller breaks no one": {
    change: (doc) => (doc.paths["/v2/things/{thing_id}"].delete.security = [{}]),
    expected: [{ kind: "additive", rule: "security-alternative-added", subjects: ["deleteThing"], where: "security" }],
  },
  "a success status still covered by its range is not removed": {
    change: (doc) => {
      const responses = doc.paths["/v2/things/{thing_id}"].get.responses;
      responses["2XX"] = responses["200"];
      delete responses["200"];
    },
    expected: [{ kind: "additive", rule: "status-added", subjects: ["getThing"], where: "response 2XX" }],
  },
  "a field deprecated by wrapping its $ref in allOf is only a deprecation": {
    change: (doc) =>
      (doc.components.schemas.Thing.properties.shape = {
        allOf: [{ $ref: "#/components/schemas/Shape" }],
        deprecated: true,
        description: "Deprecated: use kind.",
      }),
    expected: ALL_THING_READERS.map((subject) => ({
      kind: "deprecated" as const,
      rule: "deprecated",
      subjects: [subject],
      where: whereOfThing(subject, "shape"),
    })),
  },
  "an allOf part moved into the schema it composes is no change": {
    change: (doc) => {
      doc.components.schemas.Base = { type: "object", required: ["label"], properties: { label: { type: "string", maxLength: 100 } } };
      const create = doc.components.schemas.ThingCreate;
      doc.components.schemas.ThingCreate = {
        allOf: [
          { $ref: "#/components/schemas/Base" },
          { type: "object", properties: { shape: create.properties.shape, note: create.properties.note, count: create.properties.count } },
        ],
      };
    },
    expected: [],
  },
  "dropping x-svc-non-exhaustive closes the enumeration": {
    change: (doc) => delete doc.components.schemas.ThingKind["x-svc-non-exhaustive"],
    expected: [
      { kind: "breaking", rule: "enum-closed", subjects: ["listThings"], where: "query parameter kind" },
      ...ALL_THING_READERS.map((subject) => ({ kind: "additive" as const, rule: "enum-closed", subjects: [subject], where: whereOfThing(subject, "kind") })),
    ],
  },
  "a request body that no longer has a schema accepts anything": {
    change: (doc) => delete doc.paths["/v2/things"].post.requestBody.content["application/json"].schema,
    expected: [{ kind: "additive", rule: "schema-removed", subjects: ["createThing"], where: "request body" }],
  },
  "a schema that contains itself through a $ref with a keyword beside it is compared without end": {
    change: (doc) => {
      doc.components.schemas.Owner.properties.manager = { $ref: "#/components/schemas/Owner", description: "Who manages the owner." };
      doc.components.schemas.Owner.properties.name.type = "integer";
    },
    expected: ALL_THING_READERS.flatMap((subject) => [
      { kind: "breaking" as const, rule: "type-changed", subjects: [subject], where: whereOfThing(subject, "owner.name") },
      { kind: "additive" as const, rule: "field-added", subjects: [subject], where: whereOfThing(subject, "owner.manager") },
    ]),
  },
  "new operations and webhooks are additive": {
    change: (doc) => {
      doc.paths["/v2/shapes"] = { get: { operationId: "listShapes", responses: { "200": { description: "Shapes." } } } };
      doc.webhooks["thing.deleted"] = { $ref: "#/components/pathItems/ThingEvent" };
    },
    expected: [
      { kind: "additive", rule: "operation-added", subjects: ["listShapes"], where: "operation" },
      { kind: "additive", rule: "webhook-added", subjects: ["thing.deleted"], where: "webhook" },
    ],
  },
  "deprecations are listed on their own": {
    change: (doc) => {
      doc.paths["/v2/things/{thing_id}"].delete.deprecated = true;
      doc.components.schemas.ThingEventPayload.properties.source.deprecated = true;
    },
    expected: [
      { kind: "deprecated", rule: "deprecated", subjects: ["deleteThing"], where: "operation" },
      ...["thing.created", "thing.updated"].map((subject) => ({
        kind: "deprecated" as const,
        rule: "deprecated",
        subjects: [subject],
        where: "payload: source",
      })),
    ],
  },
};

/** Where `Thing`'s field sits for each of its readers: listed, created, fetched, or inside an event's `data`. */
function whereOfThing(subject: string, field: string): string {
  if (subject === "listThings") return `response 200: []${field === "" ? "" : `.${field}`}`;
  if (subject === "createThing") return `response 201: ${field}`;
  if (subject === "getThing") return `response 200: ${field}`;
  return `payload: data.${field}`;
}

function summarize(changes: ContractChange[]) {
  return changes.map((change) => ({ kind: change.kind, rule: change.rule, subjects: [names(change)], where: change.where }));
}

const sortKey = (entry: { kind: string; rule: string; subjects: string[]; where: string }) => `${entry.subjects[0]}|${entry.rule}|${entry.where}|${entry.kind}`;

describe("the breaking-change detector", () => {
  it("finds nothing between a document and itself", () => {
    expect(diffContracts(baseDocument(), baseDocument())).toEqual([]);
  });

  for (const [name, { change, expected }] of Object.entries(CASES)) {
    it(name, () => {
      const head = baseDocument();
      change(head);
      const found = summarize(diffContracts(baseDocument(), head)).sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
      expect(found).toEqual([...expected].sort((a, b) => sortKey(a).localeCompare(sortKey(b))));
    });
  }

  it("reports a change inside mutual recursion for every operation, whichever the document lists first", () => {
    const recursive = (first: "/a" | "/b", withX: boolean): Doc => {
      const get = (name: string) => ({
        get: {
          operationId: `get${name}`,
          responses: { "200": { description: "It.", content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } } } },
        },
      });
      const paths = first === "/a" ? { "/a": get("A"), "/b": get("B") } : { "/b": get("B"), "/a": get("A") };
      const a = { type: "object", properties: { b: { $ref: "#/components/schemas/B" }, ...(withX ? { x: { type: "string" } } : {}) } };
      return {
        openapi: "3.1.0",
        info: { title: "Recursion", version: "1.0.0" },
        paths,
        components: { schemas: { A: a, B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" } } } } },
      };
    };
    for (const first of ["/a", "/b"] as const) {
      const found = diffContracts(recursive(first, true), recursive(first, false)).map((change) => `${change.subject.key} ${change.where}`);
      expect(found.sort(), first).toEqual(["GET /a response 200: x", "GET /b response 200: a.x"]);
    }
  });

  it("does not fail on `required: true` written on a property (OpenAPI 3.0 style), which the linters report", () => {
    const head = baseDocument();
    head.components.schemas.Thing.properties.label.required = true;
    head.components.schemas.Thing.required = true;
    expect(() => diffContracts(baseDocument(), head)).not.toThrow();
  });

  it("locates a change to a shared component at the component, once for all its readers", () => {
    const head = baseDocument();
    delete head.components.schemas.Thing.properties.label;
    const pointers = new Set(diffContracts(baseDocument(), head).map((change) => `${change.side} ${change.pointer}`));
    expect([...pointers]).toEqual(["head /components/schemas/Thing/properties"]);
  });

  it("locates a removed operation in the base document, where its path was", () => {
    const head = baseDocument();
    delete head.paths["/v2/things/{thing_id}"];
    const removed = diffContracts(baseDocument(), head).filter((change) => change.rule === "operation-removed");
    expect(removed.map((change) => [change.side, change.pointer])).toEqual([
      ["base", "/paths/~1v2~1things~1{thing_id}"],
      ["base", "/paths/~1v2~1things~1{thing_id}"],
    ]);
  });
});
