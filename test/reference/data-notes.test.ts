// A reader sees every x-svc-data mark of the contract: each property, parameter or header marked phi or secret says so in
// the description Redoc shows (beside a `$ref`, the sibling's, which Redoc lays over the target's), the introduction
// explains the marks and what the package does with marked values, and the published bundle gets none of this prose.
import { beforeAll, describe, expect, it } from "vitest";
import { isObject, walkObjects, type JsonObject } from "../../src/contract/json.ts";
import { readBundle } from "../../scripts/build/lib/paths.ts";
import { DATA_LABELS, DATA_MARK, DATA_NOTES, markedName, markedNodes, REMOVED, shownDescription } from "../../scripts/build/reference/data-notes.ts";
import { referenceDocument } from "../../scripts/build/reference/document.ts";
import { unwrapMarkdown } from "../../scripts/build/reference/prose.ts";

let contract: JsonObject;
let reference: JsonObject;

beforeAll(async () => {
  contract = await readBundle();
  reference = referenceDocument(contract);
});

function at(document: JsonObject, pointer: string): JsonObject {
  const found = pointer
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), document);
  if (!isObject(found)) throw new Error(`nothing at ${pointer}`);
  return found;
}

const property = (document: JsonObject, schema: string, field: string) => at(document, `/components/schemas/${schema}/properties/${field}`);

describe("the reference's health-data and secret notes", () => {
  it("show on every property, parameter and header the contract marks phi or secret", () => {
    const marked = markedNodes(contract);
    expect(marked.filter((entry) => entry.kind === "phi").length).toBeGreaterThan(100);
    expect(marked.filter((entry) => entry.kind === "secret").length).toBeGreaterThan(10);
    for (const { pointer, kind } of marked) {
      expect(shownDescription(reference, at(reference, pointer)), pointer).toContain(DATA_NOTES[kind]);
    }
  });

  it("show beside a $ref, after the property's own description (insured, medical_proxy)", () => {
    for (const [schema, field] of [
      ["Insurance", "insured"],
      ["InsuranceCreateRequest", "insured"],
      ["UserInfo", "medical_proxy"],
    ] as const) {
      const written = property(contract, schema, field);
      expect(written.$ref, `${schema}.${field}`).toBeTypeOf("string");
      const shown = shownDescription(reference, property(reference, schema, field));
      expect(shown.startsWith(unwrapMarkdown(String(written.description))), `${schema}.${field}`).toBe(true);
      expect(shown.endsWith(DATA_NOTES.phi), `${schema}.${field}`).toBe(true);
    }
  });

  it("keep a bare $ref's target description before the note, since the note beside it replaces the target's", () => {
    const written = property(contract, "PhlebotomyAppointment", "address");
    expect(written.description).toBeUndefined();
    const target = at(contract, String(written.$ref).slice(1));
    const shown = shownDescription(reference, property(reference, "PhlebotomyAppointment", "address"));
    expect(shown.startsWith(unwrapMarkdown(String(target.description)).trimEnd())).toBe(true);
    expect(shown).toContain(DATA_NOTES.phi);
  });

  it("show on the alternative Redoc shows in place of an anyOf property's description (race, interpretation, provider_mfa)", () => {
    for (const [schema, field] of [
      ["UserInfo", "race"],
      ["Order", "interpretation"],
      ["LinkMfaResult", "provider_mfa"],
    ] as const) {
      const written = property(contract, schema, field);
      const selected = (written.anyOf as JsonObject[])[0]!;
      const target = at(contract, String(selected.$ref).slice(1));
      const shown = (property(reference, schema, field).anyOf as JsonObject[])[0]!.description;
      expect(String(shown).startsWith(unwrapMarkdown(String(target.description)).trimEnd()), `${schema}.${field}`).toBe(true);
      expect(String(shown).endsWith(DATA_NOTES.phi), `${schema}.${field}`).toBe(true);
    }
  });

  it("note only what is marked (or an alternative of it), with its kind: nothing on none", () => {
    const kindOf = new Map<JsonObject, string>();
    for (const { node, kind } of markedNodes(reference)) {
      for (const shown of [node, ...((node.anyOf ?? node.oneOf ?? []) as JsonObject[])]) kindOf.set(shown, kind);
    }
    walkObjects(reference, (node, pointer) => {
      if (typeof node.description !== "string") return;
      for (const kind of ["phi", "secret"] as const) {
        if (node.description.includes(DATA_NOTES[kind])) expect(kindOf.get(node), pointer).toBe(kind);
      }
    });
    expect(property(reference, "Insurance", "is_primary")[DATA_MARK]).toBe("none");
    expect(String(property(reference, "Insurance", "is_primary").description)).not.toContain(DATA_LABELS.phi);
  });

  it("follow the marks: unmark a property and its note goes", () => {
    const copy = structuredClone(contract);
    expect(String(property(referenceDocument(copy), "UserInfo", "first_name").description)).toContain(DATA_NOTES.phi);
    delete property(copy, "UserInfo", "first_name")[DATA_MARK];
    expect(String(property(referenceDocument(copy), "UserInfo", "first_name").description ?? "")).not.toContain(DATA_NOTES.phi);
  });

  it("leave the published bundle as written: the marks, and none of the notes", () => {
    expect(property(contract, "Insurance", "insured")[DATA_MARK]).toBe("phi");
    const published = JSON.stringify(contract);
    for (const kind of ["phi", "secret"] as const) expect(published).not.toContain(JSON.stringify(DATA_NOTES[kind]).slice(1, -1));
  });

  it("are introduced: what the marks are, what the package does with them, the one secret it prints on purpose, and every secret by name", () => {
    const intro = String((reference.info as JsonObject).description);
    const section = intro.slice(intro.indexOf("## Health data and secrets"), intro.indexOf("## Paging"));
    expect(section.length).toBeGreaterThan(500);
    for (const said of [
      `\`${DATA_MARK}\``,
      `\`${REMOVED.phi}\``,
      `\`${REMOVED.secret}\``,
      "mock's log",
      "never carry an answer's body",
      "--show-data",
      "npm run events",
      "last four characters",
    ]) {
      expect(section).toContain(said);
    }
    for (const { pointer } of markedNodes(contract).filter((entry) => entry.kind === "secret")) {
      expect(section).toContain(`\`${markedName(pointer)}\``);
    }
  });
});

describe("markedName", () => {
  it("names a marked node as a reader writes it", () => {
    expect(markedName("/components/schemas/Insurance/properties/insured")).toBe("Insurance.insured");
    expect(markedName("/components/schemas/SleepCycle/properties/stages/items/properties/start")).toBe("SleepCycle.stages[].start");
    expect(markedName("/components/schemas/WebhookHeaders/additionalProperties")).toBe("WebhookHeaders.*");
  });
});
