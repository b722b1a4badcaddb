// Follows openapi/README.md's "Add an endpoint" in a temporary copy of the package: a throwaway area folder
// (test/fixtures/new-endpoint/widgets) and its lines in openapi.yaml, nothing else; the build, lint and the generic
// tests must then accept the new operations and reach them.
import { execFile } from "node:child_process";
import { cp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/build/lib/paths.ts";
import { freshCopy } from "./support/fresh-copy.ts";

const run = promisify(execFile);

/** The generic suites: each goes over every operation, or every file, of the contract it finds. */
const GENERIC_TESTS = [
  "test/traceability.test.ts",
  "test/structure.test.ts",
  "test/examples.test.ts",
  "test/mock-http/every-branch.test.ts",
  "test/mock-http/refusals.test.ts",
];

/**
 * Leaves out of the copy's run the one generic test that reaches no operation of the area: the 408 for a body slower
 * than the mock's request timeout, always on createLinkToken, which waits the whole 5 s timeout. The outer suite runs
 * it on the same mock code and the same createLinkToken; the widgets cannot change its answer.
 */
const NOT_PER_OPERATION = "^(?!.*once the request timeout passes)";

interface VitestReport {
  success: boolean;
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

let copy: string;
let built: { code: number; output: string };
let report: VitestReport;

beforeAll(async () => {
  copy = await freshCopy();
  await cp(path.join(repoRoot, "test/fixtures/new-endpoint/widgets"), path.join(copy, "openapi/widgets"), { recursive: true });
  const root = path.join(copy, "openapi/openapi.yaml");
  const lines = "  /v2/widgets:\n    $ref: widgets/paths/v2_widgets.yaml\n  /v2/widgets/{widget_id}:\n    $ref: widgets/paths/v2_widgets_{widget_id}.yaml\n";
  await writeFile(root, (await readFile(root, "utf8")).replace(/^paths:\n/m, `paths:\n${lines}`));
  // What npm start runs when the inputs changed: lint the sources, build, lint the bundle, failing in one line.
  built = await run(process.execPath, ["--import", "tsx", "scripts/commands/rebuild.ts"], { cwd: copy, maxBuffer: 1 << 24 })
    .then(({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }))
    .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout}${error.stderr}` }));
  if (built.code !== 0) return;
  const out = path.join(copy, "vitest-report.json");
  // The build just wrote generated/, so the freshness test would only repeat it; none of these compares with bare Prism.
  await run(
    process.execPath,
    [
      "node_modules/vitest/vitest.mjs",
      "run",
      ...GENERIC_TESTS,
      `--testNamePattern=${NOT_PER_OPERATION}`,
      "--maxWorkers=1",
      "--reporter=json",
      `--outputFile=${out}`,
    ],
    {
      cwd: copy,
      maxBuffer: 1 << 26,
    },
  ).catch(() => undefined);
  report = JSON.parse(await readFile(out, "utf8")) as VitestReport;
}, 240_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe("adding an endpoint touches one area folder and its lines in openapi.yaml", () => {
  it("builds and lints", () => {
    expect(built.code, built.output).toBe(0);
  });

  it("traces the new files in the generated table", async () => {
    const table = await readFile(path.join(copy, "generated/traceability.md"), "utf8");
    expect(table).toContain(
      "[`widgets/paths/v2_widgets_{widget_id}.yaml`](../openapi/widgets/paths/v2_widgets_%7Bwidget_id%7D.yaml) (`getWidget`; provisional)",
    );
    expect(table).toMatch(/\| 4\.14 [^\n]*`widgets\/schemas\/WidgetShape\.yaml`/);
  });

  it("puts the new operations in the client's table", async () => {
    const table = await readFile(path.join(copy, "generated/operations.ts"), "utf8");
    expect(table).toContain("getWidget");
    expect(table).toContain("createWidget");
  });

  it("passes the generic tests, which reach the new operations through their valid calls and branches", () => {
    const failed = report.testResults.flatMap((file) =>
      file.assertionResults.filter((test) => test.status === "failed").map((test) => `${path.basename(file.name)}: ${test.fullName}`),
    );
    expect(failed).toEqual([]);
    expect(report.success).toBe(true);
    const passed = report.testResults.flatMap((file) => file.assertionResults.filter((test) => test.status === "passed").map((test) => test.fullName));
    for (const expected of [
      "GET /v2/widgets/{widget_id} (getWidget) answers its own valid call (x-svc-valid-call) with a declared success, without Prefer",
      "POST /v2/widgets (createWidget) takes branch square_refused when the request meets it, without Prefer",
    ]) {
      expect(passed, expected).toContain(expected);
    }
    // Every declared answer, the transport-level ones the bundle added included, reached with Prefer.
    expect(passed.filter((name) => /^POST \/v2\/widgets \(createWidget\) answers (401|413|415|422|500) with example/.test(name)).length).toBeGreaterThanOrEqual(
      5,
    );
    expect(passed.filter((name) => name.includes("Widget")).length).toBeGreaterThan(30);
  });
});
