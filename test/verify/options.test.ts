// `npm run verify`'s command line: what a loopback server and a remote one get by default, and the one line that
// says what is wrong with a command line it cannot run.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CREDENTIAL_PLACEHOLDERS } from "../../src/contract/credentials.ts";
import { readBlocks } from "../support/markdown.ts";
import {
  DEFAULT_CASES,
  DEFAULT_CONCURRENCY,
  DEFAULT_TIME_BUDGET_S,
  readVerifyOptions,
  REMOTE_RATE,
  REMOTE_TEST_RATE,
  type VerifyOptions,
} from "../../src/verify/options.ts";

function options(...argv: string[]): VerifyOptions {
  const read = readVerifyOptions(argv, {});
  if (!("options" in read)) throw new Error(`expected options, got ${JSON.stringify(read)}`);
  return read.options;
}

function error(...argv: string[]): string {
  const read = readVerifyOptions(argv, {});
  if (!("error" in read)) throw new Error(`expected an error, got ${JSON.stringify(read)}`);
  return read.error;
}

describe("npm run verify's options", () => {
  it("takes a loopback server for a test environment: placeholder keys, writes, no rate limit", () => {
    for (const url of ["http://127.0.0.1:4010", "http://localhost:4010/", "http://[::1]:4010"]) {
      const read = options("--base-url", url);
      expect(read).toMatchObject({ loopback: true, allowWrites: true, rate: undefined, skipWorkflows: false, quiet: false });
      expect(read.credentials).toEqual({
        apiKey: CREDENTIAL_PLACEHOLDERS.apiKey,
        managementKey: CREDENTIAL_PLACEHOLDERS.managementKey,
        linkToken: CREDENTIAL_PLACEHOLDERS.linkToken,
      });
    }
    expect(options("--base-url", "http://localhost:4010/").baseUrl).toBe("http://localhost:4010");
  });

  it("gives a remote server only the keys given, no writes unless allowed, and a gentle rate", () => {
    const read = options("--base-url", "https://staging.example", "--api-key", "sk_live_x");
    expect(read).toMatchObject({
      loopback: false,
      allowWrites: false,
      rate: REMOTE_RATE,
      credentials: { apiKey: "sk_live_x" },
      given: { apiKey: true, managementKey: false },
    });
    expect(read.credentials.managementKey).toBeUndefined();
    expect(options("--base-url", "https://staging.example", "--api-key", "k", "--allow-writes", "--rate", "2.5")).toMatchObject({
      allowWrites: true,
      rate: 2.5,
    });
    // A server given --allow-writes is a test environment: a rate that lets a default run's 2,500 requests go in 25 s.
    expect(options("--base-url", "https://staging.example", "--api-key", "k", "--allow-writes")).toMatchObject({ rate: REMOTE_TEST_RATE });
    expect(readVerifyOptions(["--base-url", "http://127.0.0.1:4010"], { SVC_VERIFY_TREAT_AS_REMOTE: "1" })).toEqual({
      error: expect.stringContaining("--api-key"),
    });
  });

  it("sends 8 requests at once unless told otherwise, 1 for one at a time", () => {
    expect(options("--base-url", "http://127.0.0.1:4010").concurrency).toBe(DEFAULT_CONCURRENCY);
    expect(DEFAULT_CONCURRENCY).toBe(8);
    expect(options("--base-url", "http://127.0.0.1:4010", "--concurrency", "1").concurrency).toBe(1);
    for (const bad of ["0", "2.5", "many", "65"])
      expect(error("--base-url", "http://127.0.0.1:1", "--concurrency", bad)).toBe(
        `--concurrency ${bad} is not a whole number of requests at once from 1 to 64`,
      );
  });

  it("bounds the generated pass by cases and the checks by time, from a seed it picks or is given", () => {
    const defaults = options("--base-url", "http://127.0.0.1:1");
    expect(defaults).toMatchObject({ cases: DEFAULT_CASES, timeBudgetMs: DEFAULT_TIME_BUDGET_S * 1000 });
    expect(Number.isInteger(defaults.seed)).toBe(true);
    expect(options("--base-url", "http://127.0.0.1:1", "--cases", "0", "--seed=-7", "--time-budget", "2.5")).toMatchObject({
      cases: 0,
      seed: -7,
      timeBudgetMs: 2500,
    });
    expect(error("--base-url", "http://127.0.0.1:1", "--cases=-1")).toBe("--cases -1 is not a whole number of cases (0 or more)");
    expect(error("--base-url", "http://127.0.0.1:1", "--seed", "abc")).toBe("--seed abc is not a whole number");
    expect(error("--base-url", "http://127.0.0.1:1", "--time-budget", "0")).toBe("--time-budget 0 is not a positive number of seconds");
  });

  it("prints the failures alone with --quiet, and says so in --help", () => {
    expect(options("--base-url", "http://127.0.0.1:1", "--quiet").quiet).toBe(true);
    expect(readVerifyOptions(["--help"])).toEqual({ help: expect.stringMatching(/--quiet {19}print only the failures/) });
  });

  it("leaves the workflows out with --only, which asks for some operations' checks", () => {
    expect(options("--base-url", "http://127.0.0.1:1", "--only", "listLabs", "--only", "getOrg")).toMatchObject({
      only: ["listLabs", "getOrg"],
      skipWorkflows: true,
    });
  });

  it("names what is wrong in one line", () => {
    expect(error()).toMatch(/^--base-url <url> is required/);
    expect(error("--base-url", "ftp://example")).toMatch(/not an http/);
    expect(error("--base-url", "not a url")).toMatch(/is not a URL/);
    expect(error("--base-url", "https://staging.example")).toMatch(/^--api-key <key> is required for staging.example/);
    expect(error("--base-url", "http://127.0.0.1:1", "--rate", "0")).toMatch(/--rate 0 is not a positive number/);
    expect(error("--base-url", "http://127.0.0.1:1", "--rate")).toMatch(/--rate/);
    expect(error("--base-url", "http://127.0.0.1:1", "--bogus")).toBe("unknown option --bogus (--help lists the options)");
    // A misspelt flag is named with the nearest one verify has, in the mock command's words.
    expect(error("--base-url", "http://127.0.0.1:1", "--skip-workflow")).toBe(
      "unknown option --skip-workflow (did you mean --skip-workflows?) (--help lists the options)",
    );
    expect(error("--base-url", "http://127.0.0.1:1", "--timeout-ms", "0")).toMatch(/^--timeout-ms 0 is not a whole number above 0$/);
    expect(error("--base-url", "http://127.0.0.1:1", "--max-response-bytes", "1e99x")).toMatch(/^--max-response-bytes 1e99x is not a whole number/);
    for (const message of [error(), error("--base-url", "http://127.0.0.1:1", "--bogus")]) expect(message).not.toContain("\n");
    expect(readVerifyOptions(["--help"], {})).toEqual({ help: expect.stringContaining("Usage: npx svc-health-verify --base-url <url>") });
  });

  it("reads the request deadline and the answer size limit, with the client's defaults", () => {
    const given = readVerifyOptions(["--base-url", "http://127.0.0.1:1", "--timeout-ms", "250", "--max-response-bytes", "1024"], {});
    expect(given).toMatchObject({ options: { timeoutMs: 250, maxResponseBytes: 1024 } });
    expect(readVerifyOptions(["--base-url", "http://127.0.0.1:1"], {})).toMatchObject({ options: { timeoutMs: 15_000, maxResponseBytes: 16 * 1024 * 1024 } });
  });

  it("shows marked values only to a loopback target, and takes no credential in the URL, which every report writes", () => {
    expect(options("--base-url", "http://127.0.0.1:1", "--show-data").showData).toBe(true);
    expect(options("--base-url", "http://127.0.0.1:1").showData).toBe(false);
    expect(error("--base-url", "https://staging.example", "--api-key", "k", "--show-data")).toMatch(
      /^--show-data .* refused for staging.example, which is not a loopback address/,
    );
    expect(readVerifyOptions(["--base-url", "http://127.0.0.1:1", "--api-key", "k", "--show-data"], { SVC_VERIFY_TREAT_AS_REMOTE: "1" })).toEqual({
      error: expect.stringContaining("--show-data"),
    });
    const withPassword = error("--base-url", "https://user:pa55word-long@staging.example", "--api-key", "k");
    expect(withPassword).toMatch(/must not carry a user name or password/);
    expect(withPassword).not.toContain("pa55word-long");
  });

  it("waits with --wait for a positive number of seconds, and not at all without it", () => {
    expect(options("--base-url", "http://127.0.0.1:1").waitMs).toBeUndefined();
    expect(options("--base-url", "http://127.0.0.1:1", "--wait", "2.5").waitMs).toBe(2500);
    for (const given of ["0", "-1", "soon"])
      expect(error("--base-url", "http://127.0.0.1:1", `--wait=${given}`)).toBe(`--wait ${given} is not a positive number of seconds`);
  });

  it("takes --header 'Name: value' (repeatable) for a gateway, and refuses the headers verify sets itself, naming the option that sets them", () => {
    expect(options("--base-url", "http://127.0.0.1:1").headers).toEqual([]);
    expect(options("--base-url", "http://127.0.0.1:1", "--header", "Authorization: Bearer gw-token:with-colon ", "--header", "X-Tenant:blue").headers).toEqual([
      { name: "Authorization", value: "Bearer gw-token:with-colon" },
      { name: "X-Tenant", value: "blue" },
    ]);
    const refused = (header: string) => error("--base-url", "http://127.0.0.1:1", "--header", header);
    expect(refused("x-svc-api-key: sk_secret_value")).toBe(
      "--header x-svc-api-key is refused: it is a credential header of the contract, which verify sets itself: give the key with --api-key",
    );
    expect(refused("X-Management-Key: mk")).toMatch(/^--header X-Management-Key is refused: .* give the key with --management-key$/);
    // The deprecated org key's header is the management key's old name: given as the management key.
    expect(refused("X-Svc-Org-Key: mk")).toMatch(/^--header X-Svc-Org-Key is refused: .* give the key with --management-key$/);
    expect(refused("x-svc-link-token: t")).toMatch(/^--header x-svc-link-token is refused: .* verify takes it from createLinkToken's answer$/);
    expect(refused("Accept: text/html")).toMatch(/^--header Accept is refused: verify sets Accept on each request as its operation declares$/);
    expect(refused("content-type: text/plain")).toMatch(/^--header content-type is refused: verify sets Content-Type/);
    expect(refused("Host: other.example")).toMatch(/^--header Host is refused: it belongs to the connection/);
    expect(refused("X-Tenant")).toMatch(/^--header takes 'Name: value'.*no colon/);
    expect(refused("Bad Name: v")).toMatch(/"Bad Name" is not a header name/);
    expect(refused("X-Tenant:  ")).toBe("--header X-Tenant: the value is empty");
    expect(error("--base-url", "http://127.0.0.1:1", "--header", "X-Tenant: a", "--header", "x-tenant: b")).toBe("--header x-tenant is given twice");
    // A refusal never writes the value: it is a credential.
    expect(refused("x-svc-api-key: sk_secret_value")).not.toContain("sk_secret_value");
  });

  it("reads the CI job of docs/verify.md as written: the remote test rate, 8 at once, --wait, the gateway's header, --quiet, and the report folder the job keeps", () => {
    const block = readBlocks("docs/verify.md").find((each) => each.language === "yaml" && each.code.includes("svc-health-verify"));
    expect(block, "docs/verify.md's CI job").toBeDefined();
    const job = parse(block!.code) as { jobs: Record<string, { steps: { run?: string; with?: Record<string, string> }[] }> };
    const steps = Object.values(job.jobs).flatMap((each) => each.steps);
    const command = steps.find((step) => step.run?.includes("svc-health-verify"))!.run!;
    // The shell's words, the job's secrets standing in as the environment gives them.
    const environment: Record<string, string> = { SVC_API_KEY: "sk_ci_example", SVC_MANAGEMENT_KEY: "mk_ci_example", GATEWAY_TOKEN: "gw_ci_example" };
    const words = [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(([, double, single, bare]) =>
      (double ?? single ?? bare)!.replace(/\$([A-Z_]+)/g, (_, name: string) => environment[name] ?? ""),
    );
    expect(words.slice(0, 2)).toEqual(["npx", "svc-health-verify"]);
    const read = options(...words.slice(2));
    expect(read).toMatchObject({ loopback: false, allowWrites: true, rate: REMOTE_TEST_RATE, concurrency: 8, quiet: true, waitMs: 120_000 });
    expect(read.headers).toEqual([{ name: "Authorization", value: "Bearer gw_ci_example" }]);
    // The steps after it keep the files verify writes there.
    const kept = steps.flatMap((step) => Object.values(step.with ?? {}).map(String));
    expect(kept).toContain(`${read.reportDir.split(path.sep).pop()}/verify-junit.xml`);
    expect(kept.some((value) => value.replace(/\/$/, "") === path.relative(process.cwd(), read.reportDir))).toBe(true);
  });
});
