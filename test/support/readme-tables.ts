// Reads the READMEs' `| file |` tables, for the tests that keep them true (test/folder-readmes.test.ts, test/test-readme.test.ts):
// one reader, so a table the one test reads is the table the other reads.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

/** The repository's files as git tracks them, with what is added but not yet committed. */
export const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && existsSync(path.join(repoRoot, file)));

/** `contract/{link,users}.test.ts` → both names. */
export function expandBraces(name: string): string[] {
  const match = /\{([^{}]+)\}/.exec(name);
  if (match === null) return [name];
  return match[1]!.split(",").flatMap((part) => expandBraces(name.replace(match[0], part)));
}

/** A table row's cells, a `\|` inside a cell kept in it. */
function cells(line: string): string[] {
  return line
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

/** One name a table row gives, and whether the row marks it `(not committed)`: a file a command makes, which git ignores. */
export interface RowName {
  name: string;
  committed: boolean;
}

/**
 * The names the README's `| file |` tables give in a column (the first unless another header is named; a cell may name
 * several, each in backticks, braces expanded), each marked committed or not. A table without that column gives none.
 */
export function rowEntries(text: string, column = "file"): RowName[] {
  const names: RowName[] = [];
  let at: number | undefined;
  for (const line of text.split("\n")) {
    if (!line.startsWith("|")) {
      at = undefined;
      continue;
    }
    const row = cells(line);
    if (/^file\b/i.test(row[0] ?? "")) {
      const index = column === "file" ? 0 : row.indexOf(column);
      at = index < 0 ? undefined : index;
    } else if (at !== undefined && !/^-+$/.test(row[0] ?? "")) {
      const cell = row[at] ?? "";
      const committed = !/\(not committed\)/.test(cell);
      for (const [, name] of cell.matchAll(/`([^`]+)`/g)) names.push(...expandBraces(name!).map((expanded) => ({ name: expanded, committed })));
    }
  }
  return names;
}

/** The names of rowEntries alone. */
export const rowNames = (text: string, column = "file"): string[] => rowEntries(text, column).map(({ name }) => name);

/** Whether git ignores a path of the repository (.gitignore and the rest of git's exclude rules), whether or not it exists. */
export function ignoredByGit(file: string): boolean {
  try {
    execFileSync("git", ["check-ignore", "--quiet", "--no-index", file], { cwd: repoRoot });
    return true;
  } catch {
    return false;
  }
}
