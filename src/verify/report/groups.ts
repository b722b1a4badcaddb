// A failed check's cause, so the report can lead with what failed: its class and its detail with the values taken out
// (its own operation, numbers, quoted text, ids, paths, a server's own message), so that "createUser answered 500"
// and "listLabs answered 500" are one cause across operations, whatever data either carried.
import type { Check } from "../check.ts";

/** A check's class: its suite, with every workflow's suite as one. */
export function checkClass(check: Pick<Check, "suite">): string {
  return check.suite.startsWith("workflow ") ? "workflow" : check.suite;
}

/**
 * The most of a detail read for its cause: a detail listing thousands of problems is one cause told many times, and
 * reading it whole would cost as much as the answer behind it.
 */
const READ_CHARS = 2_000;

/**
 * What a server says after its status (`answered 404 not_found: No user usr_1 in team acme`) is its own text, which may
 * hold anyone's data: the code stays, the message goes. It ends where verify's words go on.
 */
const SERVER_MESSAGE =
  /(answered \d{3}(?: [a-z][\w.-]*)?): (?!the credential it was sent was refused)(.*?)(?=: the credential it was sent was refused| to a request the contract accepts| to an invalid call| to a body without Content-Type|; |$)/g;

/** A JSON value once its strings and numbers are placeholders: what a read-back or a workflow's answer quotes. */
const JSON_SPAN = /\{(?:\s|<text>|<n>|<json>|true|false|null|[:,])*\}|\[(?:\s|<text>|<n>|<json>|true|false|null|,)*\]/g;

/** Where a number says how the server answered (its status), it is the cause itself and stays. */
const STATUS_BEFORE = /(?:answered|got|<op>) $/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The detail's start, cut where a problem ends. */
function head(detail: string): string {
  if (detail.length <= READ_CHARS) return detail;
  const cut = detail.lastIndexOf("; ", READ_CHARS);
  return detail.slice(0, cut > 0 ? cut : READ_CHARS);
}

/** The detail with every value taken out, each problem said once: the cause's words. */
export function withoutValues(detail: string, operationId?: string): string {
  let text = head(detail)
    .replace(SERVER_MESSAGE, "$1: <message>")
    // What an answer that is not JSON was (its type, size, title, or its start with --show-data) says which, not why.
    .replace(/the body is not JSON \((?!empty\))(?:[^()]|\([^()]*\))*\)/g, "the body is not JSON (<answer>)")
    // A masked credential ends with its own last characters.
    .replace(/\[credential …[^\]]*\]/g, "[credential]")
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>;,)]+/gi, "<url>")
    // Where a connection went (`ECONNREFUSED 127.0.0.1:4010`, `[::1]:4010`): one cause whatever the address.
    .replace(/\[[0-9a-f:.]+\](?::\d+)?|(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?(?![\w.])/gi, "<address>")
    .replace(/"(?:[^"\\]|\\.)*"/g, "<text>")
    // A quote, not an apostrophe (verify's, the server's).
    .replace(/(?<![\w'])'(?:[^'\\]|\\.)*'(?![\w'])/g, "<text>")
    .replace(/smallest failing case \(after \d+ shrinks?\): .*?(?=; replay with|$)/g, "smallest failing case: <case>")
    .replace(/\b(it declares|expected) \d{3}(?:(?:, | or )\d{3})*/g, "$1 <statuses>");
  if (operationId) text = text.replace(new RegExp(`(?<![\\w-])${escapeRegExp(operationId)}(?![\\w-])`, "g"), "<op>");
  text = text
    // Another operation, where verify names the one that answered (a path's check names its first operation's answer).
    .replace(/(?<![\w-])[a-z]+[A-Z][A-Za-z]*(?= answered | \d{3}: |: )/g, "<op>")
    .replace(/\b(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|CONNECT) \/\S*/g, "<method> <path>")
    .replace(/(?<![\w>])\/(?:v\d+|_mock)\/[^\s;,)]*/g, "<path>")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>")
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, "<email>")
    // A pointer into a body names a field, which says where, not why: one cause for every field it meets.
    .replace(/(?<=^|[\s(])\/[\w~.@$/-]*(?=[\s;,):]|$)/g, "<field>")
    // Made-up and server-given ids: letters and digits together, long enough not to be a word (`utf-8`, `v2`).
    .replace(/(?<![\w<-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{8,}(?![\w-])/g, "<id>")
    .replace(/(?<![\w<])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w>])/gi, (number: string, at: number, whole: string) =>
      /^\d{3}$/.test(number) && STATUS_BEFORE.test(whole.slice(Math.max(0, at - 9), at)) ? number : "<n>",
    );
  for (let before = ""; before !== text; ) [before, text] = [text, text.replace(JSON_SPAN, "<json>")];
  text = text
    .replace(/ reads (?:<json>|<text>|<n>|true|false|null), sent (?:<json>|<text>|<n>|true|false|null)/g, " reads <value>, sent <value>")
    // Lists of one kind of value (`<n>, <n>, <n>`) are one.
    .replace(/<(n|text|id|uuid|json)>(?:(?:, | or |,)<\1>)+/g, "<$1>");
  return [...new Set(text.split("; "))].join("; ");
}

/** A failed check's cause: its class and its detail without values. */
export interface Cause {
  class: string;
  message: string;
}

export function causeOf(check: Pick<Check, "suite" | "detail" | "operationId">): Cause {
  return { class: checkClass(check), message: withoutValues(check.detail ?? "failed", check.operationId) };
}

/** The key two checks of one cause share. */
export function causeKey(cause: Cause): string {
  return `${cause.class}\n${cause.message}`;
}

/** The longest title a group takes from its first failure's sentence: a heading and a console line, not the whole detail. */
export const TITLE_CHARS = 160;

/**
 * A group's title: its first failure's own sentence (a reader sees the values: which operation, what the server said),
 * cut at `TITLE_CHARS`, and how many more failures share its cause; the template stays the group's `message`.
 */
export function groupTitle(first: Pick<Check, "name" | "detail">, count: number): string {
  const sentence = first.detail ?? first.name;
  const end = sentence.length <= TITLE_CHARS ? sentence.length : /[\uD800-\uDBFF]/.test(sentence[TITLE_CHARS - 2]!) ? TITLE_CHARS - 2 : TITLE_CHARS - 1;
  const cut = end < sentence.length ? `${sentence.slice(0, end)}…` : sentence;
  return count > 1 ? `${cut} (and ${count - 1} more like it)` : cut;
}
