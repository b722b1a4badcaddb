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

/**
 * The names the README's `| file |` tables give in a column (the first unless another header is named; a cell may name
 * several, each in backticks, braces expanded). A table without that column gives none.
 */
export function rowNames(text: string, column = "file"): string[] {
  const names: string[] = [];
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
      for (const [, name] of (row[at] ?? "").matchAll(/`([^`]+)`/g)) names.push(...expandBraces(name!));
    }
  }
  return names;
}
