// CHANGELOG.md's service change history names only parts the contract has, covers every change of section 9.4 and every
// deprecation of 9.3, and is what the reference shows.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import type { JsonObject } from "../src/contract/json.ts";
import { contract, operations } from "./support/contract.ts";

const changelog = readFileSync(path.join(repoRoot, "CHANGELOG.md"), "utf8");
const history = changelog.slice(changelog.indexOf("## Service change history"));
/** The body rows of a Markdown table (its header and rule left out). */
const tableRows = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .slice(1);
const [changeTable, deprecationTable] = history.split("\n### Deprecations");
const changes = tableRows(changeTable!);
const deprecations = tableRows(deprecationTable!);
const components = contract.components as Record<string, JsonObject>;
const componentNames = new Set(["schemas", "responses", "securitySchemes", "parameters", "pathItems"].flatMap((kind) => Object.keys(components[kind] ?? {})));

/** The contract parts a row's last column names: operations ("GET /path") and component names. */
function named(row: string): { operations: string[]; components: string[] } {
  const last = row.split(" | ").pop()!;
  const tokens = [...last.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return {
    operations: tokens.filter((t) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(t)),
    components: tokens.filter((t) => /^[A-Z][A-Za-z0-9]+$/.test(t)),
  };
}

describe("CHANGELOG.md service change history", () => {
  it("has a row for each change of section 9.4 and each deprecation of 9.3", () => {
    for (const change of [
      "undo deletion",
      "conflict response",
      "Top-level team",
      "Org Management",
      "brand",
      "Event hub ETL",
      "routing",
      "Prepare Team Custom Credentials",
      "Management key header",
      "Team management keys",
      "Webhook management",
      "Retrying",
      "Interpretation filter",
      "closed beta",
    ]) {
      expect(
        changes.some((row) => row.toLowerCase().includes(change.toLowerCase())),
        change,
      ).toBe(true);
    }
    expect(deprecations).toHaveLength(6);
  });

  const known = new Set(operations.map((op) => `${op.method} ${op.template}`));
  for (const row of [...changes, ...deprecations]) {
    it(`names only parts the contract has: ${row.split(" | ")[1]}`, () => {
      const { operations: ops, components: names } = named(row);
      for (const op of ops) expect(known.has(op), op).toBe(true);
      for (const name of names) expect(componentNames.has(name), name).toBe(true);
    });
  }

  it("is shown in the reference, at the end of the contract's description", () => {
    expect(String((contract.info as JsonObject).description)).toContain(history.split("\n## ")[0]!.trim().split("\n").slice(0, 3).join("\n"));
  });
});
