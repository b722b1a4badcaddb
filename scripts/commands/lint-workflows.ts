// Checks what Redocly's Arazzo rules do not (in this release): that every step of openapi/workflows/ names an
// operation its source description has, and a source the file declares; one line per problem, exit 1 on any.
import { readFile } from "node:fs/promises";
import path from "node:path";
import YAML from "yaml";
import { isMain } from "../build/lib/cli.ts";
import { readWorkflows, WORKFLOWS_DIR } from "../../src/shared/workflow-files.ts";
import { HTTP_METHODS } from "../../src/contract/operations.ts";

/** The operationIds of an OpenAPI file. */
async function operationIds(file: string): Promise<Set<string>> {
  const text = await readFile(file, "utf8");
  const document = (file.endsWith(".json") ? JSON.parse(text) : YAML.parse(text)) as { paths?: Record<string, Record<string, { operationId?: string }>> };
  const ids = new Set<string>();
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const id = item[method]?.operationId;
      if (id !== undefined) ids.add(id);
    }
  }
  return ids;
}

export async function workflowProblems(dir = WORKFLOWS_DIR): Promise<string[]> {
  const problems: string[] = [];
  const sourcesByFile = new Map<string, Map<string, Set<string>>>();
  for (const workflow of await readWorkflows(dir)) {
    let sources = sourcesByFile.get(workflow.file);
    if (sources === undefined) {
      const document = YAML.parse(await readFile(path.join(dir, workflow.file), "utf8")) as { sourceDescriptions: { name: string; url: string }[] };
      sources = new Map();
      for (const source of document.sourceDescriptions) sources.set(source.name, await operationIds(path.resolve(dir, source.url)));
      sourcesByFile.set(workflow.file, sources);
    }
    for (const step of workflow.steps) {
      const ids = sources.get(step.source);
      if (ids === undefined) problems.push(`${workflow.file} ${workflow.workflowId}/${step.stepId}: no source description is named ${step.source}`);
      else if (!ids.has(step.operationId))
        problems.push(`${workflow.file} ${workflow.workflowId}/${step.stepId}: ${step.source} has no operation ${step.operationId}`);
    }
  }
  return problems;
}

if (isMain(import.meta.url)) {
  const problems = await workflowProblems();
  for (const problem of problems) console.error(problem);
  process.exit(problems.length === 0 ? 0 : 1);
}
