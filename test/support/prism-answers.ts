// Prints what Prism invents, seeded, for every operation and declared status of the contract, and which faker locales
// it loaded: with the mock's loader (`english`, src/mock/prism.ts) or Prism required as it is (`plain`). Run in a
// process of its own by test/mock-http/prism-in-process.test.ts, since Node's require cache keeps whichever loaded first.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { findPrism, loadPrism, type PrismHttp } from "../../src/mock/prism.ts";
import { readBundle, repoRoot } from "../../scripts/build/lib/paths.ts";

const entry = findPrism([path.join(repoRoot, "package.json")])!;
const prismHttp = process.argv[2] === "english" ? loadPrism(entry).prismHttp : (createRequire(entry)(entry) as PrismHttp);
const operations = (await prismHttp.getHttpOperationsFromSpec(await readBundle())) as { method: string; path: string; responses: { code: string }[] }[];
const ignore = () => undefined;
const logger = { child: () => logger, trace: ignore, debug: ignore, info: ignore, success: ignore, warn: ignore, error: ignore, fatal: ignore };
const config = { isProxy: false, validateRequest: false, checkSecurity: false, validateResponse: false, errors: false };
const prism = prismHttp.createInstance({ ...config, mock: { dynamic: true } }, { logger });
const answers: unknown[] = [];
for (const operation of operations) {
  for (const { code } of operation.responses) {
    const input = { method: operation.method, url: { path: operation.path.replace(/\{[^}]+\}/g, "x"), query: {} }, headers: {} };
    const result = await prism.request(input, operations, { ...config, mock: { dynamic: true, code: Number(code), seed: `${operation.path} ${code}` } })();
    answers.push(result._tag === "Right" ? [result.right.output.statusCode, result.right.output.body] : result.left.name);
  }
}
const locales = Object.keys(createRequire(entry).cache).filter((file) => /@faker-js[\\/]faker[\\/]dist[\\/]cjs[\\/]locales[\\/]/.test(file));
const localeNames = [...new Set(locales.map((file) => /locales[\\/]([^\\/]+)/.exec(file)![1]))].sort();
console.log(JSON.stringify({ answers: answers.length, hash: createHash("sha256").update(JSON.stringify(answers)).digest("hex"), locales: localeNames }));
