// verify's outputs whatever bytes the generated data holds: over fast-check's whole string range (lone surrogates,
// control characters, quotes, `<`, `&`, line breaks), a failure's name, detail, request and the server's answer go
// through the reproduction, the collector and every writer, and each output stays what it claims to be: one console line per check and a curl
// line a shell reads as written, JSON that reads back the same, JUnit a strict XML reader takes, and HTML whose every
// character of data is escaped. A body that cannot stand in a shell quote goes to its file byte for byte.
import fc from "fast-check";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/check.ts";
import { Findings } from "../../src/verify/report/findings.ts";
import { checkLine, junitXml, type Report } from "../../src/verify/report/report.ts";
import { reportHtml } from "../../src/verify/report/report-html.ts";
import { Reproductions } from "../../src/verify/report/repro.ts";
import { answerLine } from "../../src/verify/report/answer.ts";
import { parseXml } from "../support/xml.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "verify-bytes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Text over the whole range of code points, with the characters every writer must treat apart (markup, quotes, line
 * breaks, controls, a lone surrogate) drawn often enough to meet them in every run.
 */
const SPECIAL = ["<", ">", "&", '"', "'", "\n", "\r", "\t", "\u0000", "\u001b", "\u007f", "\u0085", "\u2028", "\ud800", "\udfff", "é", "👍"];
const text = (maxLength: number) =>
  fc.string({
    unit: fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...SPECIAL) }, { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) }),
    maxLength,
  });

/** Every tag the page is made of: what is left once they are gone must be escaped text only. */
const TAGS =
  /<!doctype html>|<\/?(?:html|head|meta|title|style|body|main|h1|h2|h3|p|code|table|tr|th|td|a|span|br|small|section|pre|strong|details|summary)\b[^<>]*>/gi;

function report(checks: Check[], findings: Findings): Report {
  return {
    baseUrl: "http://127.0.0.1:4010",
    mock: false,
    allowWrites: true,
    rate: null,
    concurrency: 8,
    startedAt: "2026-11-27T00:00:00.000Z",
    durationMs: 1,
    requests: checks.length,
    seed: 1,
    cases: 1,
    credentials: [],
    summary: findings.summary,
    coverage: [],
    groups: findings.groups,
    checks: findings.checks,
  };
}

describe("verify's outputs over fast-check's whole string range", () => {
  it("stay one line, valid JSON, valid XML and escaped HTML, and a body file holds the exact bytes", () => {
    let files = 0;
    fc.assert(
      fc.property(text(40), text(80), text(40), (name, detail, value) => {
        const reproductions = new Reproductions({ reportDir: dir, credentialHeaders: ["x-svc-api-key"], fixtures: () => undefined, scrub: (text) => text });
        const body = JSON.stringify({ description: value });
        const made = reproductions.make("F1", {
          request: {
            method: "POST",
            url: `http://127.0.0.1:4010/v2/user?${new URLSearchParams({ q: value })}`,
            headers: { "content-type": "application/json", "x-svc-api-key": "sk_test_bytes_0001" },
            body,
          },
          answered: 500,
        });
        const check: Check = {
          suite: "generated",
          name,
          status: "failed",
          detail,
          id: "F1",
          operationId: "createUser",
          repro: made.curl,
          request: made.request,
          // What the server answered, as a hostile one may: any text in its reason phrase, headers and body.
          answer: { status: 500, statusText: name, headers: { "x-echo": value }, bodyForm: "json", body: detail },
          ms: 1,
        };
        const findings = new Findings();
        findings.add(check);
        findings.add({ suite: "operation", name: `${name} again`, status: "passed", detail, ms: 1 });
        const written = report([check], findings);

        // The console: one line each, no control character a terminal would act on.
        for (const line of [checkLine(check), made.curl, answerLine(check.answer!)]) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        expect(made.curl).not.toContain("sk_test_bytes_0001");
        // The body inline only when it is printable ASCII; else its file holds it, byte for byte.
        if (made.request.bodyFile === undefined) expect(made.curl).toContain(`--data-raw '${body.replaceAll("'", `'\\''`)}'`);
        else {
          files++;
          expect(readFileSync(path.join(dir, made.request.bodyFile), "utf8")).toBe(body);
          expect(made.curl).not.toContain(value.length > 0 ? JSON.stringify(value).slice(1, -1) : "\u0000");
        }
        // JSON reads back what was written.
        expect(JSON.parse(JSON.stringify(written))).toEqual(written);
        // JUnit: a strict reader takes it, and the case keeps its name (less what XML cannot hold).
        const junit = parseXml(junitXml(written));
        const cases = junit.children.flatMap((suite) => suite.children);
        expect(cases.map((each) => each.attributes.name)).toContain(name.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, ""));
        // HTML: once its own tags are gone, no raw `<` or `>` and no `&` that is not an entity is left.
        const page = reportHtml(written)
          .replace(/<style>[\s\S]*?<\/style>/, "")
          .replace(TAGS, "");
        expect(page).not.toMatch(/[<>]/);
        expect(page).not.toMatch(/&(?!(?:amp|lt|gt|quot|#39);)/);
      }),
      { numRuns: 150, seed: 32 },
    );
    expect(files).toBeGreaterThan(20);
  });
});
