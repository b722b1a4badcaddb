// A workflow step's answer, as respect's JSON log gives it (status, headers, body), kept for the reports as verify's
// own failures keep theirs (src/verify/report/answer.ts): the log is respect's reading of an answer verify's proxy passed on.
import { readJson } from "../../contract/json.ts";
import type { Redactor } from "../../contract/redact.ts";
import type { ServerAnswer } from "../check.ts";
import { captureAnswer } from "../report/answer.ts";
import type { RespectStep } from "./respect.ts";

export function stepAnswer(step: RespectStep, redactor: Redactor): ServerAnswer | undefined {
  const response = step.response;
  if (response === undefined || step.request === undefined) return undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers ?? {})) {
    // A header Headers refuses (a name or value no HTTP answer can carry) is left out rather than failing the report.
    try {
      for (const each of Array.isArray(value) ? value : [value]) headers.append(name, String(each));
    } catch {}
  }
  // respect parses a JSON body and keeps any other as its text.
  const text = typeof response.body === "string" ? response.body : response.body === undefined ? "" : JSON.stringify(response.body);
  const json = typeof response.body === "string" ? readJson(response.body) : response.body === undefined ? undefined : { value: response.body };
  return captureAnswer(redactor, step.request, { kind: "answer", status: response.statusCode, statusText: "", headers, text, json, ms: 0 });
}
