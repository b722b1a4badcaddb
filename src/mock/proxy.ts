// The validating proxy (`--proxy <upstream>`): every request forwarded to a real server and its answer passed back as
// it came (status, headers but one hop's, the body's bytes), both held to the contract on the way: the request by the
// mock's own steps (route, credential, Accept, body, parameters), the answer by the checks verify judges with (status
// declared, content type, body, required headers). What breaks the contract is named in `x-svc-contract-violations`
// and in the journal, never by changing the answer; `--record` writes each exchange, redacted, as HAR. A request
// target the mock cannot read and `/_mock/journal` are the mock pipeline's, which shares the proxy's journal.
import { proxyBodyTooLarge } from "./refusals.ts";
import { answerProblems, undeclaredStatus } from "../contract/answer-check.ts";
import { detailLine } from "../contract/error-details.ts";
import type { JsonObject } from "../contract/json.ts";
import { HarRecorder, type RecordedEntry } from "./har-recorder.ts";
import { errorReply, printableAscii, requestTarget } from "./http-vocabulary.ts";
import { exchangeRecord } from "./journal.ts";
import { MOCK_PATHS } from "../shared/mock-paths.ts";
import { createPipeline, type Pipeline } from "./pipeline.ts";
import { accept, body, credential, parameters, receive, route } from "./steps/request-checks.ts";
import { ANSWERED, newExchange, type Exchange, type Outcome, type StepContext } from "./steps/exchange.ts";
import type { MockRequest, Refusal, Reply } from "./http-shapes.ts";
import { decodedText, forwardedHeaders, ProxyError, Upstream, type UpstreamAnswer } from "./upstream.ts";

export { ProxyError, upstreamRefusal } from "./upstream.ts";

/** The header naming what broke the contract, on an answer otherwise as the upstream sent it. */
export const VIOLATIONS_HEADER = "x-svc-contract-violations";
/** The header's length at most: the lines that do not fit are counted, and the journal has them all. */
const MAX_HEADER_CHARS = 2_000;
/** One line's length at most, in the header and the journal. */
const MAX_LINE_CHARS = 300;

/** A request's text as the mock reads it (bytes that are not UTF-8 replaced; the bytes forwarded are as they came). */
const utf8 = new TextDecoder();

export interface ProxyOptions {
  /** The contract both sides are held to. */
  document: JsonObject;
  /** The real server: an https URL, or http on this machine (`upstreamRefusal`). */
  upstream: URL;
  log: (line: string) => void;
  /** Recent exchanges the journal keeps per team (`--journal-size`; 0: off). */
  journalSize?: number | undefined;
  /** A file to write each exchange to, redacted, as HAR (`--record`). */
  record?: string | undefined;
  /** How long the upstream has for its answer, body included (DEFAULT_UPSTREAM_TIMEOUT_MS: 30 s). */
  timeoutMs?: number | undefined;
  /** The most bytes of one answer read (DEFAULT_MAX_UPSTREAM_BYTES: 8 MiB); past it the caller gets a 502. */
  maxResponseBytes?: number | undefined;
}

/** A request as a transport hands it to the proxy: the pipeline's form, with its bytes when the transport has them. */
export interface ProxyRequest extends MockRequest {
  /** The body's bytes as sent, or undefined over the size limit; read once (`body` is then their text). */
  bytes: () => Promise<Uint8Array | undefined>;
}

/** Answers like the mock's pipeline (a host serves either alike); `close` ends the upstream's connections and the recording. */
export interface ValidatingProxy {
  (request: ProxyRequest): Promise<Reply>;
  readonly context: Pipeline["context"];
  close(): Promise<void>;
}

/** What the commands print once the proxy listens. */
export function proxyBanner(url: string, upstream: URL, record: string | undefined): string {
  return `Validating proxy:  ${url} -> ${upstream.origin}${upstream.pathname.replace(/\/+$/, "")}   (answers as the upstream sent them, no redirect followed)
Violations:   in each answer's ${VIOLATIONS_HEADER} header, and at ${url}${MOCK_PATHS.journal}${record === undefined ? "" : `\nRecording:    ${record} (HAR, redacted)`}`;
}

/** A line as the header carries it: printable ASCII (anything else escaped), its own semicolons commas (they part the lines). */
const headerLine = (line: string) => printableAscii(line.replace(/;/g, ","));

const bounded = (line: string) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 3)}...` : line);

/** `2; request: ...; response 200: ...`: the count, then each line, as many as fit. */
export function violationsHeader(lines: string[]): string {
  let value = String(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const next = `; ${headerLine(lines[i]!)}`;
    const rest = lines.length - i;
    if (value.length + next.length > MAX_HEADER_CHARS - 60) return `${value}; and ${rest} more (${MOCK_PATHS.journal} lists them)`;
    value += next;
  }
  return value;
}

/** A refusal the mock would have given, as the lines the proxy reports: one per detail, or its message. */
const refusalLines = (refusal: Refusal): string[] =>
  refusal.details !== undefined && refusal.details.length > 0
    ? refusal.details.map((detail) => `request: ${detailLine(detail)}`)
    : [`request: ${refusal.message.replace(/\.$/, "")}`];

/** The request's checks, in the mock's order, none of them stopping it: the lines of every refusal the mock would give. */
async function requestViolations(x: Exchange, context: StepContext): Promise<string[]> {
  const unrouted = route(x, context);
  if (unrouted !== undefined) {
    // The path itself is not quoted: a path the contract does not know may hold anything.
    return [
      unrouted !== ANSWERED && unrouted.status === 405
        ? `request: ${x.method} is not an operation of this path`
        : "request: no operation of the contract answers at this path",
    ];
  }
  await receive(x);
  const lines: string[] = [];
  for (const step of [credential, accept, body, parameters]) {
    const outcome: Outcome = step(x, context);
    if (outcome === undefined || outcome === ANSWERED) continue;
    lines.push(...refusalLines(outcome));
    // A body that cannot be read as JSON leaves nothing for the parameters' check but a missing body.
    if (step === body) break;
  }
  return lines;
}

/** The answer's checks: a status the operation declares, then its content type, body and required headers. */
async function answerViolations(
  x: Exchange,
  context: StepContext,
  answer: Extract<UpstreamAnswer, { kind: "answer" }>,
  maxBytes: number,
): Promise<{ lines: string[]; text: string | undefined }> {
  const encoding = answer.byName["content-encoding"];
  // A HEAD's answer has no body (and no operation of the contract takes HEAD: it is checked as an unknown method).
  const decoded = x.method === "HEAD" ? { text: "" } : await decodedText(answer.body, encoding, maxBytes);
  const text = "text" in decoded ? decoded.text : undefined;
  const op = x.match?.operation;
  if (op === undefined) return { lines: [], text };
  const where = `response ${answer.status}`;
  const declared = undeclaredStatus(op, answer.status);
  if (declared !== undefined) {
    const redirect = answer.status >= 300 && answer.status < 400 ? ", and the proxy did not follow it" : "";
    return { lines: [`${where}: not a status ${op.operationId} declares (${declared.join(", ")})${redirect}`], text };
  }
  if (text === undefined) return { lines: [`${where}: ${(decoded as { unread: string }).unread}`], text };
  const headers = {
    get: (name: string) => {
      const value = answer.byName[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    has: (name: string) => answer.byName[name.toLowerCase()] !== undefined,
  };
  // A body that is not JSON is named by its size: it may hold anything.
  const { problems } = answerProblems(context.validator, op, { status: answer.status, headers, text }, where, () => `${answer.body.length} bytes`);
  return { lines: problems, text };
}

/** Whether the answer to a request has no body to measure: its Content-Length is the upstream's, not the bytes' (none). */
const lengthIsUpstreams = (method: string, status: number) => method === "HEAD" || status === 204 || status === 304 || status < 200;

/** The upstream's answer as the caller gets it: its status, headers (one hop's left out, the length the bytes'), bytes. */
function passedOn(method: string, answer: Extract<UpstreamAnswer, { kind: "answer" }>, violated: boolean): Reply {
  const headers = [...answer.headers];
  if (!lengthIsUpstreams(method, answer.status)) headers.push("content-length", String(answer.body.length));
  else if (answer.byName["content-length"] !== undefined) headers.push("content-length", answer.byName["content-length"]);
  // A browser's script reads the violations only when the answer exposes the header (to an origin the upstream allows).
  const exposed = String(answer.byName["access-control-expose-headers"] ?? "").toLowerCase();
  if (violated && answer.byName["access-control-allow-origin"] !== undefined && !exposed.includes(VIOLATIONS_HEADER) && exposed.trim() !== "*") {
    headers.push("access-control-expose-headers", VIOLATIONS_HEADER);
  }
  return { status: answer.status, headers, body: answer.body };
}

const harHeaders = (headers: Record<string, string | string[] | undefined> | string[]) => {
  const pairs: { name: string; value: string }[] = [];
  if (Array.isArray(headers)) for (let i = 0; i < headers.length; i += 2) pairs.push({ name: headers[i]!, value: headers[i + 1]! });
  else
    for (const [name, value] of Object.entries(headers))
      for (const each of value === undefined ? [] : Array.isArray(value) ? value : [value]) pairs.push({ name, value: each });
  return pairs;
};

export function createProxy(options: ProxyOptions): ValidatingProxy {
  const upstream = new Upstream(options.upstream, { timeoutMs: options.timeoutMs, maxBytes: options.maxResponseBytes });
  // The mock's pipeline: its router, validator and journal are the proxy's; it answers /_mock/journal from that journal.
  const mock = createPipeline({ document: options.document, log: options.log, journalSize: options.journalSize });
  const { context } = mock;
  let recorder: HarRecorder | undefined;
  try {
    recorder = options.record === undefined ? undefined : new HarRecorder(options.record, options.document, upstream.basePath, options.log);
  } catch (error) {
    upstream.close();
    throw new ProxyError(`--record ${options.record} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }

  const handle = async function proxy(request: ProxyRequest): Promise<Reply> {
    const url = requestTarget(request.target);
    if (url === undefined || url.pathname === MOCK_PATHS.journal) return mock(request);
    const started = Date.now();
    const bytes = await request.bytes();
    const text = bytes === undefined ? undefined : utf8.decode(bytes);
    const x = newExchange({ ...request, body: () => text });
    x.url = url;
    // The target as it was sent (an absolute-form one as its path and query), after the upstream's base path.
    const target = request.target.startsWith("/") ? request.target : `${url.pathname}${url.search}`;
    // Sent first, checked while the upstream answers.
    const answered = bytes === undefined ? undefined : upstream.send(request.method, target, x.headers, bytes);
    // A CORS preflight is the browser's, not an operation's: forwarded, neither checked nor journaled.
    const preflight = x.method === "OPTIONS" && x.headers["access-control-request-method"] !== undefined;
    // A body too large to forward is the proxy's own 413, which says so: nothing else of the request is judged.
    const violations = bytes === undefined || preflight ? [] : await requestViolations(x, context);

    const answer = await answered;
    let reply: Reply;
    let refusal: Refusal | undefined;
    let answerText: string | undefined;
    if (answer?.kind === "answer") {
      const checked = await answerViolations(x, context, answer, upstream.maxBytes);
      violations.push(...checked.lines);
      answerText = checked.text;
      reply = passedOn(x.method, answer, violations.length > 0);
    } else {
      // The proxy's own answer when there is none to pass on: the request too large to forward, or the upstream's failure.
      refusal = answer ?? proxyBodyTooLarge();
      reply = errorReply(x.headers, refusal.status, refusal.code, refusal.message);
    }
    const lines = violations.map(bounded);
    if (lines.length > 0) reply.headers.push(VIOLATIONS_HEADER, violationsHeader(lines));

    if (!preflight) {
      // The body as it came, whether or not a check read it.
      x.text = text;
      context.journal?.record(context.teamOf(x.headers), exchangeRecord(x, reply.status, refusal, lines.length > 0 ? lines : undefined));
    }
    recorder?.add(harEntry({ started, request, url: `${upstream.url.origin}${target}`, text, bytes, reply, answer, answerText, violations: lines, refusal }));
    return reply;
  };
  return Object.assign(handle, {
    context,
    close: async () => {
      upstream.close();
      await recorder?.close();
    },
  });
}

/** The exchange as HAR 1.2 has it, before redaction: what was forwarded, and what came back (or the proxy's own answer). */
function harEntry(exchange: {
  started: number;
  request: ProxyRequest;
  /** Where it went: the upstream's origin and the request's target (without the upstream's base path). */
  url: string;
  text: string | undefined;
  bytes: Uint8Array | undefined;
  reply: Reply;
  answer: UpstreamAnswer | undefined;
  /** The answer's body decoded, when it could be. */
  answerText: string | undefined;
  violations: string[];
  refusal: Refusal | undefined;
}): RecordedEntry {
  const { started, request, url, text, bytes, reply, answer, answerText, violations, refusal } = exchange;
  const got = answer?.kind === "answer" ? answer : undefined;
  const typeOf = (headers: string[]) => {
    const at = headers.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === "content-type");
    return at < 0 ? "" : (headers[at + 1] ?? "");
  };
  const requestType = request.headers["content-type"];
  const comments = [
    ...(refusal === undefined ? [] : [`the proxy's own answer: ${refusal.message}`]),
    ...(violations.length > 0 ? [`contract violations: ${violations.join("; ")}`] : []),
  ];
  return {
    startedDateTime: new Date(started).toISOString(),
    time: Date.now() - started,
    request: {
      method: request.method,
      url,
      httpVersion: "HTTP/1.1",
      headers: harHeaders(forwardedHeaders(request.headers)),
      // redactHarEntry lists the query from the URL it redacts.
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: bytes?.length ?? -1,
      ...(text === undefined || text === "" ? {} : { postData: { mimeType: typeof requestType === "string" ? requestType : "", text } }),
    },
    response: {
      status: reply.status,
      statusText: got?.statusText ?? "",
      httpVersion: "HTTP/1.1",
      headers: harHeaders(got?.headers ?? reply.headers),
      cookies: [],
      content: {
        size: answerText === undefined ? (reply.body?.length ?? 0) : Buffer.byteLength(answerText),
        mimeType: typeOf(got?.headers ?? reply.headers),
        ...(got === undefined ? { text: utf8.decode(reply.body) } : answerText === undefined ? {} : { text: answerText }),
      },
      redirectURL: typeof got?.byName.location === "string" ? got.byName.location : "",
      headersSize: -1,
      bodySize: got?.body.length ?? reply.body?.length ?? 0,
    },
    cache: {},
    timings: { send: 0, wait: answer?.ms ?? 0, receive: 0 },
    ...(comments.length === 0 ? {} : { comment: comments.join("; ") }),
  };
}
