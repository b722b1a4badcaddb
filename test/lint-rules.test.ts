// Every house rule of .spectral.yaml fires on a fixture that breaks it, and stays quiet on one that does not.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { spectralLint } from "../scripts/commands/spectral-in-process.ts";

type Doc = Record<string, any>;
const op = (doc: Doc) => doc.paths["/v2/things/{thing_id}"].get;
const create = (doc: Doc) => doc.paths["/v2/things"].post;
const list = (doc: Doc) => doc.paths["/v2/things"].get;
const schema = (doc: Doc, name: string) => doc.components.schemas[name];

/** Each house rule and one edit of the base fixture that breaks it. */
const BREAKERS: Record<string, (doc: Doc) => void> = {
  "svc-path-versioned": (doc) => {
    doc.paths["/things"] = doc.paths["/v2/things"];
    delete doc.paths["/v2/things"];
  },
  "svc-operation-id-verb-noun": (doc) => (op(doc).operationId = "thing_get"),
  "svc-summary-style": (doc) => (op(doc).summary = "Gets a thing."),
  "svc-declares-401": (doc) => delete create(doc).responses["401"],
  "svc-body-declares-422": (doc) => delete create(doc).responses["422"],
  "svc-resource-path-declares-404": (doc) => delete op(doc).responses["404"],
  "svc-closed-beta-declares-403": (doc) => delete op(doc).responses["403"],
  "svc-closed-beta-form": (doc) => (op(doc)["x-svc-closed-beta"] = "yes"),
  "svc-provisional-cites-section": (doc) => (op(doc).responses["200"]["x-svc-provisional"] = "Not shown."),
  "svc-non-exhaustive-form": (doc) => {
    doc.components.schemas.ThingKind = { "x-svc-non-exhaustive": true, type: "string", enum: ["round", "square"] };
  },
  "svc-deprecated-names-replacement": (doc) => (doc.components.schemas.Thing.properties.legacy_name.description = "An old name."),
  "svc-transport-responses-form": (doc) => (doc["x-svc-transport-responses"] = { malformed: { description: "Not a status code." } }),
  "svc-response-examples": (doc) => delete create(doc).responses["200"].content["application/json"].examples,
  "svc-request-examples": (doc) => delete create(doc).requestBody.content["application/json"].examples,
  "svc-traces-form": (doc) => delete doc.components.schemas.ThingKind["x-svc-traces"],
  "svc-deprecated-scheme-form": (doc) => (doc.components.securitySchemes.TeamApiKey["x-svc-deprecated"] = "the new key"),
  "svc-document-sections-form": (doc) => (doc["x-svc-document-sections"] = ["4.1"]),
  "svc-valid-call-form": (doc) => (op(doc)["x-svc-valid-call"] = { path: { thing_id: 7 } }),
  "svc-valid-call-sends-body": (doc) => delete create(doc)["x-svc-valid-call"].body_example,
  "svc-mock-branches-form": (doc) => (create(doc)["x-svc-mock-branches"][0].when.in = "header"),
  "svc-collection-marks": (doc) => delete list(doc)["x-svc-paging"],
  "svc-link-credential-form": (doc) => (create(doc).responses["200"].links.readThing["x-svc-credential"] = "kind"),
  "svc-links-valid": (doc) => (create(doc).responses["200"].links.readThing.operationId = "getNothing"),
  // Visit holds health data only through the patient it references.
  "svc-data-marked": (doc) => (schema(doc, "Visit").properties.notes = { type: "string" }),
};

/** The other ways to break svc-collection-marks: a mark's form, and what it names. */
const MORE_COLLECTION_BREAKERS: Record<string, (doc: Doc) => void> = {
  "paging that names no list of the answer": (doc) => (list(doc)["x-svc-paging"] = { items: "total" }),
  "paging mark of another form": (doc) => (list(doc)["x-svc-paging"] = { items: "things", size: 10 }),
  "filter on a field the items do not have": (doc) => (list(doc).parameters[0]["x-svc-filter"].field = "colour"),
  "filter with a match it does not know": (doc) => (list(doc).parameters[0]["x-svc-filter"].match = "any"),
};

/** The other ways to break svc-links-valid: how a link names its target, fills its parameters and points into the schemas. */
const MORE_LINK_BREAKERS: Record<string, (doc: Doc) => void> = {
  "link by operationRef": (doc) => (create(doc).responses["200"].links.readThing.operationRef = "#/paths/~1v2~1things~1{thing_id}/get"),
  "link parameter not qualified": (doc) => (create(doc).responses["200"].links.readThing.parameters = { thing_id: "$response.body#/kind" }),
  "link parameter the target does not take": (doc) => (create(doc).responses["200"].links.readThing.parameters = { "query.colour": "$response.body#/kind" }),
  "link expression to a field the answer lacks": (doc) => (create(doc).responses["200"].links.readThing.parameters = { "path.thing_id": "$response.body#/id" }),
  "link body field the target lacks": (doc) => (create(doc).responses["200"].links.createAnother.requestBody = { colour: "$response.body#/kind" }),
};

/** The other ways to break svc-data-marked, whose function has more to get wrong than one rule's pattern. */
const MORE_DATA_MARK_BREAKERS: Record<string, (doc: Doc) => void> = {
  "unmarked property beside marked ones": (doc) => (schema(doc, "Patient").properties.nickname = { type: "string" }),
  "container marked weaker than what it holds": (doc) => (schema(doc, "Visit").properties.patient["x-svc-data"] = "none"),
  "mark that is not one of the three": (doc) => (schema(doc, "Patient").properties.name["x-svc-data"] = "PHI"),
  "mark beside a $ref that is not one of the three": (doc) => (schema(doc, "Patient").properties.address["x-svc-data"] = "private"),
  "mark on a parameter that is not one of the three": (doc) => (op(doc).parameters[0]["x-svc-data"] = "confidential"),
  "first marked field in a schema that held none": (doc) =>
    (schema(doc, "Room").properties.occupant = { $ref: "#/components/schemas/Patient", "x-svc-data": "phi" }),
};

let scratch: string;
let results: Awaited<ReturnType<typeof spectralLint>>;
const fixtureFile = (name: string) => path.join(scratch, `${name}.yaml`);

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "svc-lint-rules-"));
  const base = YAML.parse(await readFile(path.join(repoRoot, "test/fixtures/lint/base.yaml"), "utf8")) as Doc;
  await writeFile(fixtureFile("base"), YAML.stringify(base));
  const breakers = { ...BREAKERS, ...MORE_DATA_MARK_BREAKERS, ...MORE_COLLECTION_BREAKERS, ...MORE_LINK_BREAKERS };
  for (const [name, breakIt] of Object.entries(breakers)) {
    const broken = structuredClone(base);
    breakIt(broken);
    await writeFile(fixtureFile(name), YAML.stringify(broken));
  }
  // One Spectral run over every fixture: it is the slow part.
  const files = ["base", ...Object.keys(breakers)].map(fixtureFile);
  results = await spectralLint(files, { ruleset: ".spectral.yaml", cwd: repoRoot });
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/**
 * The findings on a fixture, but the OWASP ruleset's: the contract waives those rule by rule for its own files only
 * (the overrides below), and a fixture is too small a contract to keep them all.
 */
function codesFor(name: string): string[] {
  return results.filter((r) => path.resolve(r.source ?? "") === fixtureFile(name) && !r.code.startsWith("owasp:")).map((r) => r.code);
}

describe("house lint rules", () => {
  it("has a breaking fixture for every svc- rule in .spectral.yaml", async () => {
    const ruleset = YAML.parse(await readFile(path.join(repoRoot, ".spectral.yaml"), "utf8")) as Doc;
    const houseRules = Object.keys(ruleset.rules).filter((name) => name.startsWith("svc-"));
    expect(Object.keys(BREAKERS).sort()).toEqual(houseRules.sort());
  });

  it("passes the base fixture without a finding", () => {
    expect(codesFor("base")).toEqual([]);
  });

  for (const rule of Object.keys(BREAKERS)) {
    it(`${rule} fires on a fixture that breaks it`, () => {
      expect(codesFor(rule)).toContain(rule);
    });
  }

  for (const way of Object.keys(MORE_DATA_MARK_BREAKERS)) {
    it(`svc-data-marked fires on a ${way}`, () => {
      expect(codesFor(way)).toContain("svc-data-marked");
    });
  }

  for (const way of Object.keys(MORE_COLLECTION_BREAKERS)) {
    it(`svc-collection-marks fires on a ${way}`, () => {
      expect(codesFor(way)).toContain("svc-collection-marks");
    });
  }

  for (const way of Object.keys(MORE_LINK_BREAKERS)) {
    it(`svc-links-valid fires on a ${way}`, () => {
      expect(codesFor(way)).toContain("svc-links-valid");
    });
  }

  it("runs the OWASP ruleset on the fixtures too", () => {
    expect(results.some((r) => r.code.startsWith("owasp:"))).toBe(true);
  });
});

describe("lint waivers (.spectral.yaml overrides)", () => {
  let overrides: Doc[];
  const turnsOff = (entry: Doc) =>
    Object.entries(entry.rules ?? {})
      .filter(([, severity]) => severity === "off")
      .map(([rule]) => rule);

  beforeAll(async () => {
    const ruleset = YAML.parse(await readFile(path.join(repoRoot, ".spectral.yaml"), "utf8")) as Doc;
    expect(ruleset.extends).toEqual(expect.arrayContaining(["spectral:oas", "@stoplight/spectral-owasp-ruleset"]));
    overrides = ruleset.overrides as Doc[];
  });

  it("give each rule they turn off a reason: a sentence in x-svc-waiver", () => {
    for (const entry of overrides.filter((e) => turnsOff(e).length > 0)) {
      expect(String(entry["x-svc-waiver"]), turnsOff(entry).join(", ")).toMatch(/^[A-Z].{20,}\.$/s);
    }
  });

  it("cite the document's section where the reason is its silence", () => {
    for (const entry of overrides) {
      const reason = String(entry["x-svc-waiver"] ?? "");
      if (/not shown/.test(reason)) expect(reason, turnsOff(entry).join(", ")).toMatch(/\(sections? [0-9]/);
    }
  });

  it("waive each rule once, and give each reason once", () => {
    const rules = overrides.flatMap(turnsOff);
    expect(rules.length).toBe(new Set(rules).size);
    const reasons = overrides.map((entry) => entry["x-svc-waiver"]);
    expect(reasons.length).toBe(new Set(reasons).size);
  });

  it("keep the plain-http waiver to the local mock's server", () => {
    const entry = overrides.find((e) => turnsOff(e).includes("owasp:api8:2023-no-server-http"))!;
    expect(entry.files).toContain("openapi/openapi.yaml#/servers/1");
  });
});
