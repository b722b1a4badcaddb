// The Arazzo workflows as files (openapi/workflows/*.arazzo.yaml, or generated/workflows/ beside a built command): each
// workflow's steps, the inputs it requires and whether it needs the stateful mock. verify runs them; the repository's
// build (the traceability table) and its workflow lint read them too, so this sits below verify, not in it.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The workflows: generated/workflows/ (copied by the build, pointing at the bundle) beside a built command's folder, or
 * the repository's sources. This folder is as deep as src/verify/, and bundled into generated/verify/cli.js it reads
 * from there, so the same two candidates hold for both.
 */
export const WORKFLOWS_DIR =
  ["../workflows", "../../openapi/workflows"].map((candidate) => path.resolve(here, candidate)).find((dir) => existsSync(dir)) ??
  path.resolve(here, "../../openapi/workflows");

/** The source description of the mock-only control endpoint: a workflow with a step on it is mock-only. */
export const MOCK_SOURCE = "mock";

export interface WorkflowStep {
  stepId: string;
  /** The operation's id without its source (`createUser`), and the source (`svc` or `mock`). */
  operationId: string;
  source: string;
}

export interface Workflow {
  file: string;
  workflowId: string;
  steps: WorkflowStep[];
  /** Inputs the workflow requires (apiKey, managementKey, clientUserId, provider, webhookUrl). */
  inputs: string[];
  mockOnly: boolean;
  /** The interface document's sections the flow shows (`x-svc-traces`), for the traceability table. */
  traces: string[];
}

/** Every workflow of every file, read from the YAML (respect runs them; this decides which may run where). */
export async function readWorkflows(dir = WORKFLOWS_DIR): Promise<Workflow[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith(".arazzo.yaml")).sort();
  const workflows: Workflow[] = [];
  for (const file of files) {
    const document = YAML.parse(await readFile(path.join(dir, file), "utf8")) as {
      workflows: { workflowId: string; inputs?: { required?: string[] }; steps: { stepId: string; operationId: string }[]; "x-svc-traces"?: unknown[] }[];
    };
    for (const workflow of document.workflows) {
      const steps = workflow.steps.map((step) => {
        const match = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId);
        if (match === null)
          throw new Error(
            `${file} ${workflow.workflowId}/${step.stepId}: operationId ${step.operationId} does not name its source ($sourceDescriptions.<name>.<operationId>)`,
          );
        return { stepId: step.stepId, source: match[1]!, operationId: match[2]! };
      });
      workflows.push({
        file,
        workflowId: workflow.workflowId,
        steps,
        inputs: workflow.inputs?.required ?? [],
        mockOnly: steps.some((step) => step.source === MOCK_SOURCE),
        traces: (workflow["x-svc-traces"] ?? []).map(String),
      });
    }
  }
  return workflows;
}
