// Lists every kind of fault the robustness suite's bad requests find in the mock, each with its shortest request: `npx tsx test/robustness/survey.ts [runs per property] [seed]`.
// The suite stops at a property's first failure; this keeps going, for whoever fixes the server.
import fc from "fast-check";
import { describeRequest, serialize } from "../support/raw-http.ts";
import { ensureHealthy, faultsOf, HOSTILE, PROPERTIES, startMockUnderTest, stopMockUnderTest, type Bad } from "./bad-requests.ts";

const runs = Number(process.argv[2] ?? 300);
const seed = Number(process.argv[3] ?? 1);

interface Found {
  property: string;
  what: string;
  problem: string;
  bytes: number;
  request: string;
  count: number;
}

/** A fault's kind: its message without the parts that vary from request to request. */
function kind(problem: string): string {
  return problem
    .replace(/after \d+ ms/g, "after N ms")
    .replace(/(: ).*$/s, "")
    .slice(0, 160);
}

const found = new Map<string, Found>();
await startMockUnderTest();
try {
  const sets: [string, Bad[]][] = [
    ...PROPERTIES.map(
      ({ name, arbitrary, examples }, index) =>
        [name, [...examples(seed + index), ...fc.sample(arbitrary, { numRuns: runs, seed: seed + index })]] as [string, Bad[]],
    ),
    ["the hostile inputs found before", HOSTILE],
  ];
  for (const [property, bads] of sets) {
    for (const bad of bads) {
      const problems = await faultsOf(bad);
      for (const problem of problems) {
        // The kind of request without its varying value: "content-type …", "Expect …", "property x broken".
        const key = `${property}|${bad.what.replace(/(["=:[]|charset).*$/s, "").replace(/\d+/g, "N")}|${kind(problem)}`;
        const bytes = Buffer.isBuffer(bad.request) ? bad.request.length : serialize(bad.request, "h").length;
        const seen = found.get(key);
        if (seen === undefined || bytes < seen.bytes)
          found.set(key, {
            property,
            what: bad.what,
            problem: problem.slice(0, 400),
            bytes,
            request: describeRequest(bad.request),
            count: (seen?.count ?? 0) + 1,
          });
        else seen.count++;
      }
      if (problems.length > 0) await ensureHealthy();
    }
  }
} finally {
  await stopMockUnderTest();
}
for (const f of found.values()) {
  console.log(`\n## ${f.property}\n- ${f.what} (${f.count}×): ${f.problem}\n\`\`\`\n${f.request}\n\`\`\``);
}
console.log(`\n${found.size} kinds of fault`);
