// Reads the lint waivers in force (Spectral overrides with `x-svc-waiver`, Redocly's ignore file) and finds the stale ones.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { redoclyProblemsEach } from "../lint.ts";
import { spectralLint } from "../spectral-in-process.ts";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { decodePointer } from "./source-map.ts";

export interface Waiver {
  tool: "spectral" | "redocly";
  rules: string[];
  /** Spectral override globs (a `#/pointer` suffix narrows to a part of a file), or Redocly's file and pointers. */
  files: string[];
  reason: string;
}

const RULESET = ".spectral.yaml";
const REDOCLY_IGNORE = ".redocly.lint-ignore.yaml";
const BUNDLE = "generated/openapi.json";

function isOff(severity: unknown): boolean {
  return severity === "off" || severity === false || severity === -1;
}

/** Every Spectral override entry that turns rules off, with the reason it gives. */
export async function spectralWaivers(root: string): Promise<Waiver[]> {
  const ruleset = YAML.parse(await readFile(path.join(root, RULESET), "utf8")) as JsonObject;
  const overrides = (Array.isArray(ruleset.overrides) ? ruleset.overrides : []) as JsonObject[];
  return overrides
    .filter((entry) => isObject(entry.rules) && Object.values(entry.rules).some(isOff))
    .map((entry) => ({
      tool: "spectral" as const,
      rules: Object.entries(entry.rules as JsonObject)
        .filter(([, severity]) => isOff(severity))
        .map(([rule]) => rule),
      files: (entry.files ?? []) as string[],
      reason: typeof entry["x-svc-waiver"] === "string" ? entry["x-svc-waiver"] : "",
    }));
}

/** Redocly's ignore file, one waiver per file and rule; its reason is the comment above the file's entry. */
export async function redoclyWaivers(root: string): Promise<Waiver[]> {
  const file = path.join(root, REDOCLY_IGNORE);
  if (!existsSync(file)) return [];
  const document = YAML.parseDocument(await readFile(file, "utf8"));
  const waivers: Waiver[] = [];
  const top = document.contents;
  if (!YAML.isMap(top)) return [];
  // The file's opening comment explains every entry that has no comment of its own.
  const opening = document.commentBefore ?? (top.items[0]?.key as YAML.Scalar | undefined)?.commentBefore ?? "";
  for (const [index, pair] of top.items.entries()) {
    const source = String((pair.key as YAML.Scalar).value);
    const own = index === 0 ? undefined : (pair.key as YAML.Scalar).commentBefore;
    const reason = (own ?? opening).trim().replace(/\s*\n\s*/g, " ");
    const rules = (pair.value as YAML.YAMLMap).toJSON() as Record<string, string[]>;
    for (const [rule, pointers] of Object.entries(rules)) {
      waivers.push({ tool: "redocly", rules: [rule], files: pointers.map((pointer) => `${source}${pointer}`), reason });
    }
  }
  return waivers;
}

export async function waiversInForce(root: string): Promise<Waiver[]> {
  return [...(await spectralWaivers(root)), ...(await redoclyWaivers(root))];
}

/** A glob of Spectral's `files` (`**`, `*`) as a regular expression over a path relative to the ruleset. */
function globRegex(glob: string): RegExp {
  const pattern = glob
    .split("**/")
    .map((part) =>
      part
        .split("*")
        .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join("(?:.*/)?");
  return new RegExp(`^${pattern}$`);
}

interface Located {
  rule: string;
  file: string;
  path: string[];
}

function matches(waiver: Waiver, finding: Located): boolean {
  if (!waiver.rules.includes(finding.rule)) return false;
  return waiver.files.some((entry) => {
    const [glob, fragment] = entry.split("#");
    if (!globRegex(glob!).test(finding.file)) return false;
    const prefix = fragment === undefined ? [] : decodePointer(fragment);
    return prefix.every((segment, index) => finding.path[index] === segment);
  });
}

/**
 * Spectral's findings of `rules` on `targets` with no waiver in force: the same ruleset with every waiving override left
 * out, and only those rules on.
 */
async function unwaivedSpectral(root: string, rules: string[], targets: string[]): Promise<Located[]> {
  const ruleset = YAML.parse(await readFile(path.join(root, RULESET), "utf8")) as JsonObject;
  ruleset.overrides = ((ruleset.overrides ?? []) as JsonObject[]).filter((entry) => !(isObject(entry.rules) && Object.values(entry.rules).some(isOff)));
  if ((ruleset.overrides as unknown[]).length === 0) delete ruleset.overrides;
  // Only the waived rules run: every extended ruleset is turned off and its waived rules turned back on. The whole
  // OWASP ruleset with no waiver takes twice as long as the lint itself.
  const extended = ruleset.extends === undefined ? [] : Array.isArray(ruleset.extends) ? ruleset.extends : [ruleset.extends];
  ruleset.extends = extended.map((entry) => [Array.isArray(entry) ? entry[0] : entry, "off"]);
  const own = (isObject(ruleset.rules) ? ruleset.rules : {}) as JsonObject;
  ruleset.rules = Object.fromEntries(rules.map((rule) => [rule, isObject(own[rule]) ? own[rule] : "warn"]));
  // Beside the project's packages, so `extends` by package name resolves; never in the working tree itself.
  const cache = existsSync(path.join(root, "node_modules")) ? path.join(root, "node_modules", ".cache") : os.tmpdir();
  await mkdir(cache, { recursive: true });
  const scratch = await mkdtemp(path.join(cache, "svc-unwaived-"));
  try {
    const copy = path.join(scratch, "unwaived.spectral.yaml");
    // Spectral finds custom functions relative to the ruleset, which the copy no longer sits beside.
    if (typeof ruleset.functionsDir === "string") ruleset.functionsDir = path.relative(scratch, path.resolve(root, ruleset.functionsDir));
    await writeFile(copy, YAML.stringify(ruleset));
    return (await spectralLint(targets, { ruleset: copy, cwd: root })).map((result) => ({
      rule: String(result.code),
      file: path
        .relative(root, path.resolve(root, result.source ?? ""))
        .split(path.sep)
        .join("/"),
      path: result.path.map(String),
    }));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Whether some finding is one that `rule` of `waiver` waives. */
function waives(waiver: Waiver, rule: string, findings: Located[]): boolean {
  return findings.some((finding) => matches({ ...waiver, rules: [rule] }, finding));
}

/**
 * Spectral's unwaived findings, enough to tell each waiver's rules live or stale: the sources first, which nearly every
 * waiver names, then the bundle only for the rules the sources left without a finding a waiver matches (none, in this
 * package). Rules are independent of each other, so these are the findings of the same rules over both; the bundle's
 * run for rules already shown live took as long as the sources' (about 2.5 s).
 */
async function unwaivedSpectralForWaivers(root: string, waivers: Waiver[]): Promise<Located[]> {
  const rulesOf = (list: Waiver[]) => [...new Set(list.flatMap((waiver) => waiver.rules))];
  const found = await unwaivedSpectral(root, rulesOf(waivers), ["openapi/openapi.yaml"]);
  if (!existsSync(path.join(root, BUNDLE))) return found;
  const open = [...new Set(waivers.flatMap((waiver) => waiver.rules.filter((rule) => !waives(waiver, rule, found))))];
  return open.length === 0 ? found : [...found, ...(await unwaivedSpectral(root, open, [BUNDLE]))];
}

/** Redocly's problems with no ignore file: the same config, copied where the ignore file is not. */
async function unwaivedRedocly(root: string): Promise<Located[]> {
  const config = YAML.parse(await readFile(path.join(root, "redocly.yaml"), "utf8")) as JsonObject;
  for (const api of Object.values((config.apis ?? {}) as Record<string, JsonObject>)) api.root = path.join(root, String(api.root));
  const scratch = await mkdtemp(path.join(os.tmpdir(), "svc-unwaived-redocly-"));
  try {
    const copy = path.join(scratch, "redocly.yaml");
    await writeFile(copy, YAML.stringify(config));
    const targets = ["openapi/openapi.yaml", ...(existsSync(path.join(root, "generated/openapi.yaml")) ? ["generated/openapi.yaml"] : [])];
    // One Redocly run for the sources and the bundle: it reports on each in turn.
    const reports = await redoclyProblemsEach(
      targets.map((target) => path.join(root, target)),
      { root, config: copy },
    );
    return targets.flatMap((target, index) =>
      reports[index]!.map((problem) => {
        const where = problem.location?.[0];
        const file = path
          .relative(root, path.resolve(root, where?.source?.ref ?? target))
          .split(path.sep)
          .join("/");
        return { rule: problem.ruleId, file, path: decodePointer(where?.pointer ?? "#/") };
      }),
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The waivers that no longer match any finding: each is rot, waiving nothing but hiding the next real finding. */
export async function staleWaivers(root: string): Promise<Waiver[]> {
  const waivers = await waiversInForce(root);
  const spectralOnes = waivers.filter((waiver) => waiver.tool === "spectral");
  // Spectral runs in this process while Redocly runs in its own.
  const [spectral, redocly] = await Promise.all([
    spectralOnes.length > 0 ? unwaivedSpectralForWaivers(root, spectralOnes) : [],
    waivers.some((waiver) => waiver.tool === "redocly") ? unwaivedRedocly(root) : [],
  ]);
  return waivers.filter((waiver) => {
    const findings = waiver.tool === "spectral" ? spectral : redocly;
    // A waiver of several rules is stale when any one of them waives nothing.
    return waiver.rules.some((rule) => !waives(waiver, rule, findings));
  });
}
