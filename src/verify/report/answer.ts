// What a failure keeps of the server's answer, for every report: the status line, the headers but those that carry a
// credential, and the body redacted where each value stands (a JSON body cut at 4,000 characters, saying so; any
// other body named by type, size and title, never quoted), bounded whatever the server sent.
import type { Redactor } from "../../contract/redact.ts";
import type { ServerAnswer } from "../check.ts";
import type { HttpAnswer, HttpRequest } from "../sender.ts";

export type { ServerAnswer };

/** The most characters of a JSON body kept: enough to see what is wrong, and a report stays readable. */
export const MAX_ANSWER_BODY = 4_000;
/** A server may send any number of headers of any length (100 KB of them): the reports keep this many, this long. */
const MAX_HEADERS = 40;
const MAX_HEADER_VALUE = 400;

/** `text` at most `length` characters, never cutting a character in two: the text kept and how many were left out. */
function cutAt(text: string, length: number): { kept: string; cut: number } {
  if (text.length <= length) return { kept: text, cut: 0 };
  const end = /[\uD800-\uDBFF]/.test(text[length - 1]!) ? length - 1 : length;
  return { kept: text.slice(0, end), cut: text.length - end };
}

/**
 * The answer as the reports may write it. A header is dropped when its name carries a credential (the contract's,
 * `Authorization`, `Cookie`, `Set-Cookie`) or its value holds one the run knows: masking would keep its last characters
 * in a place nobody needs them. What remains goes through the redactor as free text, so a marked value the server echoes
 * in a header is taken out as it is from a message.
 */
export function captureAnswer(redactor: Redactor, request: Pick<HttpRequest, "method" | "url">, answer: Extract<HttpAnswer, { kind: "answer" }>): ServerAnswer {
  const credentialHeaders = new Set(redactor.credentialHeaders());
  const headers: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of answer.headers) {
    if (credentialHeaders.has(name) || count >= MAX_HEADERS) continue;
    const said = redactor.text(value);
    if (said.includes("[credential")) continue;
    const { kept, cut } = cutAt(said, MAX_HEADER_VALUE);
    headers[name] = cut > 0 ? `${kept}…` : kept;
    count++;
  }
  const line = { status: answer.status, statusText: redactor.serverText(answer.statusText) };
  if (answer.text === "") return { ...line, headers, bodyForm: "empty", body: "" };
  if (answer.json === undefined) {
    const body = redactor.opaque({ text: answer.text, status: answer.status, statusText: answer.statusText, contentType: answer.headers.get("content-type") });
    return { ...line, headers, bodyForm: "described", body };
  }
  const op = redactor.operationAt(request.method, request.url);
  const whole = redactor.text(JSON.stringify(redactor.response(op, answer.status, answer.json.value)));
  const { kept, cut } = cutAt(whole, MAX_ANSWER_BODY);
  return {
    ...line,
    headers,
    bodyForm: "json",
    body: cut === 0 ? kept : `${kept}… (cut at ${MAX_ANSWER_BODY} characters: ${cut} more)`,
    ...(cut === 0 ? {} : { cut }),
  };
}

/** The status line, as HTTP writes it. */
export function statusLine(answer: ServerAnswer): string {
  return `HTTP ${answer.status}${answer.statusText === "" ? "" : ` ${answer.statusText}`}`;
}

/** The answer's first line, for the console under its failure: the status line and the start of the body. */
export function answerLine(answer: ServerAnswer, length = 160): string {
  const { kept, cut } = cutAt(answer.bodyForm === "empty" ? "(no body)" : answer.body, length);
  // A terminal must not meet the server's control characters (escapes), nor a line break that makes two lines of one.
  return `${statusLine(answer)}  ${kept}${cut > 0 ? "…" : ""}`.replace(/\s*[\r\n]+\s*/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

/** The answer as a message a reader knows: the status line, a header a line, a blank line and the body. */
export function answerText(answer: ServerAnswer): string {
  const headers = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`);
  return [statusLine(answer), ...headers, "", answer.bodyForm === "empty" ? "(no body)" : answer.body].join("\n");
}
