// Every fenced block of the README, the guides (docs/) and CONTRIBUTING.md is accounted for by the tag after its language
// (CONTRIBUTING.md, "Writing the README and the guides"): `typecheck` blocks compile in one strict program against the
// packed package; `run` blocks run in a fresh project holding the package and msw, as a reader runs them; `no-run` blocks
// say why not. Blocks are found by their tag, never by their position, and a failure names the file and line of its block.
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { codeBlocks, documentationFiles, readBlocks, type CodeBlock } from "./support/markdown.ts";
import { mockUrl } from "./support/mock.ts";
import { freePort } from "./support/net.ts";
import { installPacked, type PackedProject } from "./support/packed.ts";
import { killGroup, spawnGroup } from "./support/processes.ts";
import { STRICT_CONSUMER } from "./support/type-check.ts";

const README_MOST_LINES = 250;
/** The port the guides write for the mock; each block is given a free one, or the suite's mock. */
const GUIDE_PORT = "4010";
/** The port the guides write for a receiver of the service's events; a block that starts one is given a free one. */
const RECEIVER_PORT = /\b3000\b/g;
const RUN_TIMEOUT_MS = 60_000;

const { devDependencies } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const MSW = `msw@${devDependencies.msw}`;

const blocks = documentationFiles().flatMap(({ file }) => readBlocks(file));
const where = (block: CodeBlock) => `${block.file}:${block.line}`;
const typecheckBlocks = blocks.filter((block) => block.tag?.kind === "typecheck");
const fileBlocks = blocks.filter((block) => block.tag?.kind === "run" && block.tag.file !== undefined);
/** Shell blocks to run, a text written twice (the README's quick start and its guide's first step) run once. */
const commandBlocks = [
  ...new Map(blocks.filter((block) => block.tag?.kind === "run" && block.tag.file === undefined).map((block) => [block.code, block])).values(),
];

/** A line that starts a command in the background (`cmd &`, maybe with a comment), not `a && b`. */
const BACKGROUND = /(?<!&)&\s*(#.*)?$/;

let project: PackedProject;
/** Each command block's run, started in beforeAll so they overlap the type check; settled by its own test. */
const runs = new Map<CodeBlock, Promise<void>>();

/** Unobserved until a test reads it: a failure is that test's, not an unhandled rejection. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

beforeAll(async () => {
  project = await installPacked({ peer: MSW });
  // Vitest, which a reader installs beside the package: here the repository's own, linked rather than installed again
  // (Node follows the link to its real path, so Vitest's own dependencies resolve from the repository, and the imports of
  // the guides' tests from the project).
  await symlink(path.join(repoRoot, "node_modules/vitest"), path.join(project.dir, "node_modules/vitest"));
  await symlink("../vitest/vitest.mjs", path.join(project.dir, "node_modules/.bin/vitest"));
  for (const block of fileBlocks) {
    const target = path.join(project.dir, (block.tag as { file: string }).file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, block.code);
  }
  for (const block of commandBlocks) runs.set(block, later(runCommands(block)));
}, 300_000);

afterAll(async () => {
  // A run whose test was filtered out (-t) is still going: it stops on its own, before its project goes.
  await Promise.allSettled(runs.values());
  await project?.remove();
}, RUN_TIMEOUT_MS + 10_000);

/**
 * Runs a shell block with bash in the project, stopping at the first failing line. A block that starts a command in the
 * background (a line ending in `&`) gets a free port for 4010, any other the suite's mock, and a receiver's 3000 is
 * always a free port. Nothing is added between its lines: a block that calls what it started waits for it as a reader
 * would, in its own words (`--wait`, curl's `--retry-connrefused`), so a block that forgets to fails here as it would
 * fail a reader. Whatever the block started is stopped with it.
 */
async function runCommands(block: CodeBlock): Promise<void> {
  const startsOwn = block.code.split("\n").some((line) => BACKGROUND.test(line));
  const port = startsOwn ? String(await freePort()) : new URL(mockUrl).port;
  const receiver = String(await freePort());
  const script = ["set -eo pipefail", block.code.replaceAll(GUIDE_PORT, port).replaceAll(RECEIVER_PORT, receiver)].join("\n");
  // This test's Vitest worker settings would reach a Vitest the block starts.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")));
  // From a file, not `bash -c`: a failing block's script can be read as it ran, and the process registry's line stays short.
  const scriptFile = path.join(project.dir, `docs-block-${block.file.replace(/\W+/g, "-")}-${block.line}.sh`);
  await writeFile(scriptFile, `${script}\n`);
  const child = spawnGroup("bash", [scriptFile], { cwd: project.dir, env: { ...env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const timer = setTimeout(() => killGroup(child.pid), RUN_TIMEOUT_MS);
  // "exit", not "close": a command left in the background holds the pipes open.
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  killGroup(child.pid);
  if (code === 0) return;
  // A failure inside a file a guide wrote (a Vitest test) is named by that file: say which block of which guide it is.
  const written = fileBlocks
    .filter((file) => output.includes((file.tag as { file: string }).file))
    .map((file) => `${(file.tag as { file: string }).file} is ${where(file)}`);
  throw new Error(
    `${where(block)}: the block exited with ${code}${written.length > 0 ? ` (${written.join("; ")})` : ""}:\n${block.code}\n--- output ---\n${output.slice(-4000)}`,
  );
}

/** The file a typecheck block is compiled as: at the project's root, where a guide's `./seed.json` is, as a reader's file would be. */
const blockFile = (dir: string, block: CodeBlock) => path.join(dir, `docs-block-${block.file.replace(/\W+/g, "-")}-${block.line}.ts`);

/**
 * Each typecheck block's problems under its "file:line", and any other problem under "(outside the blocks)": one program
 * over every block, with a strict consumer's options. The blocks and the package's declarations are checked, not
 * TypeScript's libraries nor Node's types, which are this repository's pick.
 */
function compileBlocks(dir: string, compiled: CodeBlock[]): Map<string, string> {
  const blockOf = new Map(compiled.map((block) => [blockFile(dir, block), block]));
  const { options } = ts.convertCompilerOptionsFromJson({ target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", ...STRICT_CONSUMER }, dir);
  const program = ts.createProgram({ rootNames: [...blockOf.keys()], options });
  const packageDir = `${path.join(dir, "node_modules", "@svc", "health-api-contract")}${path.sep}`;
  const checked = program.getSourceFiles().filter((source) => blockOf.has(source.fileName) || source.fileName.startsWith(packageDir));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSourceFiles().flatMap((source) => program.getSyntacticDiagnostics(source)),
    ...checked.flatMap((source) => program.getSemanticDiagnostics(source)),
  ];
  const problems = new Map<string, string>();
  const add = (key: string, line: string) => problems.set(key, problems.has(key) ? `${problems.get(key)}\n${line}` : line);
  for (const diagnostic of diagnostics) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const block = diagnostic.file === undefined ? undefined : blockOf.get(diagnostic.file.fileName);
    if (block === undefined || diagnostic.start === undefined) {
      add("(outside the blocks)", `${diagnostic.file?.fileName ?? ""}: TS${diagnostic.code}: ${message}`);
      continue;
    }
    // The block's code starts on the line after its fence: name the guide's own line.
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    add(where(block), `${block.file}:${block.line + 1 + line}: TS${diagnostic.code}: ${message}`);
  }
  return problems;
}

describe("README.md", () => {
  it(`is at most ${README_MOST_LINES} lines: a page for the people who install the package, the rest in docs/`, () => {
    expect(readFileSync(path.join(repoRoot, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(README_MOST_LINES);
  });
});

describe("the code blocks' tags", () => {
  it("reads the tag after the language, a block with none, and one it does not know", () => {
    const text =
      "# Guide\n\n```ts typecheck\nconst a = 1;\n```\n\n```sh\nls\n```\n\n```json run: seed.json\n{}\n```\n\n````text no-run: an output sample\n```\n````\n\n```ts compile\n```\n";
    expect(codeBlocks("docs/example.md", text).map((block) => [block.line, block.language, block.tag])).toEqual([
      [3, "ts", { kind: "typecheck" }],
      [7, "sh", undefined],
      [11, "json", { kind: "run", file: "seed.json" }],
      [15, "text", { kind: "no-run", reason: "an output sample" }],
      [19, "ts", undefined],
    ]);
  });

  it("every block of the README, the guides and CONTRIBUTING.md says what the suite does with it (typecheck, run, run: <file> or no-run: <reason>)", () => {
    expect(blocks.filter((block) => block.tag === undefined).map((block) => `${where(block)}: \`\`\`${block.language} ${block.info}`)).toEqual([]);
  });

  it("leaves no page with code untested: the README's quick starts and each guide's steps are compiled or run", () => {
    for (const { file, shipped } of documentationFiles()) {
      const own = blocks.filter((block) => block.file === file);
      if (!shipped || own.length === 0) continue;
      expect(own.filter((block) => block.tag?.kind !== "no-run").length, `${file} has code blocks but none the suite compiles or runs`).toBeGreaterThan(0);
    }
  });
});

describe("typecheck blocks compile against the packed package, as strictly as a strict consumer compiles", () => {
  let problems: Map<string, string>;
  beforeAll(async () => {
    for (const block of typecheckBlocks) await writeFile(blockFile(project.dir, block), block.code);
    problems = compileBlocks(project.dir, typecheckBlocks);
  }, 120_000);

  it("has nothing wrong outside the blocks (the options, the package's declarations)", () => {
    expect(problems.get("(outside the blocks)") ?? "").toBe("");
  });

  for (const block of typecheckBlocks) {
    it(`${where(block)}`, () => {
      expect(problems.get(where(block)) ?? "").toBe("");
    });
  }
});

describe("run blocks run in a fresh project with the package and msw installed, as the guides say", () => {
  it("writes each file a guide's commands use where the guide names it", async () => {
    for (const block of fileBlocks) expect(await readFile(path.join(project.dir, (block.tag as { file: string }).file), "utf8"), where(block)).toBe(block.code);
  });

  for (const block of commandBlocks) {
    const same = blocks.filter((other) => other !== block && other.code === block.code).map(where);
    it(`${where(block)}${same.length > 0 ? ` (also ${same.join(", ")})` : ""}`, () => runs.get(block), RUN_TIMEOUT_MS + 10_000);
  }
});
