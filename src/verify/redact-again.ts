// The checks as the reports write them, redacted once more at the end of a run with everything the run learnt: a check
// is redacted when it is recorded, with what the answers so far taught the redactor, and with --concurrency which
// answers came first depends on the network. Redacting again makes what is written the same whatever that order.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Check } from "./check.ts";

/** Every string of a JSON-like value through `scrub`, its keys kept (a step's call: its path, query and body values). */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === "string") return scrub(value) as T;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, scrub)) as T;
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubDeep(item, scrub)])) as T;
  return value;
}

/**
 * Each check's words, reproduction, kept request (its steps too) and kept answer through `scrub` again (a body file
 * rewritten when its body changed); a check that `scrub` leaves as it is stays the same object.
 */
export function redactAgain<T extends Partial<Check>>(checks: T[], reportDir: string, scrub: (text: string) => string): T[] {
  return checks.map((check) => {
    const name = check.name === undefined ? undefined : scrub(check.name);
    const detail = check.detail === undefined ? undefined : scrub(check.detail);
    const repro = check.repro === undefined ? undefined : scrub(check.repro);
    const request = check.request;
    const url = request === undefined ? undefined : scrub(request.url);
    const body = request?.body === undefined ? undefined : scrub(request.body);
    const headers = request === undefined ? undefined : Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, scrub(value)]));
    const steps = request?.steps === undefined ? undefined : scrubDeep(request.steps, scrub);
    const answer = check.answer === undefined ? undefined : scrubDeep(check.answer, scrub);
    const same =
      name === check.name &&
      detail === check.detail &&
      repro === check.repro &&
      url === request?.url &&
      body === request?.body &&
      (request === undefined || Object.entries(headers!).every(([key, value]) => request.headers[key] === value)) &&
      isDeepStrictEqual(steps, request?.steps) &&
      isDeepStrictEqual(answer, check.answer);
    if (same) return check;
    if (request?.bodyFile !== undefined && body !== request.body) writeFileSync(path.join(reportDir, request.bodyFile), body!);
    return {
      ...check,
      ...(name === undefined ? {} : { name }),
      ...(detail === undefined ? {} : { detail }),
      ...(repro === undefined ? {} : { repro }),
      ...(request === undefined
        ? {}
        : { request: { ...request, url: url!, headers: headers!, ...(body === undefined ? {} : { body }), ...(steps === undefined ? {} : { steps }) } }),
      ...(answer === undefined ? {} : { answer }),
    };
  });
}
