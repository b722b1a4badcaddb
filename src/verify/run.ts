// verify's run, from its command line to its exit status: the operation, collection and protocol passes, the cleanup,
// the workflows, and the reports, which are written whatever the server does (a fault verify meets on the way is a
// failed check of its own).
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { listOperations } from "../contract/operations.ts";
import { validCalls } from "../contract/valid-calls.ts";
import { ContractValidator } from "../contract/validator.ts";
import { Redactor } from "../contract/redact.ts";
import type { JsonObject } from "../contract/json.ts";
import { readBundle } from "./package-files.ts";
import type { Check, MadeCheck } from "./checks.ts";
import { cleanUp } from "./cleanup.ts";
import { CredentialMap } from "./credentials.ts";
import { Fixtures, lifecycles } from "./fixtures.ts";
import { credentialLines, credentialVariables, Reproductions, type CredentialVariable } from "./repro.ts";
import { Sender } from "./http.ts";
import { planOperationPass, runRefusalChecks, runValidCalls } from "./operations.ts";
import { CoverageMap } from "./coverage-map.ts";
import { runCollectionPass } from "./collections.ts";
import { runProtocolPass, runRequiredHeaderChecks } from "./protocol.ts";
import { runCoveragePass } from "./coverage.ts";
import { runGeneratedPass } from "./generated.ts";
import { readVerifyOptions } from "./options.ts";
import { causeLines, checkLine, progressLine, summaryLine, writeReports, type Report } from "./report.ts";
import { Findings } from "./findings.ts";
import { spentBudget, type VerifyContext } from "./context.ts";
import { MOCK_STATE_PATH, probeTarget, type Target } from "./target.ts";
import { runWorkflows } from "./workflows.ts";
import { runReplay } from "./replay.ts";
import type { VerifyOutput } from "./output.ts";

export type { VerifyOutput };

/** Runs verify with a command line; resolves to its exit status: 0 nothing failed, 1 a check failed, 2 a command line it cannot run. */
export async function runVerify(argv: string[], out: VerifyOutput = console): Promise<number> {
  if (argv.some((arg) => arg === "--replay" || arg.startsWith("--replay="))) return runReplay(argv, out);
  const read = readVerifyOptions(argv);
  if ("help" in read) {
    out.log(read.help);
    return 0;
  }
  if ("error" in read) {
    out.error(`verify: ${read.error}`);
    return 2;
  }
  let options = read.options;

  const document = (await readBundle()) as JsonObject;
  const operations = listOperations(document);
  const unknown = (options.only ?? []).filter((id) => !operations.some((op) => op.operationId === id));
  if (unknown.length > 0) {
    out.error(`verify: --only ${unknown.join(", ")}: no such operation in the contract`);
    return 2;
  }

  const startedAt = new Date();
  const coverage = new CoverageMap();
  const credentialMap = new CredentialMap(document, operations);
  const started = performance.now();
  // Every check as the reports need it, each cause's first failures whole: bounded, whatever the server gets wrong.
  const findings = new Findings();
  // Everything verify writes (the console, both reports) passes here: a check's words may quote what a server said,
  // which loses what that server sent in marked fields (verify's own words and values are written as they are).
  const redactor = new Redactor(document, { show: options.showData });
  let fixtures: Fixtures | undefined;
  const reproductions = new Reproductions({
    reportDir: options.reportDir,
    credentialHeaders: redactor.credentialHeaders(),
    fixtures: () => fixtures,
    scrub: (text) => redactor.text(text),
  });
  let failures = 0;
  const record = ({ sent, ...check }: MadeCheck) => {
    const id = check.status === "failed" ? `F${++failures}` : undefined;
    const repro = id === undefined || sent === undefined ? undefined : reproductions.make(id, sent);
    const written: Check = {
      ...check,
      ...(id === undefined ? {} : { id }),
      name: redactor.text(check.name),
      ...(check.detail === undefined ? {} : { detail: redactor.text(check.detail) }),
      ...(repro === undefined ? {} : { repro: repro.curl, request: repro.request }),
    };
    findings.add(written);
    // A failure's id, for --replay and to find it in the reports.
    out.log(`${checkLine(written)}${id === undefined ? "" : `  [${id}]`}`);
    if (written.repro !== undefined) out.log(`    reproduce: ${written.repro}`);
    out.progress?.(progressLine(findings.summary, findings.last, sender.sent, performance.now() - started));
  };
  const sender = new Sender({ rate: options.rate, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes, redactor });

  const remember = () => Object.values(options.credentials).forEach((value) => value !== undefined && redactor.rememberCredential(value));
  remember();
  let target: Target = { reachable: false, error: "not probed" };
  /** The variables the reproductions read credentials from, as the run names them at its top. */
  let reproCredentials: CredentialVariable[] = [];
  try {
    target = await probeTarget(sender, options.baseUrl);
    const writes = options.allowWrites ? "writes allowed" : "no writes (--allow-writes to run them)";
    const rate = options.rate === undefined ? "no rate limit" : `at most ${options.rate} requests/s`;
    out.log(
      `verify: generated cases from seed ${options.seed} (--seed ${options.seed} replays them), ${options.cases} per operation; time budget ${options.timeBudgetMs / 1000} s`,
    );
    out.log(`verify: ${options.baseUrl}: ${target.reachable ? (target.mock ? "the package's stateful mock" : "a server") : "unreachable"}; ${writes}; ${rate}`);

    // On the stateful mock, a run with keys of its own: its users, clock moves and settings never reach the team of the
    // reference's placeholder keys (which the samples use) nor another run's, and it forgets them at the end.
    const ownKeys =
      target.reachable && target.mock
        ? { apiKey: !options.given.apiKey, managementKey: !options.given.managementKey }
        : { apiKey: false, managementKey: false };
    if (ownKeys.apiKey || ownKeys.managementKey) {
      const run = randomBytes(8).toString("hex");
      options = {
        ...options,
        credentials: {
          ...options.credentials,
          ...(ownKeys.apiKey ? { apiKey: `sk_test_verify_${run}` } : {}),
          ...(ownKeys.managementKey ? { managementKey: `mk_test_verify_${run}` } : {}),
        },
      };
      remember();
    }
    const variables = credentialVariables(options, ownKeys, credentialMap);
    for (const variable of variables) if (variable.secretValue !== undefined) reproductions.name(variable.secretValue, variable.variable);
    reproCredentials = variables.map(({ secretValue: _kept, ...shown }) => shown);
    out.log("verify: a reproduction reads each credential from the environment:");
    for (const line of credentialLines(reproCredentials)) out.log(`  ${line}`);
    if (ownKeys.apiKey) {
      // The run's own team on the mock completes bulk imports at once: every generated call with wait_for_completion
      // would otherwise wait out the mock's default duration, and the waiting would fill the run.
      const header = credentialMap.header("apiKey");
      const set = await sender.send({
        method: "PATCH",
        url: `${options.baseUrl}${MOCK_STATE_PATH}`,
        headers: { "content-type": "application/json", [header]: options.credentials.apiKey! },
        body: JSON.stringify({ settings: { bulk_import_duration_ms: 0 } }),
      });
      if (set.kind !== "answer" || set.status !== 200)
        record({
          suite: "setup",
          name: `the mock completes this run's bulk imports at once (PATCH ${MOCK_STATE_PATH})`,
          status: "failed",
          detail: set.kind === "answer" ? `answered ${set.status}` : set.error,
          ms: 0,
        });
    }

    if (!target.reachable) {
      // Every request would wait out the same failure: one check says it, and nothing else is tried.
      record({ suite: "target", name: `${options.baseUrl} answers`, status: "failed", detail: target.error, ms: 0 });
    } else {
      const validator = new ContractValidator(document);
      const context: VerifyContext = {
        document,
        operations,
        validator,
        credentials: credentialMap,
        sender,
        redactor,
        options,
        fixtures: (fixtures = new Fixtures(`verify-${randomBytes(4).toString("hex")}`, lifecycles(operations))),
        validCalls: validCalls(document, operations),
        coverage,
        deadline: started + options.timeBudgetMs,
        budgetNoted: new Set(),
        record,
      };
      const plan = planOperationPass(context);
      await runValidCalls(context, plan.keeping);
      // With the ids the valid calls made, before the deletes: every pass meets the fixtures alive.
      await runRefusalChecks(context, plan.selected);
      await runCoveragePass(context, plan.selected);
      await runGeneratedPass(context, plan.selected);
      await runCollectionPass(context);
      await runRequiredHeaderChecks(
        context,
        plan.selected.filter((op) => context.fixtures.isRemove(op) === undefined),
      );
      await runValidCalls(context, plan.removing);
      await runProtocolPass(context);
      await cleanUp(context);
      if (!options.skipWorkflows && !spentBudget(context, "workflow")) {
        // respect writes one HAR per workflow file into this folder, named after the file.
        const harDir = options.har ? path.join(options.reportDir, "har") : undefined;
        try {
          if (harDir !== undefined) await mkdir(harDir, { recursive: true });
          const workflowChecks = await runWorkflows({
            baseUrl: options.baseUrl,
            apiKey: options.credentials.apiKey,
            managementKey: options.credentials.managementKey,
            mock: target.mock,
            allowWrites: options.allowWrites,
            ...(harDir === undefined ? {} : { harDir }),
            // One limiter, deadline and size limit for every request verify sends: the workflows' keep the pass's.
            sender,
            redactor,
            document,
            log: (line) => out.log(redactor.text(line)),
          });
          workflowChecks.forEach(record);
        } catch (error) {
          // The reports are still written: a runner that cannot run is one failed check, not a lost run.
          record({ suite: "workflow", name: "the workflows run", status: "failed", detail: (error as Error).message, ms: 0 });
        }
      }
      if (ownKeys.apiKey || ownKeys.managementKey) {
        const credentials = context.credentials;
        const headers: Record<string, string> = {
          ...(ownKeys.apiKey ? { [credentials.header("apiKey")]: options.credentials.apiKey! } : {}),
          ...(ownKeys.managementKey ? { [credentials.header("managementKey")]: options.credentials.managementKey! } : {}),
        };
        const forgotten = await sender.send({ method: "DELETE", url: `${options.baseUrl}${MOCK_STATE_PATH}`, headers });
        const ok = forgotten.kind === "answer" && forgotten.status === 200;
        record({
          suite: "cleanup",
          name: `the mock forgets this run's team and org (DELETE ${MOCK_STATE_PATH})`,
          status: ok ? "passed" : "failed",
          ...(ok
            ? {}
            : {
                detail:
                  forgotten.kind === "answer"
                    ? `answered ${forgotten.status}: ${redactor.opaque({ text: forgotten.text, status: forgotten.status, statusText: forgotten.statusText, contentType: forgotten.headers.get("content-type") }, 200)}`
                    : forgotten.error,
              }),
          ms: Math.round(forgotten.ms),
        });
      }
    }
  } catch (error) {
    // A fault of verify's own, or one a server provoked: one failed check, and the reports are still written.
    record({
      suite: "verify",
      name: "verify runs to its end",
      status: "failed",
      detail: `verify stopped: ${(error as Error).stack ?? String(error)}`.slice(0, 2000),
      ms: 0,
    });
  }
  const report: Report = {
    baseUrl: options.baseUrl,
    mock: target.reachable && target.mock,
    allowWrites: options.allowWrites,
    rate: options.rate ?? null,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - started),
    requests: sender.sent,
    seed: options.seed,
    cases: options.cases,
    credentials: reproCredentials,
    summary: findings.summary,
    coverage: coverage.summary(
      document,
      operations.filter((op) => options.only === undefined || options.only.includes(op.operationId)),
    ),
    groups: findings.groups,
    checks: findings.checks,
  };
  const written = await writeReports(options.reportDir, report);
  out.log("");
  for (const line of causeLines(report.groups)) out.log(line);
  out.log(`reports: ${[written.json, written.junit, written.html].map((file) => path.relative(process.cwd(), file)).join(", ")}`);
  out.log(summaryLine(report));
  return report.summary.failed > 0 ? 1 : 0;
}
