// verify-report.html: the run as one self-contained page a team reads (no outside script, style, font or image),
// leading with what failed: the failures by cause, most first, each titled by its first failure's sentence with its
// first reproduction and what the server answered (the first answer open, the others collapsed); then operations
// against check classes as a grid whose failed cells link to their causes, and what the requests covered (declared
// statuses seen, inputs sent) as counts and bars.
import type { Check } from "../check.ts";
import { byCount, operationList } from "./findings.ts";
import { checkClass } from "./groups.ts";
import { answerText, statusLine } from "./answer.ts";
import type { FailureGroup, Report } from "./report-shape.ts";

/** The check classes, as the grid's columns, in the order a run makes them. */
export const CHECK_CLASSES = ["operation", "credential", "invalid", "coverage", "generated", "state", "collection", "protocol", "workflow", "cleanup"] as const;

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/** Where a check sits in the grid: its operation, or the row of checks about no one operation (a path's methods, the run). */
const OTHER_ROW = "(the run and its paths)";

/** A cell: its checks counted; its failures link to their cause (the first found, the others named in its title). */
function cell(checks: Check[]): string {
  if (checks.length === 0) return `<td class="none"></td>`;
  const count = (status: Check["status"]) => checks.filter((check) => check.status === status).length;
  const [passed, failed, skipped] = [count("passed"), count("failed"), count("skipped")];
  const state = failed > 0 ? "failed" : passed > 0 ? "passed" : "skipped";
  const groups = [...new Set(checks.flatMap((check) => (check.status === "failed" && check.group !== undefined ? [check.group] : [])))].sort(
    (a, b) => Number(a.slice(1)) - Number(b.slice(1)),
  );
  const failures = failed === 0 ? "" : groups.length === 0 ? `✗${failed}` : `<a href="#${groups[0]}">✗${failed}</a>`;
  const parts = [failures, passed > 0 ? `✓${passed}` : "", skipped > 0 ? `–${skipped}` : ""].filter(Boolean).join(" ");
  const causes = groups.length === 0 ? "" : ` (${groups.length === 1 ? "cause" : "causes"} ${groups.join(", ")})`;
  return `<td class="${state}" title="${passed} passed, ${failed} failed${causes}, ${skipped} skipped">${parts}</td>`;
}

function grid(report: Report): string {
  const rows = [...report.coverage.map((op) => op.operationId), OTHER_ROW];
  const byRow = new Map<string, Check[]>(rows.map((row) => [row, []]));
  for (const check of report.checks) (byRow.get(check.operationId ?? OTHER_ROW) ?? byRow.get(OTHER_ROW)!).push(check);
  const head = `<tr><th>operation</th>${CHECK_CLASSES.map((name) => `<th>${name}</th>`).join("")}</tr>`;
  const body = rows
    .filter((row) => row !== OTHER_ROW || byRow.get(row)!.length > 0)
    .map((row) => {
      const checks = byRow.get(row)!;
      return `<tr><th scope="row">${escapeHtml(row)}</th>${CHECK_CLASSES.map((name) => cell(checks.filter((check) => checkClass(check) === name))).join("")}</tr>`;
    })
    .join("\n");
  return `<table class="grid">${head}\n${body}</table>`;
}

function bar(part: number, whole: number): string {
  const share = whole === 0 ? 0 : Math.round((100 * part) / whole);
  return `<span class="bar" role="img" aria-label="${share}%"><span style="width:${share}%"></span></span> ${part} of ${whole}`;
}

function coverage(report: Report): string {
  const statuses = report.coverage.reduce((sum, op) => sum + op.declaredStatuses.filter((s) => op.seenStatuses.map(String).includes(s)).length, 0);
  const declared = report.coverage.reduce((sum, op) => sum + op.declaredStatuses.length, 0);
  const exercised = report.coverage.reduce((sum, op) => sum + op.inputs.filter((input) => input.exercised).length, 0);
  const inputs = report.coverage.reduce((sum, op) => sum + op.inputs.length, 0);
  const rows = report.coverage
    .map((op) => {
      const chips = op.declaredStatuses
        .map((status) => `<span class="chip ${op.seenStatuses.map(String).includes(status) ? "seen" : ""}">${escapeHtml(status)}</span>`)
        .join("");
      const undeclared = op.seenStatuses.filter((status) => !op.declaredStatuses.includes(String(status)));
      const missed = op.inputs.filter((input) => !input.exercised).map((input) => input.name);
      return `<tr><th scope="row">${escapeHtml(op.operationId)}<br><small>${escapeHtml(`${op.method} ${op.path}`)}</small></th><td>${op.requests}</td><td>${chips}${
        undeclared.length > 0 ? ` <span class="chip undeclared">undeclared: ${undeclared.join(", ")}</span>` : ""
      }</td><td>${bar(op.inputs.length - missed.length, op.inputs.length)}${missed.length > 0 ? `<br><small>not sent: ${escapeHtml(missed.join(", "))}</small>` : ""}</td></tr>`;
    })
    .join("\n");
  return `<p>Declared statuses seen: ${bar(statuses, declared)}. Inputs sent: ${bar(exercised, inputs)}.</p>
<table class="coverage"><tr><th>operation</th><th>requests</th><th>declared statuses (seen ones filled)</th><th>inputs sent</th></tr>
${rows}</table>`;
}

/** The longest cause a heading shows: the rest is in the first failure's detail below it, so the reproduction stays in sight. */
const HEADING_CHARS = 200;

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** What the server answered each failure a cause keeps whole: the first open, the others collapsed under their ids. */
function answers(byId: Map<string, Check>, group: FailureGroup): string {
  const shown = group.examples.flatMap((id) => {
    const answer = byId.get(id)?.answer;
    return answer === undefined ? [] : [{ id, answer }];
  });
  return shown
    .map(
      ({ id, answer }, index) =>
        `\n<details class="answer"${index === 0 ? " open" : ""}><summary>${escapeHtml(id)} answered ${escapeHtml(statusLine(answer))}</summary><pre>${escapeHtml(answerText(answer))}</pre></details>`,
    )
    .join("");
}

/** A cause: its count, class and title, its first failure's reproduction, the operations it touches, its other failures and their answers. */
function group(byId: Map<string, Check>, group: FailureGroup): string {
  const { first } = group;
  const others = group.examples.slice(1).map((id) => {
    const check = byId.get(id);
    return `${escapeHtml(id)}${check === undefined ? "" : ` <small>(${escapeHtml(check.name)})</small>`}`;
  });
  const counted = group.count - group.examples.length;
  const more = [others.length > 0 ? `also ${others.join(", ")}` : "", counted > 0 ? `${counted} more, counted (their names are in the reports)` : ""]
    .filter(Boolean)
    .join("; ");
  return `<section class="group" id="${escapeHtml(group.id)}"><h3>${escapeHtml(group.id)} · ✗${group.count} · ${escapeHtml(group.class)}: ${escapeHtml(cut(group.title, HEADING_CHARS))}</h3>
${first.repro === undefined ? "" : `<pre>${escapeHtml(first.repro)}</pre>\n`}<p><small>operations: ${escapeHtml(operationList(group.operations))}; cause: ${escapeHtml(cut(group.message, HEADING_CHARS))}</small></p>
<p>First, ${escapeHtml(first.id ?? "")}: ${escapeHtml(first.name)}${first.detail === undefined ? "" : ` — ${escapeHtml(first.detail)}`}</p>${more === "" ? "" : `\n<p><small>${more}</small></p>`}${answers(byId, group)}</section>`;
}

function failures(report: Report): string {
  if (report.groups.length === 0) return report.summary.failed === 0 ? "<p>No check failed.</p>" : "";
  const byId = new Map(report.checks.flatMap((check) => (check.id === undefined ? [] : [[check.id, check] as const])));
  return byCount(report.groups)
    .map((each) => group(byId, each))
    .join("\n");
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1b1f24;max-width:80rem}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem}h3{font-size:1rem;margin:.2rem 0}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #c9ced6;padding:.2rem .45rem;text-align:left;vertical-align:top}
.grid td{text-align:center;min-width:3.2rem;font-variant-numeric:tabular-nums}
td.passed{background:#dcf5e3}td.failed{background:#fbd9d9;font-weight:600}td.skipped{background:#eceff3;color:#4a5260}
.chip{display:inline-block;border:1px solid #8a94a3;border-radius:.6rem;padding:0 .4rem;margin:.1rem;font-size:.85em}
.chip.seen{background:#1f6f3f;border-color:#1f6f3f;color:#fff}.chip.undeclared{background:#a61b1b;border-color:#a61b1b;color:#fff}
.bar{display:inline-block;width:6rem;height:.7rem;background:#e3e6ea;vertical-align:middle}.bar span{display:block;height:100%;background:#2f6fb3}
.group{border-left:4px solid #a61b1b;padding:.2rem .8rem;margin:.8rem 0;background:#fff6f6;overflow-wrap:anywhere}
.group p{margin:.3rem 0}.grid a{color:inherit}.answer summary{cursor:pointer;font-size:.9em}
pre{white-space:pre-wrap;word-break:break-all;background:#f3f4f6;padding:.5rem;font-size:.85em;max-height:12em;overflow:auto;margin:.3rem 0}
.summary{font-size:1.05rem}small{color:#4a5260}`;

export function reportHtml(report: Report): string {
  const { passed, failed, skipped } = report.summary;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>verify: ${escapeHtml(report.baseUrl)}</title><style>${STYLE}</style></head>
<body><main>
<h1>verify: ${escapeHtml(report.baseUrl)}</h1>
<p class="summary">${failed > 0 ? "✗" : "✓"} ${passed} passed, ${failed} failed, ${skipped} skipped: ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s${
    report.groups.length > 0
      ? `; the failures have ${report.groups.length} cause${report.groups.length === 1 ? "" : "s"}, most first (a reproduction reads credentials from the environment)`
      : ""
  }.</p>
${failures(report)}
<h2>Checks by operation and class</h2>
<p>Started ${escapeHtml(report.startedAt)}. ${report.mock ? "The package's stateful mock." : "A server."} ${report.allowWrites ? "Writes allowed." : "No writes."} ${report.concurrency} requests at a time, ${report.rate === null ? "no rate limit" : `at most ${report.rate} a second`}. Generated cases: ${report.cases} per operation from seed ${report.seed} (<code>--seed ${report.seed}</code> replays them).</p>
<p>✓ passed, ✗ failed, – skipped; a cell counts the checks of its operation and class, and its failures link to their cause.</p>
${grid(report)}
<h2>Coverage</h2>
${coverage(report)}
</main></body></html>
`;
}
