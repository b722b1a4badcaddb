// Makes generated/traceability.md, each section of the interface document with the spec files and the workflows that
// trace it, from the `x-svc-traces` beside each operation and component under openapi/, on each workflow of
// openapi/workflows/, and the section list in openapi/openapi.yaml.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { HTTP_METHODS } from "../../src/contract/operations.ts";
import { isObject, type JsonObject } from "../../src/contract/json.ts";
import { isMain } from "./lib/cli.ts";
import { repoRoot } from "./lib/paths.ts";
import { readWorkflows, type Workflow } from "../../src/shared/workflow-files.ts";

export const TRACES = "x-svc-traces";
export const DOCUMENT_SECTIONS = "x-svc-document-sections";

/** What one file traces, and what a reader should know of it before opening it. */
interface TracedFile {
  file: string;
  sections: string[];
  /** The operations a path item holds, or the root's parts. */
  names: string[];
  marks: string[];
}

/** A path item's operations, or the file's root, as the objects that carry the markers. */
function carriers(file: string, root: JsonObject): { holders: JsonObject[]; names: string[] } {
  if (file === "openapi.yaml") return { holders: [root], names: ["info", "tags", "servers"] };
  if (!/(^|\/)(paths|webhooks)\//.test(file)) return { holders: [root], names: [] };
  const methods = HTTP_METHODS.filter((method) => isObject(root[method]));
  return {
    holders: methods.map((method) => root[method] as JsonObject),
    names: methods.map((method) => String((root[method] as JsonObject).operationId ?? method.toUpperCase())),
  };
}

function traced(file: string, text: string): TracedFile | undefined {
  const root = YAML.parse(text) as unknown;
  if (!isObject(root)) return undefined;
  const { holders, names } = carriers(file, root);
  const sections = [...new Set(holders.flatMap((holder) => (Array.isArray(holder[TRACES]) ? holder[TRACES].map(String) : [])))];
  if (sections.length === 0) return undefined;
  const marks: string[] = [];
  if (holders.some((holder) => holder.deprecated === true)) marks.push("deprecated");
  if (holders.some((holder) => holder["x-svc-closed-beta"] === true)) marks.push("closed beta");
  if (holders.some((holder) => holder["x-svc-provisional"] !== undefined)) marks.push("provisional");
  else if (text.includes("x-svc-provisional:")) marks.push("parts provisional");
  return { file, sections, names, marks };
}

/** The interface document's sections in its order, number to title, as the root lists them ("2.1 Insurance record"). */
export function documentSections(root: JsonObject): Map<string, string> {
  const listed = root[DOCUMENT_SECTIONS];
  if (!Array.isArray(listed)) throw new Error(`traceability: openapi/openapi.yaml has no ${DOCUMENT_SECTIONS} list`);
  return new Map(
    listed.map((entry) => {
      const match = /^(\d+(?:\.\d+)?) (.+)$/.exec(String(entry));
      if (!match) throw new Error(`traceability: ${DOCUMENT_SECTIONS} entry "${String(entry)}" is not a section number and its title`);
      return [match[1]!, match[2]!];
    }),
  );
}

/** The files that must say what they trace: the root, and every path item, webhook, schema, parameter, response and security scheme. */
export function mustTrace(file: string): boolean {
  return file === "openapi.yaml" || /(^|\/)(paths|webhooks|schemas|parameters|responses|security)\/[^/]+\.yaml$/.test(file);
}

export async function renderTraceability(root: string = repoRoot): Promise<string> {
  const specDir = path.join(root, "openapi");
  const workflows = await readWorkflows(path.join(specDir, "workflows")).catch((error: NodeJS.ErrnoException) =>
    error.code === "ENOENT" ? [] : Promise.reject(error),
  );
  const files = ((await readdir(specDir, { recursive: true })) as string[])
    .map((file) => file.split(path.sep).join("/"))
    .filter(mustTrace)
    .sort();
  const texts = await Promise.all(files.map((file) => readFile(path.join(specDir, file), "utf8")));
  const sections = documentSections(YAML.parse(texts[files.indexOf("openapi.yaml")]!) as JsonObject);
  const bySection = new Map([...sections.keys()].map((section) => [section, [] as TracedFile[]]));
  files.forEach((file, i) => {
    const found = traced(file, texts[i]!);
    if (found === undefined) throw new Error(`traceability: openapi/${file} names no section of the interface document in ${TRACES}`);
    for (const section of found.sections) {
      const row = bySection.get(section);
      if (row === undefined) throw new Error(`traceability: openapi/${file} traces section ${section}, which ${DOCUMENT_SECTIONS} does not list`);
      row.push(found);
    }
  });
  const flows = new Map([...sections.keys()].map((section) => [section, [] as Workflow[]]));
  for (const workflow of workflows) {
    if (workflow.traces.length === 0)
      throw new Error(`traceability: workflow ${workflow.workflowId} (openapi/workflows/${workflow.file}) names no section in ${TRACES}`);
    for (const section of workflow.traces) {
      const row = flows.get(section);
      if (row === undefined)
        throw new Error(`traceability: workflow ${workflow.workflowId} traces section ${section}, which ${DOCUMENT_SECTIONS} does not list`);
      row.push(workflow);
    }
  }
  const lines = [
    "<!-- Generated by scripts/build/generate-traceability.ts from the x-svc-traces markers under openapi/. Do not edit: run `npm run build`. -->",
    "# Traceability: the interface document, section by section",
    "",
    "Each section of the interface document, and the files under `openapi/` whose operations or components say they",
    'trace it (`x-svc-traces`, beside each operation and at the top of each component file). "Provisional" means the',
    'document does not show that part and it carries `x-svc-provisional` (`openapi/extensions.md`); "parts',
    'provisional" means some of its fields or values do. The last column names the Arazzo workflows of',
    '`openapi/workflows/` that run the section\'s flow (`x-svc-traces` on each workflow); "mock-only" ones run only',
    "against the stateful mock.",
    "",
    "| section | spec location | workflows |",
    "|---|---|---|",
  ];
  for (const [section, row] of bySection) {
    if (row.length === 0) throw new Error(`traceability: no file under openapi/ traces section ${section} (${sections.get(section)})`);
    const cells = row.map(({ file, names, marks }) => {
      const notes = [...names.map((name) => `\`${name}\``), ...marks].join("; ");
      return `[\`${file}\`](${encodeURI(`../openapi/${file}`)})${notes ? ` (${notes})` : ""}`;
    });
    const runs = flows
      .get(section)!
      .map((flow) => `[\`${flow.workflowId}\`](${encodeURI(`../openapi/workflows/${flow.file}`)})${flow.mockOnly ? " (mock-only)" : ""}`);
    lines.push(`| ${section} ${sections.get(section)} | ${cells.join(", ")} | ${runs.join(", ")} |`);
  }
  return `${lines.join("\n")}\n`;
}

if (isMain(import.meta.url)) process.stdout.write(await renderTraceability());
