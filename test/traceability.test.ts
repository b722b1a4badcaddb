// The traceability table (generated/traceability.md) covers every section of the interface document, in order, and
// names only files that exist; every spec file and every workflow says which sections it traces.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { documentSections, mustTrace, renderTraceability } from "../scripts/build/generate-traceability.ts";
import { generatedDir, repoRoot } from "../scripts/build/lib/paths.ts";
import { copyOf } from "./support/fresh-copy.ts";
import { readWorkflows } from "../src/shared/workflow-files.ts";

const table = readFileSync(path.join(generatedDir, "traceability.md"), "utf8");
const rows = table.split("\n").filter((line) => /^\| \d/.test(line));

/** The numbered sections of the interface document (its headings "## N." and "### N.M"), as it states them. */
const SECTIONS = [
  "1",
  "2.1",
  "2.2",
  "2.3",
  "2.4",
  "2.5",
  "2.6",
  "2.7",
  "2.8",
  "2.9",
  "2.10",
  "2.11",
  "2.12",
  "2.13",
  "3",
  "4.1",
  "4.2",
  "4.3",
  "4.4",
  "4.5",
  "4.6",
  "4.7",
  "4.8",
  "4.9",
  "4.10",
  "4.11",
  "4.12",
  "4.13",
  "4.14",
  "5",
  "6",
  "7",
  "8",
  "9",
];
const DOCUMENT = path.join(repoRoot, "..", "shared", "seed", "000_3cd0027fc84847a6.txt");
const root = YAML.parse(readFileSync(path.join(repoRoot, "openapi/openapi.yaml"), "utf8")) as Record<string, unknown>;

describe("the interface document's sections (x-svc-document-sections)", () => {
  it("are the document's, in its order", () => {
    expect([...documentSections(root).keys()]).toEqual(SECTIONS);
  });

  it.skipIf(!existsSync(DOCUMENT))("carry the titles the document gives them", () => {
    const headings = [...readFileSync(DOCUMENT, "utf8").matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? (.+)$/gm)].map((m) => [m[1]!, m[2]!] as const);
    // A section with subsections (2, 4) is covered by its subsections' rows.
    const leaves = headings.filter(([h]) => !headings.some(([other]) => other.startsWith(`${h}.`)));
    expect(leaves.map(([section, title]) => `${section} ${title}`)).toEqual([...documentSections(root)].map(([section, title]) => `${section} ${title}`));
  });
});

describe("generated/traceability.md", () => {
  it("has one row per section of the interface document, in order", () => {
    expect(rows.map((row) => /^\| ([\d.]+) /.exec(row)?.[1])).toEqual(SECTIONS);
  });

  for (const row of rows) {
    const section = /^\| ([\d.]+) /.exec(row)![1];
    it(`links only files that exist, at least one, for section ${section}`, () => {
      const links = [...row.matchAll(/\]\(\.\.\/(openapi\/[^)]+)\)/g)].map((m) => decodeURI(m[1]!));
      expect(links.length, `section ${section} names no file`).toBeGreaterThan(0);
      for (const link of links) expect(existsSync(path.join(repoRoot, link)), `${link} (section ${section})`).toBe(true);
    });
  }

  it("names every spec file that must trace a section", () => {
    const named = new Set(rows.flatMap((row) => [...row.matchAll(/\[`([^`]+)`\]/g)].map((m) => m[1]!)));
    const files = (readdirSync(path.join(repoRoot, "openapi"), { recursive: true }) as string[]).map((f) => f.split(path.sep).join("/")).filter(mustTrace);
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((file) => !named.has(file))).toEqual([]);
  });
});

describe("the workflows in generated/traceability.md", () => {
  it("name every workflow in each section it traces, mock-only ones marked", async () => {
    const workflows = await readWorkflows();
    expect(workflows.length).toBeGreaterThanOrEqual(10);
    for (const workflow of workflows) {
      expect(workflow.traces.length, workflow.workflowId).toBeGreaterThan(0);
      for (const section of workflow.traces) {
        const row = rows.find((line) => line.startsWith(`| ${section} `))!;
        const cell = row.split(" | ").at(-1)!;
        expect(cell, `${workflow.workflowId} in section ${section}`).toContain(
          `[\`${workflow.workflowId}\`](../openapi/workflows/${workflow.file})${workflow.mockOnly ? " (mock-only)" : ""}`,
        );
      }
    }
  });

  it("refuses a workflow that traces no section, or one the document does not have", async () => {
    const copy = await copyOf(["openapi"]);
    const users = path.join(copy, "openapi/workflows/users.arazzo.yaml");
    const text = readFileSync(users, "utf8");
    await writeFile(users, text.replace("x-svc-traces: ['4.6']", "x-svc-traces: ['4.15']"));
    await expect(renderTraceability(copy)).rejects.toThrow("workflow sign-in-token traces section 4.15, which x-svc-document-sections does not list");
    await writeFile(users, text.replace("    x-svc-traces: ['4.6']\n", ""));
    await expect(renderTraceability(copy)).rejects.toThrow("workflow sign-in-token (openapi/workflows/users.arazzo.yaml) names no section");
  });
});

describe("the traceability generator", () => {
  it("refuses a spec file that traces no section, naming it", async () => {
    const copy = await copyOf(["openapi"]);
    const file = path.join(copy, "openapi/lab-tests/schemas/Lab.yaml");
    await writeFile(file, readFileSync(file, "utf8").replace(/^x-svc-traces: .*\n/m, ""));
    await expect(renderTraceability(copy)).rejects.toThrow("openapi/lab-tests/schemas/Lab.yaml names no section");
  });

  it("refuses a section the document does not have, and a section no file traces", async () => {
    const copy = await copyOf(["openapi"]);
    const labs = path.join(copy, "openapi/lab-tests/paths/v3_lab_tests_labs.yaml");
    await writeFile(labs, readFileSync(labs, "utf8").replace("x-svc-traces: ['4.13']", "x-svc-traces: ['4.15']"));
    await expect(renderTraceability(copy)).rejects.toThrow("traces section 4.15, which x-svc-document-sections does not list");
    await writeFile(labs, readFileSync(labs, "utf8").replace("x-svc-traces: ['4.15']", "x-svc-traces: ['4.12']"));
    await expect(renderTraceability(copy)).rejects.toThrow("no file under openapi/ traces section 4.13");
  });
});
