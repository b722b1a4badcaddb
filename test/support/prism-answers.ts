// Prints what Prism invents, seeded, for every operation and declared status of the contract, and which faker locales
// it loaded: first with the mock's loader (`english`, src/mock/prism.ts), then with Prism required as it is (`plain`),
// in one process of its own, run by test/mock-http/prism-in-process.test.ts. Between the two, every module the first
// load added to Node's require cache is dropped from it, so the second loads Prism and its faker anew, as a process of
// its own would (the cache keeps whichever loaded first).
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { findPrism, loadPrism, type PrismHttp } from "../../src/mock/prism.ts";
import { readBundle, repoRoot } from "../../scripts/build/lib/paths.ts";

const entry = findPrism([path.join(repoRoot, "package.json")])!;
const cache = createRequire(entry).cache;
const ignore = () => undefined;
const logger = { child: () => logger, trace: ignore, debug: ignore, info: ignore, success: ignore, warn: ignore, error: ignore, fatal: ignore };
const config = { isProxy: false, validateRequest: false, checkSecurity: false, validateResponse: false, errors: false };

async function invent(prismHttp: PrismHttp): Promise<{ answers: number; hash: string; locales: string[] }> {
  const operations = (await prismHttp.getHttpOperationsFromSpec(await readBundle())) as { method: string; path: string; responses: { code: string }[] }[];
  const prism = prismHttp.createInstance({ ...config, mock: { dynamic: true } }, { logger });
  const answers: unknown[] = [];
  for (const operation of operations) {
    for (const { code } of operation.responses) {
      const input = { method: operation.method, url: { path: operation.path.replace(/\{[^}]+\}/g, "x"), query: {} }, headers: {} };
      const result = await prism.request(input, operations, { ...config, mock: { dynamic: true, code: Number(code), seed: `${operation.path} ${code}` } })();
      answers.push(result._tag === "Right" ? [result.right.output.statusCode, result.right.output.body] : result.left.name);
    }
  }
  const locales = Object.keys(cache).filter((file) => /@faker-js[\\/]faker[\\/]dist[\\/]cjs[\\/]locales[\\/]/.test(file));
  const localeNames = [...new Set(locales.map((file) => /locales[\\/]([^\\/]+)/.exec(file)![1]!))].sort();
  return { answers: answers.length, hash: createHash("sha256").update(JSON.stringify(answers)).digest("hex"), locales: localeNames };
}

const before = new Set(Object.keys(cache));
const english = await invent(loadPrism(entry).prismHttp);
for (const file of Object.keys(cache)) if (!before.has(file)) delete cache[file];
const plain = await invent(createRequire(entry)(entry) as PrismHttp);
console.log(JSON.stringify({ english, plain }));
