// Runs the document's flows (openapi/workflows/*.arazzo.yaml) against a server with `redocly respect`, and turns its
// JSON log into one check per step, naming the criterion that failed and what the server answered instead. The
// connection workflow's event is received here and checked with the package's own ./webhooks parser. The last pass of a
// run: it needs the sender (every request of respect's keeps its limits), the redactor and whether the target is the
// stateful mock; it gives checks only.
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { MOCK_PATHS } from "../../shared/mock-paths.ts";
import { MOCK_SOURCE, readWorkflows, WORKFLOWS_DIR, type Workflow } from "../../shared/workflow-files.ts";
import { RESPECT_MISSING, respectInstalled, runRespect, type RespectStep, type RespectWorkflow } from "./respect.ts";
import type { Check } from "../check.ts";
import { spentBudget, type Pass } from "../context.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { checkDelivery, deliverySkipped, type EventWorkflow } from "./delivery.ts";
import { EventContract } from "./event-contract.ts";
import type { JsonObject } from "../../contract/json.ts";
import type { Sender } from "../sender.ts";
import type { Redactor } from "../../contract/redact.ts";
import { redactHarFile } from "../../shared/har.ts";
import { startWorkflowProxy } from "./workflow-proxy.ts";
import { stepAnswer } from "./step-answer.ts";
import { deleteLeftovers, leftoverUsers, type Leftover } from "./workflow-leftovers.ts";

/** The workflow whose event the harness receives, the event's kind, and the steps that answer its secret, user and team. */
export const EVENT_WORKFLOW: EventWorkflow = {
  id: "connection-webhook",
  event: "provider.connection.created",
  endpointStep: "createEndpoint",
  userStep: "createUser",
  teamStep: "createTeam",
};

export interface WorkflowRunOptions {
  baseUrl: string;
  apiKey: string | undefined;
  managementKey: string | undefined;
  /** The target answers /_mock/state: the mock-only workflows run too. */
  mock: boolean;
  /** Write operations may run (a loopback target, or --allow-writes). */
  allowWrites: boolean;
  /** Where respect's HAR files go (one per workflow file, named after it), when asked. */
  harDir?: string;
  /**
   * The sender whose rate, deadline and size limit respect's requests keep (they all go through a proxy on 127.0.0.1
   * that sends them with a sender sharing its limiter): verify's own, required so that no caller can leave it out.
   */
  sender: Sender;
  /** What takes marked values and credentials out of the steps' details and the HAR files (the sender's, which learns from every request). */
  redactor: Redactor;
  /** The contract the run checks against: what an event's delivery must carry is read from its webhooks. */
  document: JsonObject;
  /** Where the workflows are (openapi/workflows/; tests point elsewhere). */
  dir?: string;
  log: (line: string) => void;
}

/** Why a workflow cannot run against this target, or undefined when it can. */
function skipReason(workflow: Workflow, options: WorkflowRunOptions): string | undefined {
  if (!respectInstalled()) return RESPECT_MISSING;
  if (workflow.mockOnly && !options.mock) return `mock-only: it uses the stateful mock's ${MOCK_PATHS.state}, which this server does not answer`;
  if (!options.allowWrites) return "it writes (creates users and records); pass --allow-writes if the target is a test environment";
  if (workflow.inputs.includes("apiKey") && options.apiKey === undefined) return "needs a team API key (--api-key)";
  if (workflow.inputs.includes("managementKey") && options.managementKey === undefined) return "needs a management key (--management-key)";
  return undefined;
}

const excerpt = (value: unknown): string => {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === undefined ? "no body" : text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** An answer's body as a step's detail quotes it: marked values removed, a body that is not JSON by its size only. */
function answerExcerpt(step: RespectStep, operationId: string, redactor: Redactor): string {
  const body = step.response!.body;
  if (typeof body === "string" && body !== "") return redactor.opaque({ text: body, status: step.response!.statusCode });
  return excerpt(redactor.response(redactor.operationById(operationId), step.response!.statusCode, body));
}

/** What a failed step is told: each failed criterion, then what the server answered. */
function difference(step: RespectStep, operationId: string, redactor: Redactor): string {
  const failed = step.checks.filter((check) => !check.passed);
  const criteria = failed.map((check) => {
    // respect's messages are for a terminal: colours, then a code frame of the body (which the answer below shows).
    const lines = (check.message ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !/^(>\s*)?\d+ \|/.test(line) && !/^\|/.test(line) && !/^>$/.test(line));
    // A criterion says its condition; the contract's checks say what was expected and received.
    const said =
      check.condition ??
      (check.name === "schema check" || check.name === "status code check" ? lines.join(" ").replace(/\s+/g, " ").slice(0, 300) : (lines[0] ?? ""));
    return `${check.name} ${said}`.trim();
  });
  const answer = step.response === undefined ? "no response" : `got ${step.response.statusCode} ${answerExcerpt(step, operationId, redactor)}`;
  return `${criteria.join("; ") || "failed"}; ${answer}`;
}

/**
 * The checks of one workflow from respect's log: a step each, the steps after a failure as not run. A workflow respect
 * did not run at all, or stopped on its own (a timeout), fails at its first step not done, with respect's reason:
 * a runner that cannot run must not pass as a run with nothing to report.
 */
function stepChecks(workflow: Workflow, ran: RespectWorkflow | undefined, notRun: string, redactor: Redactor): Check[] {
  const suite = `workflow ${workflow.workflowId}`;
  const checks: Check[] = [];
  let stopped: string | undefined;
  for (const step of workflow.steps) {
    const name = `${workflow.workflowId} / ${step.stepId}`;
    const done = ran?.executedSteps.find((each) => each.stepId === step.stepId);
    if (stopped !== undefined) {
      checks.push({ suite, name, status: "skipped", detail: stopped, operationId: step.operationId, ms: 0 });
      continue;
    }
    if (done === undefined) {
      const why =
        ran === undefined
          ? notRun
          : ran.globalTimeoutError !== undefined
            ? `respect stopped the workflow: ${excerpt(ran.globalTimeoutError)}`
            : `respect did not run the step (workflow ${ran.status})`;
      checks.push({ suite, name, status: "failed", detail: why, operationId: step.operationId, ms: 0 });
      stopped = `not run: step ${step.stepId} was not run`;
      continue;
    }
    const passed = done.status === "success" && done.checks.every((check) => check.passed);
    // What the server answered the failed step, as respect's log has it (respect's failures have no reproduction).
    const answer = passed ? undefined : stepAnswer(done, redactor);
    checks.push({
      suite,
      name,
      status: passed ? "passed" : "failed",
      ...(passed ? {} : { detail: difference(done, step.operationId, redactor) }),
      ...(answer === undefined ? {} : { answer }),
      operationId: step.operationId,
      ms: done.totalTimeMs ?? 0,
    });
    if (!passed) stopped = `not run: step ${step.stepId} failed`;
  }
  return checks;
}

export async function runWorkflows(options: WorkflowRunOptions): Promise<Check[]> {
  const dir = options.dir ?? WORKFLOWS_DIR;
  const workflows = await readWorkflows(dir);
  const checks: Check[] = [];
  const runnable = new Map<string, Workflow[]>();
  for (const workflow of workflows) {
    const why = skipReason(workflow, options);
    if (why !== undefined) {
      checks.push({ suite: `workflow ${workflow.workflowId}`, name: workflow.workflowId, status: "skipped", detail: why, ms: 0 });
      continue;
    }
    runnable.set(workflow.file, [...(runnable.get(workflow.file) ?? []), workflow]);
  }
  if (runnable.size === 0) return checks;
  // What the workflow files write (a criterion's expected value, a payload) is the package's words, not a server's.
  for (const file of runnable.keys()) options.redactor.addContractWords([YAML.parse(await readFile(path.join(dir, file), "utf8"))]);

  const needsReceiver = [...runnable.values()].flat().some((workflow) => workflow.workflowId === EVENT_WORKFLOW.id);
  const receiver: Receiver | undefined = needsReceiver ? await startReceiver() : undefined;
  const events = needsReceiver ? new EventContract(options.document) : undefined;
  const scratch = await mkdtemp(path.join(os.tmpdir(), "svc-verify-"));
  // Every workflow request through the proxy, on every run: respect alone would follow a redirect with the credentials.
  const { sender } = options;
  const proxy = await startWorkflowProxy(options.baseUrl, sender.sibling());
  const server = proxy.url;
  const leftovers: Leftover[] = [];
  const inputs: Record<string, string> = {
    clientUserId: `verify-${randomBytes(6).toString("hex")}`,
    provider: "whoop",
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.managementKey === undefined ? {} : { managementKey: options.managementKey }),
    ...(receiver === undefined ? {} : { webhookUrl: receiver.url }),
  };
  // respect runs the files of one invocation one after another, in order, as separate runs would, and a node start
  // costs it about a second: one run for all files, but for HAR files, which respect writes for a run of one file only.
  // Each file of a run has a workflow chosen (respect refuses a file none of whose workflows is named).
  const files = [...runnable.keys()];
  const batches = options.harDir === undefined ? [files] : files.map((file) => [file]);
  try {
    for (const [index, batch] of batches.entries()) {
      const chosen = batch.flatMap((file) => runnable.get(file)!);
      const named = batch.join(", ");
      const log = path.join(scratch, `run-${index}.json`);
      const har = options.harDir === undefined ? undefined : path.join(options.harDir, `${batch[0]!.replace(/\.arazzo\.yaml$/, "")}.har`);
      const args = [
        ...batch.map((file) => path.join(dir, file)),
        ...chosen.flatMap((workflow) => ["--workflow", workflow.workflowId]),
        ...Object.entries(inputs).flatMap(([name, value]) => ["--input", `${name}=${value}`]),
        "--server",
        `svc=${server}`,
        "--server",
        `${MOCK_SOURCE}=${server}`,
        "--json-output",
        log,
        // respect waits on the proxy, which answers within the sender's deadline: a little longer, so the proxy's 502 wins.
        "--max-fetch-timeout",
        String(Math.max(30_000, sender.timeoutMs + 5_000)),
        ...(har === undefined ? [] : ["--har-output", har]),
      ];
      const run = await runRespect(args);
      // Before anything else reads it: the HAR as respect wrote it holds every body and credential in full.
      if (har !== undefined) await redactHarFile(har, options.redactor);
      // What respect ran, by file (its log names each by the path it was given), so no id is looked up in another file.
      let ran = new Map<string, RespectWorkflow[]>();
      let notRun = `respect ran no workflow of ${named} (exit ${run.code})`;
      try {
        const report = JSON.parse(await readFile(log, "utf8")) as { files: Record<string, { executedWorkflows: RespectWorkflow[] }> };
        ran = new Map(Object.entries(report.files).map(([file, each]) => [path.basename(file), each.executedWorkflows]));
      } catch {
        const last =
          `${run.stderr}\n${run.stdout}`
            .split("\n")
            .map((line) => line.trim())
            .filter((line) => line !== "" && !/[║╔╚]|nodedir/.test(line))
            .at(-1) ?? `exit ${run.code}`;
        notRun = `respect wrote no log for ${named}: ${last}`;
        options.log(notRun);
      }
      for (const workflow of chosen) {
        const executed = ran.get(workflow.file)?.find((each) => each.workflowId === workflow.workflowId);
        const stepsChecked = stepChecks(workflow, executed, notRun, options.redactor);
        checks.push(...stepsChecked);
        // On the mock, verify forgets the whole run's state instead.
        if (executed !== undefined && !options.mock) leftovers.push(...leftoverUsers(workflow, executed));
        if (workflow.workflowId === EVENT_WORKFLOW.id && receiver !== undefined) {
          const failed = stepsChecked.some((check) => check.status !== "passed");
          checks.push(
            ...(failed ? deliverySkipped(EVENT_WORKFLOW, "not run: the workflow failed") : await checkDelivery(receiver, executed!, EVENT_WORKFLOW, events!)),
          );
        }
      }
    }
    checks.push(...(await deleteLeftovers(options.baseUrl, leftovers, sender)));
  } finally {
    await receiver?.close();
    await proxy.close();
    await rm(scratch, { recursive: true, force: true });
  }
  return checks;
}

/** The workflows as the run's last pass: not with --skip-workflows, nor once the time budget is spent. */
export const workflowPass: Pass = async (context) => {
  const { options } = context;
  if (options.skipWorkflows || spentBudget(context, "workflow")) return;
  // respect writes one HAR per workflow file into this folder, named after the file.
  const harDir = options.har ? path.join(options.reportDir, "har") : undefined;
  try {
    if (harDir !== undefined) await mkdir(harDir, { recursive: true });
    const checks = await runWorkflows({
      baseUrl: options.baseUrl,
      apiKey: options.credentials.apiKey,
      managementKey: options.credentials.managementKey,
      mock: context.mock,
      allowWrites: options.allowWrites,
      ...(harDir === undefined ? {} : { harDir }),
      // One limiter, deadline and size limit for every request verify sends: the workflows' keep the pass's.
      sender: context.sender,
      redactor: context.redactor,
      document: context.document,
      log: context.log,
    });
    checks.forEach(context.record);
  } catch (error) {
    // The reports are still written: a runner that cannot run is one failed check, not a lost run.
    context.record({ suite: "workflow", name: "the workflows run", status: "failed", detail: (error as Error).message, ms: 0 });
  }
};
