// Reads verify's command line (`npx svc-health-verify`, or `npm run verify --` in this repository) into its settings:
// the target, the credentials (placeholders only for a loopback target), whether writes may run, the rate; or the one
// line saying what is wrong with it.
import { packageVersion } from "../shared/package-version.ts";
import { parseArgsProblem } from "../shared/nearest-name.ts";
import path from "node:path";
import { parseArgs } from "node:util";
import { CREDENTIAL_PLACEHOLDERS } from "../contract/credentials.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from "./sender.ts";
import { isLoopback } from "../net/loopback.ts";
import { readGatewayHeaders, type GatewayHeader } from "./gateway-headers.ts";

export const USAGE = `Usage: npx svc-health-verify --base-url <url> [options]
       (in the contract's repository: npm run verify -- --base-url <url> [options])

Checks a running server against the contract the package ships (generated/openapi.json): every operation's valid
call and what it left behind (the contract's links: read back, gone after a delete), credential refusals, invalid
calls, every input at its edges and just past them, generated calls (seeded, each failure shrunk to the smallest),
paged lists and filters, undocumented methods, then the document's workflows (generated/workflows/, run by
redocly respect: the optional peer dependency @redocly/cli; without it they are skipped, naming the install line);
cleans up what it created. The reports are verify-report.json, verify-junit.xml and verify-report.html, each
leading with the failures grouped by cause.

  --base-url <url>          the server, e.g. http://127.0.0.1:4010 (required)
  --api-key <key>           the team API key (required unless the server is on 127.0.0.1, localhost or [::1])
  --management-key <key>    a management key; without it, management checks are skipped on a remote server
  --allow-writes            the server is a test environment: POST, PUT, PATCH and DELETE may run
                            (always on for a loopback server)
  --concurrency <n>         at most n requests in flight at once (default 8; 1 sends one at a time); the
                            checks are recorded in the plan's order, so the findings are those of a run of one
  --rate <n>                at most n requests a second across all of them (default on a server that is not on a
                            loopback address: 20, or 100 with --allow-writes, a test environment; unlimited on
                            a loopback server); a 429 is sent again after its Retry-After (at most 3 times, if
                            it asks for no more than --timeout-ms), every request waiting meanwhile
  --wait <s>                a server that is starting: wait up to s seconds for it to answer (polling while the
                            connection is refused or reset, or it answers 502, 503 or 504) before the checks
  --header 'Name: value'    add this header to every request (repeatable): a gateway's own, in front of the server;
                            written masked, as a credential, and read from $SVC_HEADER_<NAME> in reproductions
                            (Accept, Content-Type and the contract's credential headers are verify's own)
  --timeout-ms <ms>         the longest one request may take, answer body included (default 15000)
  --max-response-bytes <n>  the most bytes of one answer verify reads, after decompression (default 16777216);
                            a larger answer fails its check
  --cases <n>               generated cases per operation: n valid calls with varied data and n/2 invalid
                            ones (default 40; 0 leaves the generated pass out)
  --seed <n>                the generated pass's seed (default: a new one each run, printed); a failure
                            names the seed and --only that replay its exact request
  --time-budget <s>         the longest the checks may take, in seconds (default 600); the checks left are
                            skipped, saying so, and the cleanup still runs
  --only <operationId>      check only this operation (repeatable; no workflows); what it needs is still
                            created first
  --report-dir <dir>        where the three reports go (default test-output/verify)
  --har                     the workflows' requests and answers as HAR files, in the report folder's har/
  --show-data               write health data and secrets as they came instead of [phi removed] and
                            [secret removed] (refused unless the server is on a loopback address)
  --skip-workflows          run the operation checks only
  --quiet                   print only the failures (each with its reproduction and the server's answer), the
                            failures by cause and the summary: no line per passed or skipped check (the reports
                            still hold every check)
  --replay <failure id>     send one failure of the run in --report-dir again (F3: its id in the console and the
                            reports), on the same server: what it needs, and the calls its check made before it
                            (the create and the delete before a read of what was deleted, the update before a
                            read-back), are made again first; the answer is judged by the check's own rule (status,
                            body and headers, the fields a read-back compares, a page's cut, a filter, an Allow)
                            and printed beside the first one (exit 1 if it fails again, 0 if not); with --api-key,
                            --management-key, --allow-writes, --header, --report-dir, --timeout-ms, --show-data
  --version                 the package's version
  --help                    this text

Each failure is printed with its id and a curl line that sends the exact request again: credentials are read from
the environment variables the run names at its top (SVC_API_KEY, SVC_MANAGEMENT_KEY, SVC_LINK_TOKEN, and
SVC_HEADER_<NAME> for each --header, its name upper-cased with _ for what is not a letter or digit; their values
printed only for the placeholders and the keys verify invents for the package's mock on a loopback server), and a
body that is not plain printable ASCII is read from a file under the report folder's bodies/. Under it comes the
first line of what the server answered; the reports keep that answer whole for each cause's first five failures:
its status line, its headers (but Set-Cookie and any that carries a credential) and its body, redacted as below (a
JSON body cut at 4,000 characters, saying so). A group of failures is titled by its first failure's own sentence.

What verify made up (generated data, its names) or the contract and the workflows wrote is written as it is: it is
nobody's data. A value a server sent in a field the contract marks x-svc-data phi or secret is written as
[phi removed] or [secret removed] where it stands (a listed value of the field's enumeration is a word of the
contract, and stays), a check's sentence names its JSON pointer, and a server's message loses it as a whole word;
a credential is written as at most its last four characters; an answer that is not JSON is named by its content
type, status line, size and title, never quoted.

Redirects are never followed (verify's own requests, and the workflows', which go through a proxy of verify's).

Exit status: 0 when nothing failed, 1 when a check failed (the reports are written whatever the server did), 2 for a
command line it cannot run.`;

/** The credential each client option carries; the link token is never given: verify makes one with createLinkToken. */
export interface Credentials {
  apiKey?: string;
  managementKey?: string;
  linkToken?: string;
}

export interface VerifyOptions {
  /** Without a trailing slash: the contract's paths are appended to it. */
  baseUrl: string;
  /** Served from 127.0.0.1, localhost or [::1]: a test environment, where placeholders stand in for credentials. */
  loopback: boolean;
  credentials: Credentials;
  /** Which credentials the user gave (a missing one's checks are skipped, naming its option). */
  given: { apiKey: boolean; managementKey: boolean };
  allowWrites: boolean;
  /** Requests a second; undefined for no limit. */
  rate: number | undefined;
  /** How many requests may be in flight at once. */
  concurrency: number;
  only: string[] | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  reportDir: string;
  har: boolean;
  /** Valid generated cases per operation (the invalid ones are half as many). */
  cases: number;
  seed: number;
  /** How long the checking passes may take, in milliseconds. */
  timeBudgetMs: number;
  /** Write marked values (x-svc-data phi and secret) as they came; only for a loopback target. Credentials stay masked. */
  showData: boolean;
  skipWorkflows: boolean;
  /** `--header`: added to every request verify sends; each value a credential. */
  headers: GatewayHeader[];
  /** `--wait`: how long to wait for a server that is starting, in milliseconds; undefined: not at all. */
  waitMs: number | undefined;
  /** Print the failures, their causes and the summary, without a line per passed or skipped check. */
  quiet: boolean;
}

export type ReadOptions = { options: VerifyOptions } | { help: string } | { error: string };

export const DEFAULT_CASES = 40;
export const DEFAULT_TIME_BUDGET_S = 600;

/** The default rate for a server that is not on this machine: gentle enough for a shared environment. */
export const REMOTE_RATE = 20;
/** The default rate for a server that is not on this machine given --allow-writes: a test environment, there to be tested. */
export const REMOTE_TEST_RATE = 100;
export const DEFAULT_CONCURRENCY = 8;

/** verify's flags, as parseArgs reads them (the usage above lists each). */
export const FLAGS = {
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  "management-key": { type: "string" },
  "allow-writes": { type: "boolean" },
  rate: { type: "string" },
  concurrency: { type: "string" },
  "timeout-ms": { type: "string" },
  "max-response-bytes": { type: "string" },
  only: { type: "string", multiple: true },
  "report-dir": { type: "string" },
  cases: { type: "string" },
  seed: { type: "string" },
  "time-budget": { type: "string" },
  har: { type: "boolean" },
  "show-data": { type: "boolean" },
  "skip-workflows": { type: "boolean" },
  wait: { type: "string" },
  header: { type: "string", multiple: true },
  quiet: { type: "boolean" },
  help: { type: "boolean" },
  version: { type: "boolean" },
} as const;

export function readVerifyOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): ReadOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: FLAGS,
    }));
  } catch (error) {
    return { error: `${parseArgsProblem(error, Object.keys(FLAGS))} (--help lists the options)` };
  }
  if (values.help) return { help: USAGE };
  if (values.version) return { help: packageVersion() };
  if (values["base-url"] === undefined) return { error: "--base-url <url> is required: the server to verify, e.g. http://127.0.0.1:4010" };
  let url: URL;
  try {
    url = new URL(values["base-url"]);
  } catch {
    return { error: `--base-url ${values["base-url"]} is not a URL (e.g. http://127.0.0.1:4010)` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { error: `--base-url ${values["base-url"]} is not an http:// or https:// URL` };
  if (url.search !== "" || url.hash !== "") return { error: `--base-url ${values["base-url"]} must not carry a query or fragment` };
  // The base URL is written in every report: a password in it would be too.
  if (url.username !== "" || url.password !== "")
    return { error: `--base-url must not carry a user name or password (${url.host}); give the credential with --api-key` };
  // Not documented for users: lets the tests exercise the remote rules against a mock on this machine.
  const loopback = isLoopback(url) && env.SVC_VERIFY_TREAT_AS_REMOTE !== "1";
  const apiKey = values["api-key"] || undefined;
  const managementKey = values["management-key"] || undefined;
  if (!loopback && apiKey === undefined) {
    return { error: `--api-key <key> is required for ${url.host}, which is not a loopback address (127.0.0.1, localhost, [::1])` };
  }
  if (values["show-data"] === true && !loopback) {
    return {
      error: `--show-data writes health data and secrets into the reports, so it is refused for ${url.host}, which is not a loopback address (127.0.0.1, localhost, [::1])`,
    };
  }
  let rate: number | undefined = loopback ? undefined : values["allow-writes"] === true ? REMOTE_TEST_RATE : REMOTE_RATE;
  if (values.rate !== undefined) {
    rate = Number(values.rate);
    if (!Number.isFinite(rate) || rate <= 0) return { error: `--rate ${values.rate} is not a positive number of requests a second` };
  }
  const concurrency = values.concurrency === undefined ? DEFAULT_CONCURRENCY : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    return { error: `--concurrency ${values.concurrency} is not a whole number of requests at once from 1 to 64` };
  const limits: Record<string, number> = {};
  for (const [flag, fallback] of [
    ["timeout-ms", DEFAULT_TIMEOUT_MS],
    ["max-response-bytes", DEFAULT_MAX_RESPONSE_BYTES],
  ] as const) {
    const given = values[flag];
    limits[flag] = given === undefined ? fallback : Number(given);
    if (!Number.isInteger(limits[flag]) || limits[flag]! <= 0) return { error: `--${flag} ${given} is not a whole number above 0` };
  }
  const cases = values.cases === undefined ? DEFAULT_CASES : Number(values.cases);
  if (!Number.isInteger(cases) || cases < 0) return { error: `--cases ${values.cases} is not a whole number of cases (0 or more)` };
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(seed)) return { error: `--seed ${values.seed} is not a whole number` };
  const budget = values["time-budget"] === undefined ? DEFAULT_TIME_BUDGET_S : Number(values["time-budget"]);
  if (!Number.isFinite(budget) || budget <= 0) return { error: `--time-budget ${values["time-budget"]} is not a positive number of seconds` };
  const wait = values.wait === undefined ? undefined : Number(values.wait);
  if (wait !== undefined && (!Number.isFinite(wait) || wait <= 0)) return { error: `--wait ${values.wait} is not a positive number of seconds` };
  const headers = readGatewayHeaders(values.header ?? []);
  if ("error" in headers) return headers;
  const credentials: Credentials = loopback
    ? {
        // The mock takes any non-empty credential: the reference's placeholders are enough, and obviously not keys.
        apiKey: apiKey ?? CREDENTIAL_PLACEHOLDERS.apiKey,
        managementKey: managementKey ?? CREDENTIAL_PLACEHOLDERS.managementKey,
        linkToken: CREDENTIAL_PLACEHOLDERS.linkToken,
      }
    : { apiKey, ...(managementKey === undefined ? {} : { managementKey }) };
  return {
    options: {
      baseUrl: url.href.replace(/\/+$/, ""),
      loopback,
      credentials,
      given: { apiKey: apiKey !== undefined, managementKey: managementKey !== undefined },
      allowWrites: loopback || values["allow-writes"] === true,
      rate,
      concurrency,
      only: values.only,
      timeoutMs: limits["timeout-ms"]!,
      maxResponseBytes: limits["max-response-bytes"]!,
      reportDir: path.resolve(values["report-dir"] ?? path.join("test-output", "verify")),
      har: values.har === true,
      cases,
      seed,
      timeBudgetMs: budget * 1000,
      showData: values["show-data"] === true,
      // The workflows are not one operation's: --only, asking for some operations' checks, leaves them out.
      skipWorkflows: values["skip-workflows"] === true || values.only !== undefined,
      headers: headers.headers,
      waitMs: wait === undefined ? undefined : wait * 1000,
      quiet: values.quiet === true,
    },
  };
}
