// A pull request of five additive contract edits (an optional response field, an open enumeration's value, a new
// operation, a new event kind, a deprecation) in a clean clone, built once and committed on a released base: its
// review against its parent finds each, the contract's part and the package surface's, as additive and nothing
// breaking, and the release it brings requires a minor.
import { cp, readFile, rm } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { review } from "../../scripts/commands/review.ts";
import type { ReviewResult } from "../../scripts/commands/review/report.ts";
import { changeFile, cloneOfTree, commitAll, inClone, tagHead } from "./release-steps.ts";

const LAB = "openapi/lab-tests/schemas/Lab.yaml";
const COLLECTION_METHOD = "openapi/lab-tests/schemas/CollectionMethod.yaml";
const ROOT = "openapi/openapi.yaml";

let clone: string | undefined;
let base: string;
let reviewed: ReviewResult;
let released: { code: number; output: string };

/** The five edits, as a pull request brings them: each in the files openapi/README.md says to touch. */
async function editContract(dir: string): Promise<void> {
  await changeFile(dir, LAB, "  zipcode:\n", "  website:\n    type: string\n    description: The lab's website.\n  zipcode:\n");
  await changeFile(
    dir,
    COLLECTION_METHOD,
    "  - `on_site_collection`: the sample is collected on site.\n",
    "  - `on_site_collection`: the sample is collected on site.\n  - `drive_through`: the sample is collected at a drive-through.\n",
  );
  await changeFile(dir, COLLECTION_METHOD, "      - on_site_collection\n", "      - on_site_collection\n      - drive_through\n");
  // The add-an-endpoint walk-through's area, one of its path items.
  await cp(path.join(dir, "test/fixtures/new-endpoint/widgets"), path.join(dir, "openapi/widgets"), { recursive: true });
  await changeFile(dir, ROOT, "\npaths:\n", "\npaths:\n  /v2/widgets:\n    $ref: widgets/paths/v2_widgets.yaml\n");
  await changeFile(
    dir,
    ROOT,
    "  provider.connection.created:\n",
    "  historical.data.note.created:\n    $ref: '#/components/pathItems/TimeseriesEvent'\n  provider.connection.created:\n",
  );
  await changeFile(
    dir,
    LAB,
    "  city:\n    type: string\n",
    "  city:\n    type: string\n    deprecated: true\n    description: 'Deprecated: use `first_line_address`, which holds the whole address. The city of the lab.'\n",
  );
}

beforeAll(async () => {
  clone = await cloneOfTree();
  const dir = clone;
  base = (JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  // The clone's tree, with the generated/ it ships, is the release the pull request is judged against.
  await tagHead(dir, `v${base}`);
  await editContract(dir);
  // Built once and committed with its generated/, as a reviewed pull request brings it.
  const built = await inClone(dir, "npm", ["run", "build", "--", "--no-reference"]);
  if (built.code !== 0) throw new Error(`the build of the edits failed:\n${built.output}`);
  await commitAll(dir, "five additive edits, with generated/");
  [reviewed, released] = await Promise.all([review({ root: dir, base: "HEAD~1" }), inClone(dir, "npm", ["run", "--silent", "release"])]);
}, 120_000);

afterAll(async () => {
  if (clone) await rm(clone, { recursive: true, force: true });
});

/** That the review found each of `changes`, each as `kind rule: subject, where: message`. */
const expectFound = (...changes: string[]) =>
  expect(reviewed.changes.map((change) => `${change.kind} ${change.rule}: ${change.subject.label}, ${change.where}: ${change.message}`)).toEqual(
    expect.arrayContaining(changes),
  );

describe("five additive contract edits, reviewed against their parent", () => {
  it("pass the review with nothing breaking and no lint finding", () => {
    expect(reviewed.changes.filter((change) => change.kind === "breaking")).toEqual([]);
    expect(reviewed.lint).toEqual([]);
    expect(reviewed.passed).toBe(true);
  });

  it("an optional response field: additive", () => {
    expectFound("additive field-added: listLabs (GET /v3/lab_tests/labs), response 200: [].website: optional field added");
  });

  it("an open enumeration's value: additive in the contract and in knownValues", () => {
    expectFound(
      'additive open-enum-value-added: listLabs (GET /v3/lab_tests/labs), response 200: [].collection_methods[]: value "drive_through" added to a non-exhaustive enumeration',
      'additive data-added: entry ./types, export knownValues: CollectionMethod: knownValues.CollectionMethod: "drive_through" added',
    );
  });

  it("a new operation: additive in the contract and in each client table that holds it", () => {
    expectFound(
      "additive operation-added: createWidget (POST /v2/widgets), operation: operation added",
      ...[".", "./client"].map(
        (entry) =>
          `additive data-added: entry ${entry}, type Table (named by the exports): route POST /v2/widgets: route POST /v2/widgets added (createWidget)`,
      ),
    );
  });

  it("a new event kind: additive in the contract and in eventKinds", () => {
    expectFound(
      "additive webhook-added: webhook historical.data.note.created, webhook: webhook added",
      'additive data-added: entry ./webhooks, export eventKinds: eventKinds: "historical.data.note.created" added',
    );
  });

  it("a deprecation: listed as one, never a break", () => {
    expectFound("deprecated deprecated: listLabs (GET /v3/lab_tests/labs), response 200: [].city: deprecated");
  });

  it("require a minor release", () => {
    const minor = semver.inc(base, "minor");
    expect(released.output).toMatch(
      new RegExp(
        `^Since v${base.replaceAll(".", "\\.")}: 0 breaking, [1-9]\\d* additive, 1 deprecated; they require a minor: ${minor!.replaceAll(".", "\\.")} `,
      ),
    );
    expect(released.code).toBe(0);
  });
});
