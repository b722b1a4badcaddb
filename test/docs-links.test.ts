// Every relative link of the README and the guides leads somewhere both in the repository and in the package as installed
// (the files `npm pack` puts in the tarball), so the registry's page never links to a file the tarball lacks;
// CONTRIBUTING.md, which does not ship, is held to the repository alone. A link's #anchor must be a heading of its page.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { documentationFiles, headingAnchors, relativeLinks } from "./support/markdown.ts";

/** The tarball's files, relative to the package root, as `npm pack --dry-run` lists them without writing a tarball. */
let packed: string[];
beforeAll(async () => {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: repoRoot });
  packed = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
}, 60_000);

/** What is wrong with each relative link of `file` (a Markdown file of the repository), as "line: problem". */
export function brokenLinks(file: string, text: string, where: { inRepository: (target: string) => boolean; inPackage?: (target: string) => boolean }) {
  const problems: string[] = [];
  const lines = text.split("\n");
  for (const target of relativeLinks(text)) {
    const line = lines.findIndex((candidate) => candidate.includes(`](${target})`)) + 1;
    const [pathPart = "", anchor] = target.split("#") as [string, string | undefined];
    if (pathPart === "") {
      // A bare #anchor is this page's own.
      if (!headingAnchors(text).has(anchor!)) problems.push(`${file}:${line}: ${target}: this page has no heading whose anchor is #${anchor}`);
      continue;
    }
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
    if (resolved.startsWith("../")) problems.push(`${file}:${line}: ${target} leaves the repository`);
    else if (!where.inRepository(resolved)) problems.push(`${file}:${line}: ${target} is not a file of the repository (${resolved})`);
    else if (where.inPackage !== undefined && !where.inPackage(resolved))
      problems.push(`${file}:${line}: ${target} is not in the package as installed (${resolved}): link it from CONTRIBUTING.md, or write the path as code`);
    else if (anchor !== undefined && resolved.endsWith(".md") && !headingAnchors(readFileSync(path.join(repoRoot, resolved), "utf8")).has(anchor))
      problems.push(`${file}:${line}: ${target}: ${resolved} has no heading whose anchor is #${anchor}`);
  }
  return problems;
}

const inRepository = (target: string) => existsSync(path.join(repoRoot, target));
/** A file the tarball holds, or a folder holding one (a link to `docs/`). */
const inPackage = (target: string) => {
  const folder = target.endsWith("/") || (inRepository(target) && statSync(path.join(repoRoot, target)).isDirectory());
  return folder ? packed.some((file) => file.startsWith(`${target.replace(/\/$/, "")}/`)) : packed.includes(target);
};

describe("links in the README, the guides and CONTRIBUTING.md", () => {
  it("finds a link to a file the package lacks, one the repository lacks, and anchors no heading makes, there or here", () => {
    const text =
      "# Guide\n\nSee [the contract](../openapi/README.md), [gone](missing.md), [a step](client.md#no-such-step), [here](#guide), [there](#nowhere).\n";
    const problems = brokenLinks("docs/example.md", text, { inRepository, inPackage: (target) => target.startsWith("docs/") });
    expect(problems).toEqual([
      "docs/example.md:3: ../openapi/README.md is not in the package as installed (openapi/README.md): link it from CONTRIBUTING.md, or write the path as code",
      "docs/example.md:3: missing.md is not a file of the repository (docs/missing.md)",
      "docs/example.md:3: client.md#no-such-step: docs/client.md has no heading whose anchor is #no-such-step",
      "docs/example.md:3: #nowhere: this page has no heading whose anchor is #nowhere",
    ]);
  });

  it("ships the README and every guide", () => {
    const shipped = documentationFiles().filter((doc) => doc.shipped);
    expect(shipped.length).toBeGreaterThan(5);
    for (const { file } of shipped) expect(packed).toContain(file);
    expect(packed).not.toContain("CONTRIBUTING.md");
  });

  for (const { file, shipped } of documentationFiles()) {
    it(`${file}: every relative link resolves in the repository${shipped ? " and in the installed package" : ""}`, () => {
      const text = readFileSync(path.join(repoRoot, file), "utf8");
      expect(brokenLinks(file, text, { inRepository, ...(shipped ? { inPackage } : {}) })).toEqual([]);
    });
  }
});
