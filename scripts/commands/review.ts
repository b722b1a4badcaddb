// `npm run review`: a pull request's review of the contract (lint findings on source lines, breaking changes against a
// base revision, waivers in force) as a Markdown report or GitHub Actions annotations; exits 1 when it must not merge.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { bundleContract, renderBundle } from "../build/bundle.ts";
import { isMain } from "../build/lib/cli.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { acceptance, announcedBreaks } from "./review/accepted-breaks.ts";
import { resolveBase, unpackRevision } from "./review/base-tree.ts";
import { diffContracts } from "./review/contract-diff.ts";
import { readSurfaces } from "./review/surfaces.ts";
import { failsReview, lintFindings } from "./review/lint-findings.ts";
import { renderAnnotations, renderMarkdown, type LocatedChange, type ReviewResult } from "./review/report.ts";
import { SourceMap } from "./review/source-map.ts";
import { waiversInForce } from "./review/waivers.ts";

export interface ReviewOptions {
  /** The repository whose working tree is reviewed. */
  root: string;
  /** A git revision; default: the merge base with origin/main, else HEAD~1. */
  base?: string;
  /** The pull request carries the label that accepts an intended break. */
  acceptBreaking?: boolean;
}

const USAGE = `usage: npm run review -- [--base <git revision>] [--format markdown|github-actions] [--report <file>] [--accept-breaking]

  --base             the revision to compare with (default: the merge base with origin/main, else HEAD~1)
  --format           markdown (default): the report on stdout; github-actions: annotations on stdout, and the
                     report appended to $GITHUB_STEP_SUMMARY (or written to --report)
  --report <file>    also write the Markdown report to this file
  --accept-breaking  the pull request carries the breaking-change label: breaking changes are accepted
                     (they still need a new major version, see openapi/breaking-changes.md)
  --root <dir>       the repository to review (default: the current directory)`;

/** A tool's failure in one line: its last meaningful line, with the temporary folder named as what it holds. */
function reason(error: unknown, folder: string, name: string): string {
  const lines = String((error as Error).message ?? error)
    .split("\n")
    .map((line) => line.replace(/[║╔╗╚╝═]/g, "").trim())
    .filter((line) => line !== "" && !/^(bundling|redocly|Deprecation|Node\.js|Future|You are|Update)/.test(line));
  return (lines.at(-1) ?? "unknown failure").replace(/^- /, "").replaceAll(`${folder}/`, `${name}:`);
}

function version(document: JsonObject): string {
  return String((document.info as JsonObject | undefined)?.version ?? "0.0.0");
}

/** What changed from a base commit to the working tree: the contract's changes and the package surface's, located. */
export interface Comparison {
  baseVersion: string;
  headVersion: string;
  /** The working tree's bundle, and whether the committed generated/openapi.json is stale against it. */
  headBundle: JsonObject;
  staleBundle: boolean;
  /** Unaccepted: acceptance is the review's (rule 13), not the comparison's. */
  changes: LocatedChange[];
}

/** The working tree's side of a comparison, made once however many bases it is compared with (a release judges several). */
export interface WorkingTree {
  root: string;
  map: SourceMap;
  bundle: Promise<{ document: JsonObject; stale: boolean }>;
}

export function workingTree(root: string): WorkingTree {
  // The service history only matters for comparing with a committed bundle, which carries it.
  const committed = path.join(root, "generated", "openapi.json");
  const withHistory = existsSync(committed);
  const bundle = bundleContract({ root, serviceHistory: withHistory })
    .catch((error: unknown) => {
      throw new Error(`the working tree does not bundle: ${reason(error, root, ".")}`);
    })
    .then(async (document) => ({ document, stale: withHistory && (await readFile(committed, "utf8")) !== renderBundle(document).json }));
  // A rejection is read by each comparison that awaits it; none left waiting makes it unhandled.
  bundle.catch(() => {});
  return { root, map: new SourceMap(root), bundle };
}

export async function compareWith(head: WorkingTree, commit: string): Promise<Comparison> {
  const root = head.root;
  const headMap = head.map;
  const baseTree = await unpackRevision(root, commit);
  try {
    const baseMap = new SourceMap(baseTree.dir);
    const short = commit.slice(0, 12);
    const [baseBundle, { document: headBundle, stale: staleBundle }, surfaces] = await Promise.all([
      bundleContract({ root: baseTree.dir, serviceHistory: false }).catch((error: unknown) => {
        throw new Error(`the base revision ${short} does not bundle: ${reason(error, baseTree.dir, short)}`);
      }),
      head.bundle,
      readSurfaces(root, commit),
    ]);
    const changes: LocatedChange[] = diffContracts(baseBundle, headBundle).map((change) => {
      // What was removed is located where the base revision listed it.
      const location = change.side === "head" ? headMap.locate(change.pointer) : baseMap.locate(change.pointer, { atReference: true });
      return { ...change, location };
    });
    changes.push(...surfaces.changes);
    return { baseVersion: version(baseBundle), headVersion: version(headBundle), headBundle, staleBundle, changes };
  } finally {
    await baseTree.remove();
  }
}

export async function review(options: ReviewOptions): Promise<ReviewResult> {
  const root = path.resolve(options.root);
  const base = await resolveBase(root, options.base);
  const head = workingTree(root);
  const [comparison, lint, waivers, bullets] = await Promise.all([
    compareWith(head, base.commit),
    lintFindings(root, head.map),
    waiversInForce(root),
    announcedBreaks(root),
  ]);
  const problems: string[] = [];
  if (comparison.staleBundle) {
    problems.push("generated/openapi.json is stale: run `npm run build` and commit generated/ (the bundle's lint findings are of the stale bundle)");
  }
  const accepting = acceptance({ label: options.acceptBreaking ?? false, bullets, baseVersion: comparison.baseVersion, headVersion: comparison.headVersion });
  const changes: LocatedChange[] = comparison.changes.map((change) => {
    const accepted = accepting.reason(change);
    return accepted ? { ...change, accepted } : change;
  });
  if (changes.some((change) => change.accepted) && accepting.versionProblem) problems.push(`Breaking changes are accepted, but ${accepting.versionProblem}.`);

  const unaccepted = changes.some((change) => change.kind === "breaking" && !change.accepted);
  const passed = !unaccepted && !lint.some(failsReview) && problems.length === 0;
  return { base, changes, lint, waivers, problems, passed };
}

/** The command: its exit code, after one line on stderr for a command line or a revision it cannot review. */
export async function main(args: string[] = process.argv.slice(2)): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        base: { type: "string" },
        format: { type: "string", default: "markdown" },
        report: { type: "string" },
        "accept-breaking": { type: "boolean", default: false },
        root: { type: "string", default: process.cwd() },
        help: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`review: ${(error as Error).message} (see --help)`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    return await run(values);
  } catch (error) {
    console.error(`review: ${(error as Error).message.split("\n")[0]}`);
    return 2;
  }
}

async function run(values: { base?: string; format: string; report?: string; "accept-breaking": boolean; root: string }): Promise<number> {
  if (values.format !== "markdown" && values.format !== "github-actions") {
    console.error(`review: --format must be markdown or github-actions, not ${values.format}`);
    return 2;
  }
  const result = await review({ root: values.root, base: values.base, acceptBreaking: values["accept-breaking"] });
  const markdown = renderMarkdown(result);
  if (values.report) await writeFile(values.report, markdown);
  if (values.format === "github-actions") {
    process.stdout.write(renderAnnotations(result));
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary && !values.report) await appendFile(summary, markdown);
  } else {
    process.stdout.write(markdown);
  }
  return result.passed ? 0 : 1;
}

if (isMain(import.meta.url)) {
  process.exitCode = await main();
}
