// The scripts, tests and generated client type-check, including test/types/, whose @ts-expect-error lines fail the build if the types loosen;
// and every client sample of the reference type-checks against the package's own types. One program checks both
// (test/support/type-check.ts), each test reading its own files' problems.
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../src/contract/operations.ts";
import { readBundle, repoRoot } from "../scripts/build/lib/paths.ts";
import type { CodeSample } from "../scripts/build/reference/code-samples.ts";
import { referenceDocument } from "../scripts/build/reference/document.ts";
import { OPERATIONS_AT_LEAST } from "./support/contract.ts";
import { typeCheck, type TypeCheck } from "./support/type-check.ts";

let checked: TypeCheck;
let samples: string[];
let missingCredential: string;

beforeAll(async () => {
  // Inside the repository, so the package's own name resolves to generated/ as it does for an installed package.
  const dir = path.join(repoRoot, "test-output", "samples");
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  samples = [];
  for (const op of listOperations(referenceDocument(await readBundle()))) {
    const file = path.join(dir, `${op.operationId}.ts`);
    const source = (op.operation["x-codeSamples"] as CodeSample[]).find((sample) => sample.label === "Client")!.source;
    await writeFile(file, `${source}\nexport {};\n`);
    samples.push(file);
  }
  // A call its client cannot make: tsc's message must name the option that fixes it, not `never`.
  missingCredential = path.join(dir, "missing-credential.ts");
  await writeFile(
    missingCredential,
    [
      'import { createClient } from "@svc/health-api-contract";',
      'const api = createClient({ baseUrl: "https://api.svc.example", linkToken: "lt_test_not_a_real_token" });',
      'export const providers = api.GET("/v2/providers");',
      "",
    ].join("\n"),
  );
  checked = typeCheck([...samples, missingCredential]);
});

describe("TypeScript", () => {
  it("type-checks the package as tsc -p tsconfig.json does", () => {
    expect(checked.repository).toBe("");
  });

  it("type-checks every client sample of the reference against the package's types", () => {
    expect(samples.length).toBeGreaterThanOrEqual(OPERATIONS_AT_LEAST);
    expect(
      [...checked.extra]
        .filter(([file, problems]) => problems !== "" && file !== missingCredential)
        .map(([file, problems]) => `${path.basename(file)}: ${problems}`),
    ).toEqual([]);
  });

  it("refuses a call its client holds no credential for with a message naming the option (apiKey), not never", () => {
    const problems = checked.extra.get(missingCredential)!;
    expect(problems).toContain("error TS2345");
    expect(problems).toContain('"/v2/providers needs the apiKey option: give it to the client, or add it with .withCredentials({ apiKey })"');
    expect(problems).not.toContain("'never'");
  });
});
