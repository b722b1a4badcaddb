// Renders a review as one Markdown report, or as GitHub Actions annotations on source lines.
import type { ContractChange } from "./contract-diff.ts";
import type { LintFinding } from "./lint-findings.ts";
import type { SourceLocation } from "./source-map.ts";
import type { Waiver } from "./waivers.ts";

export interface LocatedChange extends ContractChange {
  location: SourceLocation;
  /** Why an intended break is accepted. */
  accepted?: string;
}

export interface ReviewResult {
  base: { revision: string; commit: string };
  changes: LocatedChange[];
  lint: LintFinding[];
  waivers: Waiver[];
  /** Problems of the review itself that fail it: a stale bundle, an accepted break without its version. */
  problems: string[];
  passed: boolean;
}

/** One change as reported: a change to a shared component is one row naming every operation and webhook it affects. */
export interface ChangeGroup {
  kind: ContractChange["kind"];
  rule: string;
  where: string;
  message: string;
  location: SourceLocation;
  accepted?: string;
  subjects: string[];
}

export function groupChanges(changes: LocatedChange[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const change of changes) {
    const key = [change.kind, change.rule, change.where, change.message, change.location.file, change.location.line, change.accepted ?? ""].join("|");
    let group = groups.get(key);
    if (!group) {
      group = { kind: change.kind, rule: change.rule, where: change.where, message: change.message, location: change.location, accepted: change.accepted, subjects: [] };
      groups.set(key, group);
    }
    if (!group.subjects.includes(change.subject.label)) group.subjects.push(change.subject.label);
  }
  return [...groups.values()];
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const at = (location: SourceLocation) => `\`${location.file}:${location.line}\`${location.exact ? "" : " (nearest)"}`;

function affects(subjects: string[]): string {
  const names = subjects.map((subject) => `\`${subject}\``);
  if (names.length <= 4) return names.join(", ");
  return `<details><summary>${names.length} operations and webhooks</summary>${names.join(", ")}</details>`;
}

function changeTable(groups: ChangeGroup[], withAcceptance = false): string {
  const header = withAcceptance ? "| affects | where | change | accepted by | source |\n|---|---|---|---|---|" : "| affects | where | change | rule | source |\n|---|---|---|---|---|";
  const rows = groups.map((group) =>
    withAcceptance
      ? `| ${affects(group.subjects)} | ${cell(group.where)} | ${cell(group.message)} | ${cell(group.accepted ?? "")} | ${at(group.location)} |`
      : `| ${affects(group.subjects)} | ${cell(group.where)} | ${cell(group.message)} | \`${group.rule}\` | ${at(group.location)} |`,
  );
  return [header, ...rows].join("\n");
}

export function renderMarkdown(result: ReviewResult): string {
  const groups = groupChanges(result.changes);
  const breaking = groups.filter((group) => group.kind === "breaking" && !group.accepted);
  const accepted = groups.filter((group) => group.kind === "breaking" && group.accepted);
  const additive = groups.filter((group) => group.kind === "additive");
  const deprecated = groups.filter((group) => group.kind === "deprecated");
  const failing = result.lint.filter((finding) => finding.severity !== "notice");
  const lines: string[] = [];
  lines.push(`# Contract review against ${result.base.revision} (${result.base.commit.slice(0, 12)})`, "");
  const counts = [
    `${breaking.length} breaking`,
    `${accepted.length} accepted breaking`,
    `${additive.length} additive`,
    `${deprecated.length} deprecated`,
    `${failing.length} lint ${failing.length === 1 ? "finding" : "findings"}`,
  ].join(", ");
  lines.push(`**${result.passed ? "Passed" : "Failed"}:** ${counts}. The policy: [openapi/breaking-changes.md](openapi/breaking-changes.md).`, "");
  for (const problem of result.problems) lines.push(`- **Problem:** ${problem}`);
  if (result.problems.length > 0) lines.push("");
  const section = (title: string, body: string | undefined) => {
    lines.push(`## ${title}`, "", body ?? "None.", "");
  };
  section(`Breaking changes (${breaking.length})`, breaking.length ? changeTable(breaking) : undefined);
  if (accepted.length) section(`Accepted breaking changes (${accepted.length})`, changeTable(accepted, true));
  section(`Additive changes (${additive.length})`, additive.length ? changeTable(additive) : undefined);
  section(`Deprecations (${deprecated.length})`, deprecated.length ? changeTable(deprecated) : undefined);
  section(
    `Lint findings (${result.lint.length})`,
    result.lint.length
      ? ["| severity | rule | message | source |", "|---|---|---|---|", ...result.lint.map((f) => `| ${f.severity} | \`${f.tool} ${f.rule}\` | ${cell(f.message)} | ${at(f)} |`)].join("\n")
      : undefined,
  );
  section(
    `Waivers in force (${result.waivers.length})`,
    result.waivers.length
      ? ["| tool | rules | where | reason |", "|---|---|---|---|", ...result.waivers.map((w) => `| ${w.tool} | ${w.rules.map((r) => `\`${r}\``).join(", ")} | ${w.files.map((f) => `\`${f}\``).join(", ")} | ${cell(w.reason)} |`)].join("\n")
      : undefined,
  );
  return `${lines.join("\n").trimEnd()}\n`;
}

/** GitHub's workflow-command escaping: data and property values differ in what they must escape. */
const escapeData = (text: string) => text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
const escapeProperty = (text: string) => escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");

function annotation(level: "error" | "warning" | "notice", location: SourceLocation, title: string, message: string): string {
  return `::${level} file=${escapeProperty(location.file)},line=${location.line},title=${escapeProperty(title)}::${escapeData(message)}`;
}

function named(subjects: string[]): string {
  return subjects.length <= 3 ? subjects.join(", ") : `${subjects.slice(0, 3).join(", ")} and ${subjects.length - 3} more`;
}

export function renderAnnotations(result: ReviewResult): string {
  const lines: string[] = [];
  for (const group of groupChanges(result.changes)) {
    if (group.kind !== "breaking") continue;
    const level = group.accepted ? "notice" : "error";
    const title = group.accepted ? "Accepted breaking change" : "Breaking change";
    lines.push(annotation(level, group.location, title, `${group.where}: ${group.message} (affects ${named(group.subjects)})${group.accepted ? `; accepted by ${group.accepted}` : ""}`));
  }
  for (const finding of result.lint) {
    lines.push(annotation(finding.severity, finding, `${finding.tool} ${finding.rule}`, `${finding.message}${finding.exact ? "" : " (on a part the bundle adds; nearest source line)"}`));
  }
  for (const problem of result.problems) lines.push(`::error title=Contract review::${escapeData(problem)}`);
  return lines.length ? `${lines.join("\n")}\n` : "";
}
