// verify's run, from its command line to its exit status: the target probed and set up, the passes of PASSES in order,
// the target's tear-down, and the reports, which are written whatever the server does (a fault verify meets on the way
// is a failed check of its own).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { listOperations } from "../contract/operations.ts";
import { validCalls } from "../contract/valid-calls.ts";
import { ContractValidator } from "../contract/validator.ts";
import { Redactor } from "../contract/redact.ts";
import type { JsonObject } from "../contract/json.ts";
import { readBundle } from "./package-files.ts";
import type { Check, MadeCheck } from "./check.ts";
import { CredentialMap } from "./credential-map.ts";
import { Fixtures, lifecycles } from "./fixtures.ts";
import { Sender } from "./sender.ts";
import { readVerifyOptions } from "./options.ts";
import type { Pass, PassContext, VerifyContext } from "./context.ts";
import { prepareTarget, probeTarget, resetTarget, targetOptions } from "./target.ts";
import { planOperations } from "./passes/operation-plan.ts";
import { deletingCallPass, keepingCallPass } from "./passes/valid-call-pass.ts";
import { refusalPass } from "./passes/refusal-pass.ts";
import { invalidCallPass } from "./passes/invalid-call-pass.ts";
import { coveragePass } from "./passes/coverage-pass.ts";
import { generatedPass } from "./passes/generated-pass.ts";
import { collectionPass } from "./passes/collection-pass.ts";
import { requiredHeaderPass } from "./passes/required-header-pass.ts";
import { protocolPass } from "./passes/protocol-pass.ts";
import { cleanupPass } from "./passes/cleanup-pass.ts";
import { workflowPass } from "./workflows/workflow-pass.ts";
import { CoverageMap } from "./report/coverage-map.ts";
import { Findings } from "./report/findings.ts";
import { credentialLines, credentialVariables, headerVariables, Reproductions } from "./report/repro.ts";
import { secretParts } from "./gateway-headers.ts";
import { waitForTarget } from "./wait.ts";
import { answerLine, captureAnswer } from "./report/answer.ts";
import { causeLines, checkLine, progressLine, summaryLine, writeReports, type Report } from "./report/report.ts";
import { runReplay } from "./replay.ts";
import type { VerifyOutput } from "./output.ts";
import { OrderedPool } from "./ordered-pool.ts";
import { redactAgain } from "./redact-again.ts";

export type { VerifyOutput };
/** The command's flags, for the package's surface snapshot (scripts/build/surface.ts). */
export { FLAGS as VERIFY_COMMAND_FLAGS } from "./options.ts";

/**
 * The passes in the order a run makes them, one after another: --concurrency works within a pass only (so the
 * collection pass never meets a pass that creates). The valid calls come in two halves: the creates and every call
 * that keeps things first, so every pass up to the deletes meets the fixtures alive with the ids they made; the
 * deletes after them; the cleanup deletes what is left; the workflows last, alone and one at a time (they change the
 * run's own team and share one user and one receiver), on a server the pass left as it found it.
 */
const PASSES: Pass[] = [
  keepingCallPass,
  refusalPass,
  invalidCallPass,
  coveragePass,
  generatedPass,
  collectionPass,
  requiredHeaderPass,
  deletingCallPass,
  protocolPass,
  cleanupPass,
  workflowPass,
];

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

  const document = (await readBundle()) as JsonObject;
  const operations = listOperations(document);
  const unknown = (read.options.only ?? []).filter((id) => !operations.some((op) => op.operationId === id));
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
  const redactor = new Redactor(document, { show: read.options.showData });
  // A gateway's header is a credential from the first request on, the --wait's tries included.
  for (const { value } of read.options.headers) for (const part of secretParts(value)) redactor.rememberCredential(part);
  const sender = new Sender({
    rate: read.options.rate,
    timeoutMs: read.options.timeoutMs,
    maxResponseBytes: read.options.maxResponseBytes,
    redactor,
    headers: read.options.headers,
  });
  const waited =
    read.options.waitMs === undefined ? undefined : await waitForTarget(sender, read.options.baseUrl, read.options.waitMs, (line) => out.log(line));
  // What the target is decides the run's credentials (keys of its own on the stateful mock): the options are settled
  // here, once, before anything is sent with a credential.
  const target = waited?.ready === false ? { reachable: false as const, error: waited.error } : await probeTarget(sender, read.options.baseUrl);
  const { options, ownKeys } = targetOptions(target, read.options);
  for (const value of Object.values(options.credentials)) if (value !== undefined) redactor.rememberCredential(value);
  const fixtures = new Fixtures(`verify-${randomBytes(4).toString("hex")}`, lifecycles(operations));
  const reproductions = new Reproductions({
    reportDir: options.reportDir,
    credentialHeaders: redactor.credentialHeaders(),
    added: options.headers,
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
    // What the server answered, redacted, for the failures a cause keeps whole (made only for those).
    const { answer } = findings.add(written, () => (sent?.answer === undefined ? {} : { answer: captureAnswer(redactor, sent.request, sent.answer) }));
    // A failure's id, for --replay and to find it in the reports; --quiet prints the failures alone.
    if (!options.quiet || id !== undefined) out.log(`${checkLine(written)}${id === undefined ? "" : `  [${id}]`}`);
    if (written.repro !== undefined) out.log(`    reproduce: ${written.repro}`);
    if (answer !== undefined) out.log(`    answered: ${answerLine(answer)}`);
    out.progress?.(progressLine(findings.summary, findings.last, sender.sent, performance.now() - started));
  };

  const writes = options.allowWrites ? "writes allowed" : "no writes (--allow-writes to run them)";
  const rate = `${options.concurrency} at a time, ${options.rate === undefined ? "no rate limit" : `at most ${options.rate} requests/s`}`;
  out.log(
    `verify: generated cases from seed ${options.seed} (--seed ${options.seed} replays them), ${options.cases} per operation; time budget ${options.timeBudgetMs / 1000} s`,
  );
  out.log(`verify: ${options.baseUrl}: ${target.reachable ? (target.mock ? "the package's stateful mock" : "a server") : "unreachable"}; ${writes}; ${rate}`);
  const variables = [...credentialVariables(options, ownKeys, credentialMap), ...headerVariables(options.headers)];
  for (const variable of variables) if (variable.secretValue !== undefined) reproductions.name(variable.secretValue, variable.variable);
  /** The variables the reproductions read credentials from, as the run names them at its top. */
  const reproCredentials = variables.map(({ secretValue: _kept, ...shown }) => shown);
  out.log("verify: a reproduction reads each credential from the environment:");
  for (const line of credentialLines(reproCredentials)) out.log(`  ${line}`);

  try {
    const prepared = await prepareTarget(sender, options, ownKeys, credentialMap);
    if (prepared !== undefined) record(prepared);
    if (!target.reachable) {
      // Every request would wait out the same failure: one check says it, and nothing else is tried.
      record({ suite: "target", name: `${options.baseUrl} answers`, status: "failed", detail: target.error, ms: 0 });
    } else {
      const context: VerifyContext = {
        document,
        operations,
        validator: new ContractValidator(document),
        credentials: credentialMap,
        sender,
        redactor,
        options,
        fixtures,
        validCalls: validCalls(document, operations),
        coverage,
        deadline: started + options.timeBudgetMs,
        budgetNoted: new Set(),
        record,
      };
      const pool = new OrderedPool(options.concurrency);
      const passContext: PassContext = {
        ...context,
        plan: planOperations(context),
        mock: target.mock,
        log: (line) => out.log(redactor.text(line)),
        units: (units) => pool.run(context, units),
      };
      for (const pass of PASSES) await pass(passContext);
      const reset = await resetTarget(sender, options, ownKeys, credentialMap, redactor);
      if (reset !== undefined) record(reset);
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
  // A check was redacted with what the run had learnt when it was recorded, which depends on the order answers came
  // in: everything written is redacted again with all the run learnt.
  const checks = redactAgain(findings.checks, options.reportDir, (text) => redactor.text(text));
  const report: Report = {
    baseUrl: options.baseUrl,
    mock: target.reachable && target.mock,
    allowWrites: options.allowWrites,
    rate: options.rate ?? null,
    concurrency: options.concurrency,
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
    groups: findings.groups.map((group) => ({
      ...group,
      title: redactor.text(group.title),
      first: redactAgain([group.first], options.reportDir, (text) => redactor.text(text))[0]!,
    })),
    checks,
  };
  const written = await writeReports(options.reportDir, report);
  out.log("");
  for (const line of causeLines(report.groups)) out.log(line);
  out.log(`reports: ${[written.json, written.junit, written.html].map((file) => path.relative(process.cwd(), file)).join(", ")}`);
  out.log(summaryLine(report));
  return report.summary.failed > 0 ? 1 : 0;
}
