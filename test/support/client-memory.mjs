// Run by plain Node: calls each address once with the packaged client's defaults (no maxResponseBytes given) and prints
// what each call threw and the process's peak resident memory (VmHWM), for test/client/hostile-memory.test.ts.
import { readFileSync } from "node:fs";
import { createClient } from "../../generated/client/index.js";

const outcomes = [];
for (const url of process.argv.slice(2)) {
  const api = createClient({ baseUrl: url, apiKey: "sk_test_memory", timeoutMs: 20_000 });
  outcomes.push(
    await api.GET("/v3/lab_tests/labs").then(
      (answer) => `answered ${answer.status}`,
      (error) => `${error.name}: ${error.message}`,
    ),
  );
}
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]);
console.log(JSON.stringify({ outcomes, peakMb: peakKb / 1024 }));
