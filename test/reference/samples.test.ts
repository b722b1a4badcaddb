// Every request sample of the reference works: each curl sample, run by curl against the mock with the base URL swapped,
// gets a 2xx its operation declares. Each client sample type-checks against the package's own types in typecheck.test.ts,
// in the program that checks the repository.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../../src/contract/operations.ts";
import { readBundle } from "../../scripts/build/lib/paths.ts";
import { serviceBaseUrl, type CodeSample } from "../../scripts/build/reference/code-samples.ts";
import { referenceDocument } from "../../scripts/build/reference/document.ts";
import { OPERATIONS_AT_LEAST } from "../support/contract.ts";
import { mockUrl } from "../support/mock.ts";

const run = promisify(execFile);
let operations: { operationId: string; statuses: string[]; samples: CodeSample[] }[];
let baseUrl: string;

beforeAll(async () => {
  const document = referenceDocument(await readBundle());
  baseUrl = serviceBaseUrl(document);
  operations = listOperations(document).map((op) => ({
    operationId: op.operationId,
    statuses: Object.keys(op.operation.responses as object),
    samples: op.operation["x-codeSamples"] as CodeSample[],
  }));
});

const sample = (samples: CodeSample[], label: string) => samples.find((s) => s.label === label)!.source;

describe("request samples", () => {
  it("every operation has a curl and a client sample, with placeholder credentials only", () => {
    expect(operations.length).toBeGreaterThanOrEqual(OPERATIONS_AT_LEAST);
    for (const { operationId, samples } of operations) {
      expect(
        samples?.map((s) => s.label),
        operationId,
      ).toEqual(["curl", "Client"]);
      for (const { source } of samples) expect(source, operationId).toMatch(/YOUR_(TEAM_API_KEY|LINK_TOKEN|MANAGEMENT_KEY)/);
    }
  });

  it("every curl sample, run against the mock, gets a 2xx its operation declares", async () => {
    const failures: string[] = [];
    await Promise.all(
      operations.map(async ({ operationId, statuses, samples }) => {
        const command = `${sample(samples, "curl").replaceAll(baseUrl, mockUrl)} -s -o /dev/null -w '%{http_code}'`;
        const { stdout } = await run("bash", ["-c", command]);
        if (!/^2\d\d$/.test(stdout) || !statuses.includes(stdout)) failures.push(`${operationId}: ${stdout}`);
      }),
    );
    expect(failures).toEqual([]);
  });
});
