// `--replay <failure id>`: one failure of an earlier run sent again, on the same server, as its report kept it. What the
// failing request names that the run had created (a user, a team, a key) is created again first, with the same calls
// the run made, then the check's own steps (replay/steps.ts), and the new ids and credential put in its place; the
// answer is judged as the check judged the first one, by its rule too (replay/rules.ts), printed beside it, and what
// the replay created is deleted again.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ContractOperation } from "../contract/operations.ts";
import { Redactor } from "../contract/redact.ts";
import type { Check } from "./check.ts";
import { cleanUp } from "./passes/cleanup-pass.ts";
import type { VerifyContext } from "./context.ts";
import { WRITE_METHODS } from "./calls.ts";
import { CoverageMap } from "./report/coverage-map.ts";
import { CredentialMap } from "./credential-map.ts";
import { Fixtures, lifecycles } from "./fixtures.ts";
import { Sender } from "./sender.ts";
import { judgeAgain, judgedAs } from "./replay/rules.ts";
import { makeAgain } from "./replay/steps.ts";
import type { Router } from "../contract/router.ts";
import { replayContract } from "./replay/contract.ts";
import { readVerifyOptions, type VerifyOptions } from "./options.ts";
import { CREATED_CREDENTIAL_VARIABLE, CREDENTIAL_VARIABLES, type ReproRequest } from "./report/repro.ts";
import { REPORT_JSON, type Report } from "./report/report.ts";
import { MOCK_STATE_PATH } from "./target.ts";
import type { VerifyOutput } from "./output.ts";
import { headerVariable, secretParts } from "./gateway-headers.ts";

/** The flags a replay takes of verify's (the rest describe a whole run). */
const REPLAY_FLAGS = [
  "base-url",
  "api-key",
  "management-key",
  "allow-writes",
  "report-dir",
  "timeout-ms",
  "max-response-bytes",
  "show-data",
  "header",
] as const;

/** What a replay prints of a body: enough to see the difference, never more than a line or two. */
const BODY_EXCERPT = 400;

/** Replays one failure of the report in --report-dir; 1 when it fails again, 0 when it no longer does, 2 when it cannot run. */
export async function runReplay(argv: string[], out: VerifyOutput): Promise<number> {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        replay: { type: "string" },
        ...Object.fromEntries(
          REPLAY_FLAGS.map((flag) => [
            flag,
            { type: flag === "allow-writes" || flag === "show-data" ? ("boolean" as const) : ("string" as const), multiple: flag === "header" },
          ]),
        ),
      },
    }));
  } catch (error) {
    return refuse(out, `${(error as Error).message} (--replay takes ${REPLAY_FLAGS.map((flag) => `--${flag}`).join(", ")})`);
  }
  const id = String(values.replay);
  const reportDir = path.resolve(typeof values["report-dir"] === "string" ? values["report-dir"] : path.join("test-output", "verify"));
  let report: Report;
  try {
    report = JSON.parse(await readFile(path.join(reportDir, REPORT_JSON), "utf8")) as Report;
  } catch (error) {
    return refuse(
      out,
      `--replay ${id}: no report to read in ${reportDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); --report-dir names the run's folder`,
    );
  }
  const failure = report.checks.find((check) => check.id === id);
  if (failure === undefined) {
    const ids = report.checks.flatMap((check) => (check.id === undefined ? [] : [check.id]));
    return refuse(
      out,
      `--replay ${id}: the report of ${report.baseUrl} has no failure ${id} (${ids.length === 0 ? "it has none" : `it has ${ids.slice(0, 5).join(", ")}${ids.length > 5 ? ", …" : ""}`})`,
    );
  }
  if (failure.request === undefined) {
    // A cause's first failures are kept whole; the ones after are counted, and replaying the first shows the cause.
    const first = failure.group === undefined ? undefined : report.groups?.find((group) => group.id === failure.group)?.first.id;
    if (first !== undefined && first !== id)
      return refuse(
        out,
        `--replay ${id} (${failure.name}): the report keeps the request of its cause's first failures only (${failure.group}); replay ${first}, the first of the same cause`,
      );
    return refuse(
      out,
      `--replay ${id} (${failure.name}): the check kept no request to replay (a workflow's step, or a check of no single request): run verify again`,
    );
  }
  const given = typeof values["base-url"] === "string" ? values["base-url"] : undefined;
  const args = [
    ...argv.filter((arg, index) => arg !== "--replay" && argv[index - 1] !== "--replay" && !arg.startsWith("--replay=")),
    ...(given === undefined ? ["--base-url", report.baseUrl] : []),
  ];
  const read = readVerifyOptions(args);
  if (!("options" in read)) return refuse(out, "error" in read ? read.error : "--help is not for --replay");
  const { options } = read;
  if (options.baseUrl !== report.baseUrl) return refuse(out, `--replay ${id} was found on ${report.baseUrl}: it is replayed there, not on ${options.baseUrl}`);
  const { request } = failure;
  // A step that reads (a GET whose answer links to another) writes nothing.
  const { operations } = await replayContract();
  const steps = (request.steps ?? []).filter((step) => WRITE_METHODS.has(operations.find((op) => op.operationId === step.operationId)?.method ?? "POST"));
  if ((request.needs.length > 0 || steps.length > 0 || WRITE_METHODS.has(request.method)) && !options.allowWrites) {
    const writes =
      request.needs.length > 0
        ? `it creates ${request.needs.map((need) => need.create).join(", ")} again`
        : steps.length > 0
          ? `its check calls ${steps.map((step) => step.operationId).join(", ")} first`
          : request.method;
    return refuse(out, `--replay ${id} writes (${writes}): pass --allow-writes if ${options.baseUrl} is a test environment`);
  }
  return replay(options, report, failure as Check & { request: ReproRequest }, out);
}

function refuse(out: VerifyOutput, line: string): number {
  out.error(`verify: ${line}`);
  return 2;
}

/** A credential's value: given with its flag, else from its variable, else as the report printed it (a placeholder or verify's own). */
function credentialValue(options: VerifyOptions, report: Report, variable: string): string | undefined {
  const option = (Object.keys(CREDENTIAL_VARIABLES) as (keyof typeof CREDENTIAL_VARIABLES)[]).find((each) => CREDENTIAL_VARIABLES[each] === variable);
  if (option !== undefined && option !== "linkToken" && options.given[option]) return options.credentials[option];
  return (
    process.env[variable] ||
    report.credentials?.find((each) => each.variable === variable)?.value ||
    (option === undefined ? undefined : options.credentials[option])
  );
}

async function replay(options: VerifyOptions, report: Report, failure: Check & { request: ReproRequest }, out: VerifyOutput): Promise<number> {
  const { document, operations, validator, validCalls, router } = await replayContract();
  const redactor = new Redactor(document, { show: options.showData });
  const sender = new Sender({
    rate: options.rate,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    redactor,
    headers: options.headers,
  });
  for (const { value } of options.headers) for (const part of secretParts(value)) redactor.rememberCredential(part);
  const credentials = { ...options.credentials };
  for (const option of ["apiKey", "managementKey"] as const) {
    const value = credentialValue(options, report, CREDENTIAL_VARIABLES[option]);
    if (value !== undefined) credentials[option] = value;
  }
  for (const value of Object.values(credentials)) if (value !== undefined) redactor.rememberCredential(value);
  const recorded: Check[] = [];
  const context: VerifyContext = {
    document,
    operations,
    validator,
    credentials: new CredentialMap(document, operations),
    sender,
    redactor,
    options: { ...options, credentials },
    fixtures: new Fixtures(`verify-replay-${randomBytes(4).toString("hex")}`, lifecycles(operations)),
    validCalls,
    coverage: new CoverageMap(),
    deadline: Number.POSITIVE_INFINITY,
    budgetNoted: new Set(),
    record: ({ sent: _sent, ...check }) => void recorded.push(check),
  };
  const { request } = failure;
  out.log(`verify: replaying ${failure.id} on ${options.baseUrl}: ${failure.suite} ${failure.name}`);
  out.log(
    `  first:  ${request.answered === undefined ? "no answer" : `answered ${request.answered}`}${failure.detail === undefined ? "" : ` — ${failure.detail}`}`,
  );
  let code = 2;
  try {
    const made = await makeAgain(context, request);
    if ("error" in made) {
      out.error(`verify: --replay ${failure.id}: ${made.error}`);
      return 2;
    }
    for (const line of made.created) out.log(`  made again: ${line}`);
    for (const line of made.steps) out.log(`  step again: ${line}`);
    const sent = resend(
      request,
      made.values,
      (variable) =>
        options.headers.find(({ name }) => headerVariable(name) === variable)?.value ??
        (variable === CREATED_CREDENTIAL_VARIABLE ? undefined : credentialValue(context.options, report, variable)) ??
        made.values.get(`$${variable}`),
    );
    if ("error" in sent) {
      out.error(`verify: --replay ${failure.id}: ${sent.error}`);
      return 2;
    }
    const answer = await sender.send(sent.request);
    const called = redactor.operationAt(sent.request.method, sent.request.url);
    const op = judgedAs(context, request.rule, called);
    const { again, said } = judgeAgain(context, request, op, answer, made);
    // What the request made or deleted, as the run's check would have learnt it: the cleanup then knows.
    if (called !== undefined && answer.kind === "answer") learnReplayed(context, router, called, sent.request.url, answer.status, answer.json?.value);
    out.log(`  replay: ${said}`);
    if (answer.kind === "answer" && answer.text !== "") out.log(`  body:   ${excerpt(redactor, op, answer.status, answer.text)}`);
    out.log(again ? `verify: ${failure.id} fails again` : `verify: ${failure.id} no longer fails`);
    code = again ? 1 : 0;
  } finally {
    await cleanUp(context);
    for (const check of recorded.filter((each) => each.suite === "cleanup" && each.status === "failed"))
      out.error(`verify: the replay's cleanup: ${check.name} — ${check.detail ?? "failed"}`);
    if (report.mock) await forgetTeam(context, report);
  }
  return code;
}

/** The path of a replayed call read back from its URL, for the fixtures: a create the server took is deleted after. */
function learnReplayed(context: VerifyContext, router: Router, op: ContractOperation, url: string, status: number, body: unknown): void {
  const match = router.match(op.method, new URL(url).pathname);
  if (match !== undefined) context.fixtures.learn(op, { path: match.pathParams, query: {} }, status, body, { extra: true });
}

/** The kept request with the new ids in place of the old, and each credential read from its variable. */
function resend(
  request: ReproRequest,
  values: Map<string, string>,
  credential: (variable: string) => string | undefined,
): { request: { method: string; url: string; headers: Record<string, string>; body?: string } } | { error: string } {
  const swap = (text: string) => [...values].filter(([old]) => !old.startsWith("$")).reduce((each, [old, now]) => each.replaceAll(old, now), text);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!request.variables.includes(name)) headers[name] = value;
    else {
      const found = values.get(value) ?? credential(value.slice(1));
      if (found === undefined) return { error: `the request's ${name} reads ${value}, which is not set: export it, or pass its flag` };
      headers[name] = found;
    }
  }
  return { request: { method: request.method, url: swap(request.url), headers, ...(request.body === undefined ? {} : { body: swap(request.body) }) } };
}

/** A body as the replay prints it: marked values removed where they stand, a body that is not JSON named, and cut short. */
function excerpt(redactor: Redactor, op: ContractOperation | undefined, status: number, text: string): string {
  let shown: string;
  try {
    shown = redactor.text(JSON.stringify(redactor.response(op, status, JSON.parse(text))));
  } catch {
    shown = redactor.opaque({ text, status });
  }
  return shown.length > BODY_EXCERPT ? `${shown.slice(0, BODY_EXCERPT)}…` : shown;
}

/** On the package's mock, the team and org of keys verify invented are forgotten again, as the run forgot them. */
async function forgetTeam(context: VerifyContext, report: Report): Promise<void> {
  const headers: Record<string, string> = {};
  for (const option of ["apiKey", "managementKey"] as const) {
    const invented = report.credentials?.some((each) => each.variable === CREDENTIAL_VARIABLES[option] && each.origin === "invented");
    const value = context.options.credentials[option];
    if (invented === true && value !== undefined) headers[context.credentials.header(option)] = value;
  }
  if (Object.keys(headers).length > 0) await context.sender.send({ method: "DELETE", url: `${context.options.baseUrl}${MOCK_STATE_PATH}`, headers });
}
