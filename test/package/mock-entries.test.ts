// The mock's library entries as a user installs them: the packed tarball and msw (the optional peer, at the release the
// repository tests) in a fresh project. One Node process (test/fixtures/mock-entries/node-app.ts, types stripped) loads
// both entries by import and by require, uses `@svc/health-api-contract/mock` with the client's fetch (answers, state,
// journal, seeded conditions, a timeout) and `/mock/msw` under msw/node with the global fetch; the same application
// type-checks under nodenext, and a consumer of every entry of the package under node10; and a page served from
// 127.0.0.1 runs the MSW handlers in Chromium through msw's service worker, with every request that would leave the
// browser blocked and recorded.
import { copyFile, mkdir, readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import ts from "typescript";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenOnLoopback, type Listening } from "../../src/net/loopback-server.ts";
import { validCall } from "../../src/contract/valid-calls.ts";
import { binPath } from "../../scripts/build/lib/tools.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { BROWSER_INSTALL, findBrowser, launchBrowser } from "../support/browser.ts";
import { assertMatchesContract, contract, exampleNames, operation, responseExample } from "../support/contract.ts";
import { installPacked, run, type PackedProject } from "../support/packed.ts";
import { STRICT_CONSUMER } from "../support/type-check.ts";

const FIXTURES = path.join(repoRoot, "test/fixtures/mock-entries");
/**
 * The Node application's hang guard. It takes a second alone, and was seen taking 30 s beside the reference's browser
 * test (both Chromiums on two cores): a bound near its time fails a run that is merely slow.
 */
const HANG_GUARD_MS = 120_000;
const API_KEY = "sk_test_mock_entries_0001";
const insurance = validCall(contract, operation("createInsurance")).body as Record<string, unknown>;
const executable = findBrowser();
if (executable === undefined)
  console.warn(`test/package/mock-entries.test.ts: the browser case skipped: no Chromium found; install one with: ${BROWSER_INSTALL}`);

const { devDependencies } = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const MSW = `msw@${devDependencies.msw}`;

let project: PackedProject;
/** What the Node application printed: started in beforeAll, read by the tests, so it runs while the types are checked. */
let nodeRun: Promise<Record<string, any>>;
/** The browser and the page's server, made while the Node cases run (the type check keeps this process busy). */
let browserSite: Promise<{ browser: Browser; site: Listening }> | undefined;

/** Unobserved until a test reads it: a failure is that test's, not an unhandled rejection. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

beforeAll(async () => {
  const launching = executable === undefined ? undefined : later(launchBrowser(executable));
  project = await installPacked({ peer: MSW });
  await Promise.all(
    ["node-app.ts", "browser-app.ts", "every-entry-node10.ts"].map((file) => copyFile(path.join(FIXTURES, file), path.join(project.dir, file))),
  );
  // Type annotations stripped, nothing bundled: plain Node loads the package and msw as installed.
  await run(binPath("esbuild"), ["node-app.ts", "--format=esm", "--outfile=node-app.mjs", "--log-level=warning"], { cwd: project.dir });
  const env = { ...process.env, SVC_INPUT: JSON.stringify({ apiKey: API_KEY, insurance }) };
  nodeRun = later(
    run(process.execPath, ["node-app.mjs"], { cwd: project.dir, env, timeout: HANG_GUARD_MS }).then(
      ({ stdout }) => JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, any>,
    ),
  );
  if (launching !== undefined) browserSite = later(Promise.all([launching, serveBrowserApp()]).then(([browser, site]) => ({ browser, site })));
}, 300_000);

afterAll(async () => {
  const opened = await browserSite?.catch(() => undefined);
  await opened?.browser.close();
  await opened?.site.close();
  await project?.remove();
});

/** The page, msw's worker and the application bundled for the browser, served from 127.0.0.1 (a secure context). */
async function serveBrowserApp(): Promise<Listening> {
  const root = path.join(project.dir, "public");
  await mkdir(root);
  // What `npx msw init public/` copies, and the application bundled for the browser from the project's node_modules.
  await copyFile(path.join(project.dir, "node_modules/msw/lib/mockServiceWorker.js"), path.join(root, "mockServiceWorker.js"));
  await run(binPath("esbuild"), ["browser-app.ts", "--bundle", "--platform=browser", "--format=esm", "--outfile=public/app.js", "--log-level=warning"], {
    cwd: project.dir,
  });
  const files: Record<string, [string, string]> = {
    "/": ["text/html", '<!doctype html><meta charset="utf-8"><title>app</title><pre id="results"></pre><script type="module" src="/app.js"></script>'],
    "/app.js": ["text/javascript", await readFile(path.join(root, "app.js"), "utf8")],
    "/mockServiceWorker.js": ["text/javascript", await readFile(path.join(root, "mockServiceWorker.js"), "utf8")],
  };
  return listenOnLoopback(
    http.createServer((request, response) => {
      const file = files[new URL(request.url ?? "/", "http://x").pathname];
      response.writeHead(file === undefined ? 404 : 200, { "content-type": file?.[0] ?? "text/plain" }).end(file?.[1] ?? "");
    }),
  );
}

function first(operationId: string, status: number): unknown {
  return responseExample(operationId, status, exampleNames(operationId, status)[0]!);
}

/** Every string the insurance body holds: each is a value the contract marks as health data. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** What the Node application saw in a part (`createMock`, `msw`, `require`), failing with the part's error when it threw. */
async function nodePart(name: string): Promise<Record<string, any>> {
  const seen = await nodeRun;
  expect(seen[`${name}Failed`], `the application's ${name} part`).toBeUndefined();
  return seen;
}

/** A 422 refusal of `client_user_id: 42`, as the contract declares createUser's 422. */
function expectRefusal(answer: { status: number; body: unknown }): void {
  expect(answer.status).toBe(422);
  assertMatchesContract("createUser", 422, answer.body);
  expect(answer.body).toMatchObject({ code: "invalid_request", details: [{ location: "body", field: "/client_user_id" }] });
}

/** What tsc reports of a program's options and globals and of the files `checked`, as tsc prints it ("" for nothing). */
function problems(program: ts.Program, checked: ts.SourceFile[]): string {
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((source) => program.getSemanticDiagnostics(source)),
  ];
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => project.dir, getNewLine: () => "\n" });
}

describe("@svc/health-api-contract/mock and /mock/msw, installed in a fresh project with msw", () => {
  it("type-checks an application using both entries, msw/node and msw/browser under nodenext", () => {
    const { options, errors } = ts.convertCompilerOptionsFromJson(
      { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["es2022", "dom", "dom.iterable"], ...STRICT_CONSUMER },
      project.dir,
    );
    expect(errors).toEqual([]);
    const files = ["node-app.ts", "browser-app.ts"].map((file) => path.join(project.dir, file));
    const program = ts.createProgram({ rootNames: files, options });
    const ours = program.getSourceFiles().filter((source) => source.fileName.includes("/node_modules/@svc/health-api-contract/generated/mock/"));
    expect(ours.map((source) => path.basename(source.fileName))).toEqual(expect.arrayContaining(["index.d.ts", "msw.d.ts", "public-types.d.ts"]));
    // The applications and the mock entries' declarations are checked; TypeScript's, Node's and msw's own are read, not
    // checked (what they hold is not this package's).
    const checked = [...files.map((file) => program.getSourceFile(file)!), ...ours];
    expect(problems(program, checked)).toBe("");
  });

  it("type-checks a consumer of every entry of the package under node10 resolution (moduleResolution node), which reads no exports", () => {
    const file = path.join(project.dir, "every-entry-node10.ts");
    const { options, errors } = ts.convertCompilerOptionsFromJson(
      // A Node project (older Jest, webpack for Node): no DOM library, Node's types.
      { target: "ES2022", module: "CommonJS", moduleResolution: "node", lib: ["es2022"], ...STRICT_CONSUMER },
      project.dir,
    );
    expect(errors).toEqual([]);
    const program = ts.createProgram({ rootNames: [file], options });
    const packageDir = path.join(project.dir, "node_modules/@svc/health-api-contract");
    const ours = program.getSourceFiles().filter((source) => source.fileName.startsWith(`${packageDir}/`));
    // Each entry resolved to its declarations (package.json's typesVersions), not to nothing.
    expect(ours.map((source) => path.relative(packageDir, source.fileName))).toEqual(
      expect.arrayContaining(
        ["client", "management", "types", "webhooks", "mock"].map((entry) => `generated/${entry}/index.d.ts`).concat("generated/mock/msw.d.ts"),
      ),
    );
    // The consumer and the entries' own declarations are checked; the contract's schema (the same text under every
    // resolution, checked by the consumer test under three), TypeScript's, Node's and msw's are read, not checked.
    const checked = [program.getSourceFile(file)!, ...ours.filter((source) => !/\/schema\.d\.c?ts$/.test(source.fileName))];
    expect(problems(program, checked)).toBe("");
  });

  it("loads both entries by import and by require, with the same names", async () => {
    const { entries } = await nodePart("require");
    expect(entries.imported).toEqual({ mock: ["createMock"], msw: ["createMockHandlers"] });
    expect(entries.required).toEqual(entries.imported);
    expect(entries.requiredAnswer).toBe(200);
  });

  it("createMock answers the client's fetch from the contract at an address no network has, and never calls the global fetch", async () => {
    const seen = await nodePart("createMock");
    expect(new URL(seen.url).hostname).toMatch(/\.invalid$/);
    expect(seen.labs).toEqual({ status: 200, body: first("listLabs", 200) });
    expect(seen.token).toEqual({ status: 200, body: first("createLinkToken", 200) });
    expectRefusal(seen.bad);
    expect(seen.globalCalls).toEqual([]);
  });

  it("createMock({ stateful: true }) keeps a created user and what the application records for it", async () => {
    const { stateful } = await nodePart("createMock");
    expect(stateful.created).toBe(200);
    expect(stateful.again).toMatchObject({ status: 400, body: { code: "user_already_exists", user_id: stateful.userId } });
    expect(stateful.latest).toEqual({ status: 200, memberId: insurance.member_id });
  });

  it("the journal holds the one link token the application created, for its user, the key masked and health data removed", async () => {
    const { journal, stateful } = await nodePart("createMock");
    expect(journal.linkTokens).toHaveLength(1);
    const [entry] = journal.linkTokens;
    expect(entry).toMatchObject({
      operation_id: "createLinkToken",
      method: "POST",
      path: "/v2/link/token",
      status: 200,
      body: { user_id: stateful.userId, provider: "oura" },
    });
    expect(entry.headers["x-svc-api-key"]).toBe(`[credential …${API_KEY.slice(-4)}]`);
    // Insurance: every field the contract marks `x-svc-data: phi` removed, the unmarked one kept, and the marked
    // relationship's listed value (a word of the contract, not the person's data) kept too.
    const [recorded] = journal.insurance;
    const marked = ["payor_code", "member_id", "insured", "group_id", "guarantor"];
    expect(recorded.body).toEqual({
      ...Object.fromEntries(marked.map((field) => [field, "[phi removed]"])),
      relationship: insurance.relationship,
      is_primary: insurance.is_primary,
    });
    const written = JSON.stringify(journal);
    expect(written).not.toContain(API_KEY);
    for (const value of strings(insurance).filter((each) => each !== insurance.relationship)) expect(written, value).not.toContain(JSON.stringify(value));
    expect(journal.all).toEqual(["createUser 200", "createUser 400", "createInsurance 200", "getLatestInsurance 200", "createLinkToken 200"]);
  });

  it("conditions under a seed: the same 429s on every run, about 30 % of answers", async () => {
    const [once, twice] = (await nodePart("createMock")).conditions as [number[], number[]];
    expect(twice).toEqual(once);
    expect(new Set(once)).toEqual(new Set([200, 429]));
    const failures = once.filter((status) => status === 429).length;
    expect(failures).toBeGreaterThanOrEqual(6);
    expect(failures).toBeLessThanOrEqual(20);
  });

  it("a client with retry gets through every one of 20 calls meeting those 429s", async () => {
    const { retried } = await nodePart("createMock");
    expect(retried.statuses).toEqual(Array(20).fill(200));
    expect(retried.failuresMet).toBeGreaterThan(0);
    expect(retried.requests).toBe(20 + retried.failuresMet);
  });

  it("a timeout below a fixed latency rejects with the client's ApiTimeoutError", async () => {
    // The deadline fires while the latency holds the answer back (a fetch that ignored the abort answered 200).
    expect((await nodePart("createMock")).timedOut).toEqual({ name: "ApiTimeoutError", timeout: true, apiError: false });
  });

  it("a seed dataset exported by one mock starts another with the same state, and a bad one is refused naming record and field", async () => {
    const { seed } = await nodePart("seed");
    expect(seed.read).toMatchObject({ status: 400, body: { code: "user_already_exists", user_id: seed.userId } });
    expect(seed.sameExport).toBe(true);
    expect(seed.refused).toMatch(/^SeedError: /);
    expect(seed.refused).toContain("teams[0].users[0]");
    expect(seed.refused).toContain("/created_on");
  });

  it("the MSW handlers under msw/node answer the global fetch from the contract, and the stateful journal sees each request", async () => {
    const { msw } = await nodePart("msw");
    expect(new URL(msw.url).hostname).toMatch(/\.invalid$/);
    expect(msw.labs).toEqual({ status: 200, body: first("listLabs", 200) });
    expectRefusal(msw.bad);
    expect(msw.missing).toEqual({ status: 404, body: first("getOrderPscInfo", 404) });
    expect(msw.latest).toEqual({ status: 200, memberId: insurance.member_id });
    expect(msw.journal).toEqual(["listLabs 200", "createUser 422", "getOrderPscInfo 404", "createUser 200", "createInsurance 200", "getLatestInsurance 200"]);
  });
});

describe.skipIf(executable === undefined)("/mock/msw in a browser (setupWorker, msw's service worker)", () => {
  it("answers the client from the mock inside the browser: an example, a 422 refusal, a user kept; nothing leaves for the network", async () => {
    const { browser, site } = await browserSite!;
    const context = await browser.newContext();
    /** Requests that would have left the browser for another place than the page's server: blocked, and noted. */
    const outside: string[] = [];
    const errors: string[] = [];
    try {
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (new URL(url).origin === site.url) return route.continue();
        outside.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      // Chromium reports every 4xx answer as a console error: the refusals the application asks for are not errors.
      page.on(
        "console",
        (message) =>
          message.type() === "error" &&
          !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()) &&
          errors.push(message.text()),
      );
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${site.url}/`);
      await page.waitForFunction(() => (document.getElementById("results")?.textContent ?? "") !== "", undefined, { timeout: 20_000 });
      const seen = JSON.parse((await page.textContent("#results"))!) as Record<string, any>;
      expect(outside).toEqual([]);
      expect(seen.error).toBeUndefined();
      expect(seen.controlled).toBe(true);
      expect(new URL(seen.url).hostname).toMatch(/\.invalid$/);
      expect(seen.labs).toEqual({ status: 200, body: first("listLabs", 200) });
      expectRefusal(seen.bad);
      expect(seen.created.status).toBe(200);
      expect(seen.again).toMatchObject({ status: 400, body: { code: "user_already_exists", user_id: seen.created.userId } });
      expect(seen.journal).toEqual(["listLabs 200", "createUser 422", "createUser 200", "createUser 400"]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
