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

/**
 * One change as reported: a change to a shared component is one row naming every operation and webhook it affects, and
 * the places it is reached from (`responses 400, 401: code`).
 */
export interface ChangeGroup {
  kind: ContractChange["kind"];
  rule: string;
  where: string;
  message: string;
  location: SourceLocation;
  accepted?: string;
  subjects: ContractChange["subject"][];
  /** Whether the line is the base revision's: what was removed is located where it was. */
  former: boolean;
}

/** `response 400: code` → the place (`response 400`) and the field (`code`). */
function splitWhere(where: string): [string, string] {
  const colon = where.indexOf(": ");
  return colon < 0 ? [where, ""] : [where.slice(0, colon), where.slice(colon + 2)];
}

export function groupChanges(changes: LocatedChange[]): ChangeGroup[] {
  const groups = new Map<string, { group: ChangeGroup; places: string[]; field: string }>();
  for (const change of changes) {
    const [place, field] = splitWhere(change.where);
    const key = [change.kind, change.rule, field, change.message, change.location.file, change.location.line, change.side, change.accepted ?? ""].join("|");
    let entry = groups.get(key);
    if (!entry) {
      const group: ChangeGroup = {
        kind: change.kind,
        rule: change.rule,
        where: change.where,
        message: change.message,
        location: change.location,
        accepted: change.accepted,
        subjects: [],
        former: change.side === "base",
      };
      entry = { group, places: [], field };
      groups.set(key, entry);
    }
    if (!entry.places.includes(place)) entry.places.push(place);
    if (!entry.group.subjects.some((subject) => subject.label === change.subject.label)) entry.group.subjects.push(change.subject);
  }
  return [...groups.values()].map(({ group, places, field }) => ({ ...group, where: field ? `${joinPlaces(places)}: ${field}` : joinPlaces(places) }));
}

/** `response 400`, `response 401` → `responses 400, 401`. */
function joinPlaces(places: string[]): string {
  if (places.length === 1) return places[0]!;
  const statuses = places.map((place) => /^response (\S+)$/.exec(place)?.[1]);
  if (statuses.every((status) => status !== undefined)) return `responses ${statuses.join(", ")}`;
  return places.join("; ");
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const at = (location: SourceLocation, former = false) =>
  `\`${location.file}:${location.line}\`${former ? " (in the base revision)" : location.exact ? "" : " (nearest)"}`;

function counted(subjects: ContractChange["subject"][]): string {
  const of = (type: ContractChange["subject"]["type"]) => subjects.filter((subject) => subject.type === type).length;
  const part = (count: number, noun: string) => (count ? `${count} ${noun}${count === 1 ? "" : "s"}` : "");
  return [part(of("operation"), "operation"), part(of("webhook"), "webhook"), part(of("package"), "part")].filter(Boolean).join(" and ");
}

function affects(subjects: ContractChange["subject"][]): string {
  const names = subjects.map((subject) => `\`${subject.label}\``);
  if (names.length <= 4) return names.join(", ");
  return `<details><summary>${counted(subjects)}</summary>${names.join(", ")}</details>`;
}

function changeTable(groups: ChangeGroup[], withAcceptance = false): string {
  const header = withAcceptance
    ? "| affects | where | change | accepted by | source |\n|---|---|---|---|---|"
    : "| affects | where | change | rule | source |\n|---|---|---|---|---|";
  const rows = groups.map((group) =>
    withAcceptance
      ? `| ${affects(group.subjects)} | ${cell(group.where)} | ${cell(group.message)} | ${cell(group.accepted ?? "")} | ${at(group.location, group.former)} |`
      : `| ${affects(group.subjects)} | ${cell(group.where)} | ${cell(group.message)} | \`${group.rule}\` | ${at(group.location, group.former)} |`,
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
      ? [
          "| severity | rule | message | source |",
          "|---|---|---|---|",
          ...result.lint.map((f) => `| ${f.severity} | \`${f.tool} ${f.rule}\` | ${cell(f.message)} | ${at(f)} |`),
        ].join("\n")
      : undefined,
  );
  section(
    `Waivers in force (${result.waivers.length})`,
    result.waivers.length
      ? [
          "| tool | rules | where | reason |",
          "|---|---|---|---|",
          ...result.waivers.map(
            (w) => `| ${w.tool} | ${w.rules.map((r) => `\`${r}\``).join(", ")} | ${w.files.map((f) => `\`${f}\``).join(", ")} | ${cell(w.reason)} |`,
          ),
        ].join("\n")
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

function named(subjects: ContractChange["subject"][]): string {
  const labels = subjects.map((subject) => subject.label);
  return labels.length <= 3 ? labels.join(", ") : `${labels.slice(0, 3).join(", ")} and ${labels.length - 3} more`;
}

export function renderAnnotations(result: ReviewResult): string {
  const lines: string[] = [];
  for (const group of groupChanges(result.changes)) {
    if (group.kind !== "breaking") continue;
    const level = group.accepted ? "notice" : "error";
    const title = group.accepted ? "Accepted breaking change" : "Breaking change";
    const former = group.former ? ` (line ${group.location.line} in the base revision)` : "";
    lines.push(
      annotation(
        level,
        group.location,
        title,
        `${group.where}: ${group.message} (affects ${named(group.subjects)})${former}${group.accepted ? `; accepted by ${group.accepted}` : ""}`,
      ),
    );
  }
  for (const finding of result.lint) {
    lines.push(
      annotation(
        finding.severity,
        finding,
        `${finding.tool} ${finding.rule}`,
        `${finding.message}${finding.exact ? "" : " (on a part the bundle adds; nearest source line)"}`,
      ),
    );
  }
  for (const problem of result.problems) lines.push(`::error title=Contract review::${escapeData(problem)}`);
  return lines.length ? `${lines.join("\n")}\n` : "";
}
