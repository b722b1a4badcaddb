// The client's memory against answers built to exhaust it (a gzip bomb inflating to a gigabyte, an endless body), with
// its default limit, in a Node process of its own whose peak resident memory is read from /proc.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { startHostile, type HostileServer } from "../support/hostile-servers.ts";

/** The bound for the client: about 190 MB resident, where reading the bomb whole took 2.15 GB. */
const PEAK_MB = 190;

let servers: HostileServer[];
beforeAll(async () => {
  servers = await Promise.all((["gzip-bomb", "endless-chunked"] as const).map((kind) => startHostile(kind)));
});
afterAll(() => Promise.all(servers.map((server) => server.close())));

describe.runIf(process.platform === "linux")("the client's memory against hostile answers", () => {
  it(`stops at 16 MiB by default, with a peak under ${PEAK_MB} MB`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(repoRoot, "test/support/client-memory.mjs"), ...servers.map((s) => s.url)], {
      // A hang guard only, under the test's own 60 s: on a busy machine the run takes seconds.
      timeout: 55_000,
    });
    const { outcomes, peakMb } = JSON.parse(stdout) as { outcomes: string[]; peakMb: number };
    expect(outcomes).toEqual(servers.map(() => "ApiResponseTooLargeError: GET /v3/lab_tests/labs answered 200 with a body over maxResponseBytes, 16777216"));
    expect(peakMb).toBeLessThan(PEAK_MB);
  });
});
