// A release's CHANGELOG section: what the review found since the last release (breaks first, each with its rule,
// naming the operations and events), then the maintainer's words: what `## Unreleased` holds becomes the release's.
import { listOperations } from "../../../src/contract/operations.ts";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { sectionBounds, UNRELEASED_HEADING } from "../review/accepted-breaks.ts";
import { groupChanges, type ChangeGroup, type LocatedChange } from "../review/report.ts";

export const WORDS_PLACEHOLDER = "<!-- The maintainer's words: what this release means for each user, and how to upgrade. -->";

function names(group: ChangeGroup): string {
  const labels = group.subjects.map((subject) => `\`${subject.label}\``);
  return labels.length <= 6 ? labels.join(", ") : `${labels.slice(0, 6).join(", ")} and ${labels.length - 6} more`;
}

const bullet = (group: ChangeGroup) => `- ${names(group)}: ${group.where}: ${group.message} (\`${group.rule}\`)`;

/** The whole contract in one line, for the first release: it has nothing to be compared with. */
function contents(bundle: JsonObject): string {
  const operations = listOperations(bundle).length;
  const events = isObject(bundle.webhooks) ? Object.keys(bundle.webhooks).length : 0;
  return `The first release: the whole contract, ${operations} operations and ${events} events, with the client, the mock and verify.`;
}

/** The section's text, without the maintainer's words (which `writeRelease` takes from `## Unreleased`). */
export function releaseSection(options: { version: string; date: string; since?: string; changes: LocatedChange[]; headBundle: JsonObject }): string {
  const lines = [`## ${options.version} (${options.date})`, ""];
  if (options.since === undefined) {
    lines.push(contents(options.headBundle), "");
    return lines.join("\n");
  }
  const groups = groupChanges(options.changes);
  const part = (title: string, kind: LocatedChange["kind"]) => {
    const of = groups.filter((group) => group.kind === kind);
    if (of.length) lines.push(`#### ${title}`, ...of.map(bullet), "");
  };
  lines.push(`### What the review found since ${options.since}`, "");
  if (groups.length === 0) lines.push("Nothing in the contract or the package's surface: a patch.", "");
  part("Breaking", "breaking");
  part("Added", "additive");
  part("Deprecated", "deprecated");
  return lines.join("\n");
}

/**
 * The CHANGELOG with the release's section in place of `## Unreleased`'s content (kept below the section as the
 * maintainer's words, or a placeholder for them) and an empty `## Unreleased` above it.
 */
export function writeRelease(changelog: string, section: string): string {
  const bounds = sectionBounds(changelog, UNRELEASED_HEADING);
  if (!bounds) throw new Error("CHANGELOG.md has no `## Unreleased` heading for the release's section to take the place of");
  const { heading, start, end } = bounds;
  const words = changelog.slice(start, end).trim();
  return `${changelog.slice(0, heading)}## Unreleased\n\n${section.trimEnd()}\n\n${words || WORDS_PLACEHOLDER}\n\n${changelog.slice(end)}`;
}
