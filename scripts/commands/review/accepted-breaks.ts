// Decides which breaking changes were announced as intended: a pull-request label, or an entry under the CHANGELOG's
// "Unreleased" / "Breaking changes" heading naming the operation or webhook, in a release whose major version is new.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ContractChange } from "./contract-diff.ts";

export const BREAKING_HEADING = "### Breaking changes";

/** The bullets under `## Unreleased` → `### Breaking changes`, each as its text. */
export async function announcedBreaks(root: string): Promise<string[]> {
  let changelog: string;
  try {
    changelog = await readFile(path.join(root, "CHANGELOG.md"), "utf8");
  } catch {
    return [];
  }
  const unreleased = sectionAfter(changelog, UNRELEASED_HEADING, /^## /m);
  if (unreleased === undefined) return [];
  const breaking = sectionAfter(unreleased, new RegExp(`^${BREAKING_HEADING}\\s*$`, "m"), /^##+ /m);
  if (breaking === undefined) return [];
  return breaking
    .split(/\n(?=- )/)
    .map((bullet) => bullet.trim())
    .filter((bullet) => bullet.startsWith("- "));
}

/** The CHANGELOG's `## Unreleased` heading: where the next release's words gather (the review reads, the release moves). */
export const UNRELEASED_HEADING = /^## Unreleased\s*$/m;

/** Where a section lies: its heading's start, and its body from after the heading up to the `next` heading or the end. */
export function sectionBounds(text: string, heading: RegExp, next: RegExp = /^## /m): { heading: number; start: number; end: number } | undefined {
  const match = heading.exec(text);
  if (!match) return undefined;
  const start = match.index + match[0].length;
  const end = next.exec(text.slice(start));
  return { heading: match.index, start, end: end ? start + end.index : text.length };
}

function sectionAfter(text: string, heading: RegExp, next: RegExp): string | undefined {
  const bounds = sectionBounds(text, heading, next);
  return bounds && text.slice(bounds.start, bounds.end);
}

/**
 * Whether the head's version is a new major: what an accepted break needs. Semantic versioning without its exception
 * for 0.x (a minor there): the contract is whole and reviewed, and its first release is 1.0.0.
 */
export function isNewMajor(baseVersion: string, headVersion: string): boolean {
  const major = (version: string) => Number(version.split(".")[0]);
  return major(headVersion) > major(baseVersion);
}

export interface Acceptance {
  /** Why a change is accepted, or undefined when it is not. */
  reason(change: ContractChange): string | undefined;
  /** Set when breaks were announced but the version does not say so; accepted changes then still fail. */
  versionProblem?: string;
}

export function acceptance(options: { label: boolean; bullets: string[]; baseVersion: string; headVersion: string }): Acceptance {
  const bumped = isNewMajor(options.baseVersion, options.headVersion);
  const announced = (change: ContractChange) => options.bullets.find((bullet) => change.subject.names.some((name) => bullet.includes(`\`${name}\``)));
  return {
    reason(change) {
      if (change.kind !== "breaking") return undefined;
      if (options.label) return "pull-request label breaking-change";
      const bullet = announced(change);
      return bullet ? `CHANGELOG: ${bullet.slice(2).split("\n")[0]}` : undefined;
    },
    versionProblem: bumped
      ? undefined
      : `an intended break ships in a new major version: info.version is ${options.headVersion}, the base's ${options.baseVersion}`,
  };
}
