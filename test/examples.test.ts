// Every example in the contract (request bodies, responses, parameters) validates against its schema, checked by Ajv independently of the linters.
import { describe, expect, it } from "vitest";
import { anchorRefs, createContractAjv } from "../src/contract/ajv.ts";
import { contract, operations } from "./support/contract.ts";
import { deref } from "../src/contract/operations.ts";
import { isObject, walkObjects, type JsonObject } from "../src/contract/json.ts";

interface ExampleCase {
  where: string;
  schema: unknown;
  value: unknown;
}

/** Media types and parameters with a schema and examples, each example paired with that schema. */
function collectExamples(document: JsonObject): ExampleCase[] {
  const cases: ExampleCase[] = [];
  walkObjects(document, (node, pointer) => {
    if (pointer.startsWith("/components/examples") || !isObject(node.schema)) return;
    if (isObject(node.examples)) {
      for (const [name, example] of Object.entries(node.examples)) {
        cases.push({ where: `${pointer} example ${name}`, schema: node.schema, value: deref(document, example).value });
      }
    }
    if ("example" in node) cases.push({ where: `${pointer} example`, schema: node.schema, value: node.example });
  });
  return cases;
}

/** Examples may not carry a property their schema does not name, so a misspelt field is caught. */
function forbidUnknownProperties(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  // The members of an allOf describe one object together (UserConflictError is ErrorBody plus two fields): marking each
  // member would refuse the others' properties, so the composing schema is marked instead, and its members, referenced
  // ones copied in from the unmarked document, are left open.
  const members = new Set<unknown>();
  walkObjects(copy, (node) => {
    if (!Array.isArray(node.allOf)) return;
    node.allOf = node.allOf.map((member: unknown) => (isObject(member) && typeof member.$ref === "string" ? structuredClone(deref(document, member)) : member));
    for (const member of node.allOf as unknown[]) members.add(member);
    if (!("additionalProperties" in node)) node.unevaluatedProperties = false;
  });
  walkObjects(copy, (node) => {
    if (members.has(node)) return;
    if (isObject(node.properties) && !("additionalProperties" in node)) node.unevaluatedProperties = false;
  });
  return copy;
}

function strictValidator(document: JsonObject) {
  const ajv = createContractAjv(forbidUnknownProperties(document));
  return (schema: unknown, value: unknown) => {
    const validate = ajv.compile(anchorRefs(structuredClone(schema)) as object);
    return validate(value) ? [] : (validate.errors ?? []);
  };
}

const cases = collectExamples(contract);
const validate = strictValidator(contract);

describe("examples", () => {
  for (const op of operations) {
    it(`finds examples of ${op.operationId}`, () => {
      const at = `/paths/${op.template.replaceAll("/", "~1")}/${op.method.toLowerCase()}/`;
      expect(cases.some((c) => c.where.startsWith(at))).toBe(true);
    });
  }

  for (const example of cases) {
    it(`${example.where} matches its schema`, () => {
      expect(validate(example.schema, example.value)).toEqual([]);
    });
  }

  it("catches an example with a property its schema does not name", () => {
    const broken = structuredClone(contract);
    const media = (((broken.paths as JsonObject)["/v3/lab_tests/labs"] as JsonObject).get as JsonObject).responses as JsonObject;
    const examples = (((media["200"] as JsonObject).content as JsonObject)["application/json"] as JsonObject).examples as JsonObject;
    const first = deref(broken, Object.values(examples)[0]);
    (first.value as JsonObject[])[0]!.zip_code = "62701";
    const brokenCases = collectExamples(broken).filter((c) => c.where.includes("lab_tests~1labs"));
    expect(brokenCases.some((c) => strictValidator(broken)(c.schema, c.value).length > 0)).toBe(true);
  });

  it("catches a property no member of an allOf names, and accepts what any member names", () => {
    const schema = { $ref: "#/components/schemas/UserConflictError" };
    const conflict = { code: "user_already_exists", message: "taken", user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f", created_on: "2026-01-12T08:30:00Z" };
    expect(validate(schema, conflict)).toEqual([]);
    expect(validate(schema, { ...conflict, created_at: "2026-01-12T08:30:00Z" }).length).toBeGreaterThan(0);
  });
});
