// verify against servers that misbehave on purpose (test/support/hostile-servers.ts), run in-process: every run ends
// with its exit status and its reports written, a failed check naming what the server did, and no request reaching
// another origin, neither verify's own nor the workflows' (respect's, through verify's proxy).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import type { Report } from "../../src/verify/report/report.ts";
import { runVerify } from "../../src/verify/run.ts";
import { senderAndRedactor } from "../support/verify-sender.ts";
import { runWorkflows } from "../../src/verify/workflows/workflow-pass.ts";
import { toolEnv } from "../../scripts/build/lib/tools.ts";
import { startHostile, startRecorder, type HostileKind } from "../support/hostile-servers.ts";

let recorder: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  recorder = await startRecorder();
});
afterAll(() => recorder.close());

/** What the first failed check must say about each kind of server. */
const NAMED: Record<HostileKind, RegExp> = {
  "never-answers": /no answer within 0\.3 s/,
  "headers-then-silence": /no answer within 0\.3 s/,
  // The size it declares, named: the body is never read.
  "huge-length-trickled": /answered 200 declaring Content-Length 10000000000 bytes, over verify's limit of 1048576/,
  "endless-chunked": /a body over 1048576 bytes, verify's limit/,
  "malformed-json": /the body is not JSON/,
  "invalid-utf8": /a body that is not UTF-8/,
  "gzip-bomb": /a body over 1048576 bytes, verify's limit/,
  "unknown-encoding": /Content-Encoding zstd, which fetch does not undo/,
  "redirect-loop": /answered 302, which it does not declare/,
  "redirect-elsewhere": /answered 307, which it does not declare/,
  "cut-mid-body": /connection failed: UND_ERR_SOCKET 127\.0\.0\.1:\d+ \(other side closed\)/,
  "huge-headers": /connection failed: UND_ERR_HEADERS_OVERFLOW/,
  "byte-a-second": /no answer within 0\.3 s/,
  "http10-no-length": /does not declare|must|is required/,
  "retry-after-a-day": /answered 429/,
};

/** Far beyond a run's few seconds, so that only a run that never ends reaches it. */
const HANG_GUARD_MS = 60_000;

describe.concurrent("verify against a hostile server", () => {
  for (const [kind, says] of Object.entries(NAMED) as [HostileKind, RegExp][]) {
    it(
      `${kind}: exits 1 with its reports written and a failed check naming it`,
      async () => {
        const server = await startHostile(kind, { elsewhere: recorder.origin, byteIntervalMs: 1000 });
        const reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-hostile-"));
        try {
          const lines: string[] = [];
          // A short deadline where the deadline is what must fire; elsewhere one a loaded machine never meets, so the
          // size limit or the answer itself is what the check names.
          const timeoutMs = says.source.includes("no answer") ? 300 : 10_000;
          const code = await runVerify(
            [
              "--base-url",
              server.url,
              "--skip-workflows",
              "--cases",
              "0",
              "--timeout-ms",
              String(timeoutMs),
              "--max-response-bytes",
              String(1024 * 1024),
              "--report-dir",
              reportDir,
            ],
            { log: (line) => lines.push(line), error: (line) => lines.push(line) },
          );
          expect(code, lines.join("\n")).toBe(1);
          const report = JSON.parse(readFileSync(path.join(reportDir, "verify-report.json"), "utf8")) as Report;
          expect(existsSync(path.join(reportDir, "verify-junit.xml"))).toBe(true);
          const failed = report.checks.filter((check) => check.status === "failed");
          expect(failed.length).toBeGreaterThan(0);
          expect(
            failed.some((check) => says.test(check.detail ?? "")),
            failed
              .slice(0, 3)
              .map((check) => check.detail)
              .join("\n"),
          ).toBe(true);
          expect(recorder.heads).toEqual([]);
        } finally {
          rmSync(reportDir, { recursive: true, force: true });
          await server.close();
        }
        // The guard against a hang: a run that never ends fails here, one that is merely slow on a busy machine passes
        // (how fast verify is lives in `npm run bench -- --only verify`).
      },
      HANG_GUARD_MS,
    );
  }
});

describe("the workflows against a redirect to another origin", () => {
  it("fail their step naming the refused redirect, and respect's request with the API key never reaches the other origin", async () => {
    const server = await startHostile("redirect-elsewhere", { elsewhere: recorder.origin });
    try {
      const checks = await runWorkflows({
        baseUrl: server.url,
        apiKey: "sk_test_hostile_workflows_0001",
        managementKey: undefined,
        mock: false,
        allowWrites: true,
        ...senderAndRedactor(),
        dir: path.join(repoRoot, "test/fixtures/workflows-redirect"),
        log: () => undefined,
      });
      const step = checks.find((check) => check.name === "create-user / create");
      expect(step?.status).toBe("failed");
      expect(step?.detail).toMatch(/verify_redirect_refused/);
      expect(server.heads.some((head) => head.includes("sk_test_hostile_workflows_0001"))).toBe(true);
      expect(recorder.heads).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe.runIf(process.platform === "linux")("verify's memory against a gigabyte gzip bomb", () => {
  it("stops at its default 16 MiB, writes its report and stays under 320 MB", async () => {
    const server = await startHostile("gzip-bomb");
    const reportDir = mkdtempSync(path.join(os.tmpdir(), "verify-bomb-"));
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "test/support/verify-memory.ts", "--base-url", server.url, "--skip-workflows", "--report-dir", reportDir],
        {
          cwd: repoRoot,
          env: toolEnv,
          timeout: 60_000,
        },
      );
      const { code, lines, peakMb } = JSON.parse(stdout.trim().split("\n").at(-1)!) as { code: number; lines: string[]; peakMb: number };
      expect(code).toBe(1);
      expect(lines.join("\n")).toMatch(/a body over 16777216 bytes, verify's limit/);
      expect(existsSync(path.join(reportDir, "verify-report.json"))).toBe(true);
      expect(peakMb).toBeLessThan(320);
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
      await server.close();
    }
  }, 60_000);
});
