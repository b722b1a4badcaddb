// Load on the suite's mock: 20,000 valid requests over 50 connections, round robin across every operation, with no error, no non-2xx and no 5xx.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { operations } from "../support/contract.ts";
import { mockUrl } from "../support/mock.ts";
import { validRequest } from "../support/raw-http.ts";

const REQUESTS = 20_000;
const CONNECTIONS = 50;

interface AutocannonResult {
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  statusCodeStats: Record<string, { count: number }>;
  "5xx": number;
  duration: number;
}

interface LoadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  onResponse(status: number): void;
}

// Loaded through require with the few types this test uses, so it compiles whether or not @types/autocannon is installed.
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  amount: number;
  timeout: number;
  requests: LoadRequest[];
}) => Promise<AutocannonResult>;

describe("load", () => {
  it(`answers ${REQUESTS} valid requests over ${CONNECTIONS} connections, across all ${operations.length} operations, every one with a 2xx`, async () => {
    // What each operation answered that was not a 2xx, to name it in the failure.
    const wrong = new Map<string, Map<number, number>>();
    const requests = operations.map((op): LoadRequest => {
      const valid = validRequest(op);
      return {
        method: valid.method,
        path: valid.target,
        // Keep-alive across the run: Connection: close would measure connection set-up, not the mock.
        headers: Object.fromEntries(valid.headers.filter(([name]) => name.toLowerCase() !== "connection")),
        ...(valid.body === undefined ? {} : { body: valid.body.toString("utf8") }),
        onResponse(status: number) {
          if (status >= 200 && status < 300) return;
          const byStatus = wrong.get(op.operationId) ?? new Map<number, number>();
          byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
          wrong.set(op.operationId, byStatus);
        },
      };
    });
    const result = await autocannon({ url: mockUrl, connections: CONNECTIONS, amount: REQUESTS, timeout: 30, requests });
    const summary = {
      // Answers counted by status: every request got one, whatever it was.
      answered: Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + count, 0),
      errors: result.errors,
      timeouts: result.timeouts,
      resets: result.resets,
      non2xx: result.non2xx,
      "5xx": result["5xx"],
      statuses: result.statusCodeStats,
      wrong: Object.fromEntries([...wrong].map(([id, byStatus]) => [id, Object.fromEntries(byStatus)])),
      seconds: result.duration,
    };
    console.log(`[load] ${JSON.stringify(summary)}`);
    expect(summary.errors, JSON.stringify(summary)).toBe(0);
    expect(summary.timeouts, JSON.stringify(summary)).toBe(0);
    expect(summary.non2xx, JSON.stringify(summary)).toBe(0);
    expect(summary["5xx"], JSON.stringify(summary)).toBe(0);
    expect(summary.answered, JSON.stringify(summary)).toBeGreaterThanOrEqual(REQUESTS);
  }, 240_000);
});
