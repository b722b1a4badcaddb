// `npm run verify` finds what is wrong with a server that is right but for one thing: a proxy in front of the stateful
// mock alters one kind of answer, and verify must report exactly that failure, naming the operation, and exit 1. verify
// runs in this process: what it finds is the point, not its process (test/verify/mock.test.ts runs that). Each run is
// limited with --only to the operations its fault is on (the whole contract passing is mock.test.ts's), but the one
// whose fault the workflows meet too. The same runs show that --replay judges as the check did: each cause's first
// failure fails again on the faulty server and no longer fails once the fault is switched off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { startAlteringProxy, type Alter } from "../support/altering-proxy.ts";
import { replayBothWays, replayStory } from "../support/replay-both-ways.ts";
import { failures, runVerifyInProcess } from "../support/run-verify.ts";
import { parseXml } from "../support/xml.ts";
import { answerText } from "../../src/verify/report/answer.ts";

let mock: RunningMock | undefined;

beforeAll(async () => {
  mock = await startMock({ port: 0, stateful: {} });
});

afterAll(async () => {
  await mock?.stop();
});

/**
 * verify behind a proxy that alters answers: the generated pass left out unless asked (its cases are their own tests,
 * below). Then, but for the workflows, each cause's first failure is sent again with --replay: it fails again on the
 * faulty server, and no longer fails once the proxy passes every answer through (a right server at the same address).
 */
async function verifyBehind(
  alter: Alter,
  { workflows = false, args = ["--cases", "0"], replays = !workflows }: { workflows?: boolean; args?: string[]; replays?: boolean } = {},
) {
  let faulty = true;
  const proxy = await startAlteringProxy(mock!.url, (x, upstream) => (faulty ? alter(x, upstream) : undefined));
  try {
    const run = await runVerifyInProcess(["--base-url", proxy.url, ...args, ...(workflows ? [] : ["--skip-workflows"])]);
    const replayed = replays && run.report !== undefined ? await replayBothWays(run.report, () => (faulty = false)) : [];
    if (replays && run.report !== undefined) {
      expect(replayed.length).toBe(run.report.groups.length);
      for (const each of replayed) {
        expect(each.faulty.code, replayStory(each, "faulty")).toBe(1);
        // (A replay's own cleanup may meet the fault too, and say so after.)
        expect(each.faulty.said).toContain(`verify: ${each.check.id} fails again`);
        expect(each.fixed.code, replayStory(each, "fixed")).toBe(0);
        expect(each.fixed.said.at(-1), replayStory(each, "fixed")).toBe(`verify: ${each.check.id} no longer fails`);
      }
    }
    return { ...run, replayed };
  } finally {
    await proxy.close();
  }
}

describe.concurrent("npm run verify against a server wrong in one thing", () => {
  it("names the operation and the field when an answer lacks a required field", async () => {
    const run = await verifyBehind(
      (x) => {
        if (x.method !== "POST" || x.pathname !== "/v2/user" || x.status !== 200) return undefined;
        const { user_id: _dropped, ...rest } = JSON.parse(x.answer) as Record<string, unknown>;
        return { status: 200, body: JSON.stringify(rest) };
      },
      { args: ["--cases", "0", "--only", "createUser"] },
    );
    // The valid call, and every other call of createUser that gets a 200 (the coverage pass's), each naming the field.
    expect(failures(run)).toContain("operation createUser: valid call: createUser 200: /user_id is required");
    for (const line of failures(run)) expect(line).toMatch(/^(operation|coverage) createUser: .*: createUser 200: \/user_id is required$/);
    expect(run.stdout).toContain("✗ operation  createUser: valid call  — createUser 200: /user_id is required");
    expect(run.code).toBe(1);
  });

  it("fails the workflows' steps that meet the same fault, naming the step and the missing field", async () => {
    const run = await verifyBehind(
      (x) => {
        if (x.method !== "POST" || x.pathname !== "/v2/user" || x.status !== 200) return undefined;
        const { created_on: _dropped, ...rest } = JSON.parse(x.answer) as Record<string, unknown>;
        return { status: 200, body: JSON.stringify(rest) };
      },
      { workflows: true },
    );
    const failed = run.report!.checks.filter((check) => check.status === "failed");
    const workflowFailures = failed.filter((check) => check.suite.startsWith("workflow "));
    // Every workflow creates its user first; each fails there, on the schema, and runs no further: one cause, whose
    // first failures the report keeps whole.
    expect(workflowFailures.length).toBeGreaterThanOrEqual(9);
    for (const check of workflowFailures) {
      expect(check.operationId).toBe("createUser");
      const detail = check.detail ?? run.report!.groups.find((group) => group.id === check.group)!.first.detail;
      expect(detail).toMatch(/schema check/);
      expect(detail).toContain("created_on");
    }
    expect(failed.filter((check) => !check.suite.startsWith("workflow ")).map((check) => check.operationId)).toEqual(expect.arrayContaining(["createUser"]));
    expect(new Set(failed.filter((check) => !check.suite.startsWith("workflow ")).map((check) => check.operationId))).toEqual(new Set(["createUser"]));
    expect(run.code).toBe(1);
  });

  it("names an undeclared status and the ones the operation declares", async () => {
    const run = await verifyBehind((x) => (x.pathname === "/v3/lab_tests/labs" && x.status === 200 ? { status: 418, body: x.answer } : undefined), {
      args: ["--cases", "0", "--only", "listLabs"],
    });
    expect(failures(run)).toHaveLength(1);
    expect(failures(run)[0]).toMatch(/^operation listLabs: valid call: listLabs answered 418, which it does not declare \(it declares 200, 400, 401, .*500/);
    expect(run.code).toBe(1);
    // What the server answered, in every report: the JSON whole, the console's first line, JUnit's text with the curl line.
    const failed = run.report!.checks.find((check) => check.status === "failed")!;
    expect(failed.answer).toMatchObject({ status: 418, bodyForm: "json" });
    expect(Array.isArray(JSON.parse(failed.answer!.body))).toBe(true);
    expect(failed.answer!.headers["content-type"]).toMatch(/^application\/json/);
    expect(run.stdout).toContain(`\n    answered: HTTP 418 I'm a Teapot  ${failed.answer!.body.slice(0, 160)}`);
    const text = parseXml(run.junit!)
      .children.flatMap((suite) => suite.children)
      .find((testcase) => testcase.attributes.name === failed.name)!
      .children.find((child) => child.name === "failure")!.text;
    expect(text).toBe(`reproduce: ${failed.repro}\n\nanswered:\n${answerText(failed.answer!)}`);
    expect(run.report!.groups[0]!.title).toBe(failed.detail);
  });

  it("fails every invalid call that gets a success", async () => {
    // The server takes what it should refuse, and answers the valid call's answer.
    const run = await verifyBehind(
      async (x, upstream) => {
        if (x.method !== "GET" || x.pathname !== "/v3/orders" || x.status !== 422) return undefined;
        const valid = await upstream("GET", "/v3/orders");
        return { status: valid.status, body: valid.body };
      },
      { args: ["--cases", "0", "--only", "listOrders"] },
    );
    const failed = failures(run);
    expect(failed.length).toBeGreaterThan(0);
    // The invalid calls of the operation pass and those of the coverage pass (a value just past a limit).
    expect(failed.filter((line) => line.startsWith("invalid ")).length).toBeGreaterThan(0);
    for (const line of failed)
      expect(line).toMatch(
        /^(invalid|coverage) listOrders: query \w+=\S+( \([a-z ]+\))?: listOrders answered 200 to an invalid call; expected a 4xx it declares$/,
      );
    expect(run.code).toBe(1);
  });

  it("names each paging and filter fault of a server that cuts or filters its lists wrong", async () => {
    // Four faults on four operations, one per kind: a wrong `pages`, a `size` ignored, a page past the last that
    // answers the first, a filter ignored. The bulk imports run too, so that there are bulk operations to page.
    const run = await verifyBehind(
      async (x, upstream) => {
        if (x.method !== "GET" || x.status !== 200) return undefined;
        const query = new URL(x.target, "http://proxy").searchParams;
        const body = JSON.parse(x.answer) as Record<string, any>;
        if (x.pathname === "/v3/orders") return { status: 200, body: JSON.stringify({ ...body, pages: body.pages + 1 }) };
        if (x.pathname.endsWith("/markers") && query.get("size") === "1") return { status: 200, body: (await upstream("GET", x.pathname)).body };
        if (x.pathname === "/v2/link/bulk_op" && Number(query.get("page")) > 1)
          return { status: 200, body: (await upstream("GET", `${x.pathname}?size=${query.get("size")}`)).body };
        if (x.pathname.endsWith("/psc/info") && query.has("capabilities")) return { status: 200, body: (await upstream("GET", x.pathname)).body };
        return undefined;
      },
      {
        args: [
          "--cases",
          "0",
          "--only",
          "listOrders",
          "--only",
          "listLabTestMarkers",
          "--only",
          "bulkImportConnections",
          "--only",
          "listBulkOps",
          "--only",
          "getOrderPscInfo",
        ],
      },
    );
    const failed = failures(run);
    expect(failed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^collection listOrders: page 1 of size 1 holds at most one item and says so: pages is \d+, but total \d+ at size 1 makes \d+$/),
        expect.stringMatching(
          /^collection listLabTestMarkers: page 1 of size 1 holds at most one item and says so: markers holds 2 items on a page of size 1; size is 50, asked 1/,
        ),
        expect.stringMatching(
          /^collection listBulkOps: page \d+ of size 1, past the last, is empty: page is 1, asked \d+; page \d+ is past the last of \d+ items, yet holds 1$/,
        ),
        expect.stringMatching(
          /^collection getOrderPscInfo: capabilities=\S+ keeps only patient_service_centers whose capabilities matches: \d+ of \d+ patient_service_centers do not match/,
        ),
      ]),
    );
    // Nothing else: each fault is named once, on its operation, and the rest of the server passes.
    expect(failed.filter((line) => !/^collection (listOrders|listLabTestMarkers|listBulkOps|getOrderPscInfo): /.test(line))).toEqual([]);
    expect(run.code).toBe(1);
  });

  it("names a method a path does not document that is answered, and a 405 without Allow", async () => {
    const run = await verifyBehind(
      (x) => {
        if (x.status !== 405) return undefined;
        if (x.method === "POST" && x.pathname === "/v3/lab_tests/labs") return { status: 200, body: "[]" };
        if (x.method === "DELETE" && x.pathname === "/v2/providers") return { status: 405, body: x.answer, headers: {} };
        return undefined;
      },
      { args: ["--cases", "0", "--only", "listLabs", "--only", "listProviders"] },
    );
    expect(failures(run).sort()).toEqual([
      "protocol /v2/providers: DELETE is 405 naming GET: no Allow header",
      "protocol /v3/lab_tests/labs: POST is 405 naming GET: POST /v3/lab_tests/labs answered 200; expected 405",
    ]);
    expect(run.code).toBe(1);
  });

  it("names a header an answer declares required that is missing (a 429 without Retry-After)", async () => {
    const run = await verifyBehind(
      (x) =>
        x.pathname === "/v2/providers" && x.method === "GET" && x.status === 200
          ? { status: 429, body: JSON.stringify({ code: "too_many_requests", message: "Slow down." }), headers: {} }
          : undefined,
      { args: ["--cases", "0", "--only", "listProviders"] },
    );
    expect(failures(run)).toEqual(["operation listProviders: valid call: listProviders 429: the Retry-After header it declares required is missing"]);
    expect(run.code).toBe(1);
  });

  it("fails a 500, declared or not", async () => {
    const run = await verifyBehind(
      (x) =>
        x.pathname === "/v2/management/org" && x.method === "GET" && x.status === 200
          ? { status: 500, body: JSON.stringify({ code: "internal_error", message: "The org store is down." }) }
          : undefined,
      { args: ["--cases", "0", "--only", "getOrg"] },
    );
    expect(failures(run)).toEqual(["operation getOrg: valid call: getOrg answered 500 internal_error: The org store is down."]);
    expect(run.code).toBe(1);
  });
});

/** A proxy answer of the mock's error shape. */
const error = (status: number, code: string, message: string) => ({ status, body: JSON.stringify({ code, message }) });

describe.concurrent("npm run verify's coverage, generated and state checks against a server wrong in one thing", () => {
  it("names a limit refused and a value just past it accepted (size=100 answered 422, size=101 answered 200)", async () => {
    const run = await verifyBehind(
      async (x, upstream) => {
        const size = new URL(x.target, "http://proxy").searchParams.get("size");
        if (x.pathname === "/v3/orders" && size === "100") return error(422, "invalid_request", "size must be at most 99.");
        if (x.pathname.endsWith("/markers") && size === "101")
          return { status: 200, body: (await upstream("GET", x.target.replace("size=101", "size=100"))).body };
        return undefined;
      },
      { args: ["--cases", "0", "--only", "listOrders", "--only", "listLabTestMarkers"] },
    );
    expect(failures(run).sort()).toEqual([
      "coverage listLabTestMarkers: query size=101 (one above its maximum): listLabTestMarkers answered 200 to an invalid call; expected a 4xx it declares",
      "coverage listOrders: query size=100 (its maximum): listOrders answered 422 invalid_request: size must be at most 99. to a request the contract accepts",
    ]);
    // Each failure comes with the request that shows it.
    const refused = run.report!.checks.find((check) => check.status === "failed" && check.operationId === "listOrders")!;
    expect(refused.repro).toMatch(/^curl -sS -i -X GET '.*\/v3\/orders\?size=100' -H 'accept: application\/json' -H "x-svc-api-key: \$SVC_API_KEY"$/);
    expect(run.stdout).toContain(`    reproduce: ${refused.repro}`);
    expect(run.code).toBe(1);
  });

  it("names an optional filter the valid call leaves out that makes the server fail", async () => {
    const run = await verifyBehind(
      (x) =>
        x.pathname === "/v2/link/bulk_op" && new URL(x.target, "http://proxy").searchParams.has("provider")
          ? error(500, "internal_error", "provider index missing")
          : undefined,
      {
        args: ["--cases", "0", "--only", "listBulkOps"],
      },
    );
    const failed = failures(run);
    expect(failed).toContain('coverage listBulkOps: query provider="oura" (a listed value): listBulkOps answered 500 internal_error: provider index missing');
    // The collection pass's filter checks meet it too; nothing else of the operation fails.
    for (const line of failed)
      expect(line).toMatch(/^(coverage listBulkOps: query provider=|collection listBulkOps: provider=).*answered 500 internal_error: provider index missing/);
  });

  it("shrinks a failure on non-ASCII text to the smallest request, printed as curl, and replays it from its seed", async () => {
    // A server whose storage takes only ASCII in a webhook endpoint's description.
    const alter = (x: { method: string; pathname: string; body: string }) =>
      x.method === "POST" && /\/webhooks$/.test(x.pathname) && /"description":"[^"]*[^\x00-\x7f]/.test(x.body)
        ? error(500, "internal_error", "could not store the endpoint")
        : undefined;
    const args = ["--cases", "30", "--seed", "7", "--only", "createWebhookEndpoint"];
    const [run, again] = await Promise.all([verifyBehind(alter, { args }), verifyBehind(alter, { args, replays: false })]);
    const generated = run.report!.checks.filter((check) => check.suite === "generated" && check.status === "failed");
    expect(generated.map((check) => check.name)).toEqual(["createWebhookEndpoint: generated valid calls are accepted"]);
    const [failure] = generated;
    // The smallest case: one field changed from the valid call, one character long, the first non-ASCII one tried.
    expect(failure!.detail).toMatch(
      /^createWebhookEndpoint answered 500 internal_error: could not store the endpoint; smallest failing case \(after \d+ shrinks\): body description="é"; replay with --seed 7 --only createWebhookEndpoint$/,
    );
    // A body with a character beyond printable ASCII is read from its file: a terminal or a page may not pass it on intact.
    expect(failure!.repro).toMatch(
      /^curl -sS -i -X POST '.*\/v2\/management\/teams\/[0-9a-f-]+\/webhooks' .*-H "x-management-key: \$SVC_MANAGEMENT_KEY" --data-binary '@.*\/bodies\/F1\.body'$/,
    );
    expect(failure!.request).toMatchObject({ bodyFile: "bodies/F1.body", variables: ["x-management-key"] });
    expect(failure!.request!.body).toMatch(/"description":"é"/);
    // The same seed finds the same smallest case.
    expect(again.report!.checks.find((check) => check.suite === "generated" && check.status === "failed")?.detail).toBe(failure!.detail);
  });

  it("reports a 413 that names the server's size limit as that limit, not as a failure", async () => {
    const run = await verifyBehind(
      (x) =>
        x.method === "POST" && x.pathname === "/v2/management/teams" && Buffer.byteLength(x.body) > 100
          ? error(413, "payload_too_large", "The body is over this server's limit of 100 bytes.")
          : undefined,
      {
        args: ["--cases", "20", "--seed", "3", "--only", "createTeam"],
      },
    );
    expect(failures(run)).toEqual([]);
    const limit = run.report!.checks.find((check) => check.name === "createTeam: the server's size limit");
    expect(limit).toMatchObject({
      suite: "generated",
      status: "skipped",
      detail: "answered 413 to a generated body, naming its limit of 100 bytes: a limit of the server, not a failure",
    });
  });

  it("names a body taken without its Content-Type", async () => {
    const run = await verifyBehind(
      (x) =>
        x.method === "POST" && x.pathname === "/v2/user" && x.status === 415
          ? {
              status: 200,
              body: JSON.stringify({ user_id: "3f0c1d2e-8a4b-4c6d-9e8f-0a1b2c3d4e5f", client_user_id: "taken-anyway", created_on: "2026-11-24T10:00:00Z" }),
            }
          : undefined,
      { args: ["--cases", "0", "--only", "createUser"] },
    );
    expect(failures(run)).toEqual([
      "protocol createUser: a body without Content-Type gets a declared 4xx: createUser answered 200 to a body without Content-Type; expected a 4xx it declares",
    ]);
    expect(run.report!.checks.find((check) => check.status === "failed")!.repro).not.toContain("content-type");
  });

  it("names a created resource that cannot be read, and a deleted key that still works", async () => {
    let providers = "";
    const run = await verifyBehind(
      (x) => {
        if (x.pathname === "/v2/providers" && x.status === 200) providers = x.answer;
        if (x.method === "GET" && /^\/v2\/management\/teams\/[^/]+$/.test(x.pathname) && x.status === 200) return error(404, "not_found", "No such team.");
        // The deleted key is still taken: the call made with it answers as before.
        if (x.pathname === "/v2/providers" && x.status === 401 && x.headers["x-svc-api-key"]?.startsWith("sk_test_mock_"))
          return { status: 200, body: providers };
        return undefined;
      },
      { args: ["--cases", "0", "--only", "getTeam", "--only", "deleteTeamApiKey"] },
    );
    expect(failures(run)).toEqual(
      expect.arrayContaining([
        "state createTeam → getTeam: answers: getTeam answered 404 not_found: No such team.; expected 200; this check needs a server that keeps state (the package's mock does with --stateful)",
        "state deleteTeamApiKey → listProviders: a call made with the deleted credential is refused: listProviders answered 200; expected 401; this check needs a server that keeps state (the package's mock does with --stateful)",
      ]),
    );
    expect(failures(run).filter((line) => line.startsWith("state "))).toHaveLength(2);
  });

  it("names read-backs of other values, a deleted item still read, a refusal not made, a failed undo and cleanup; each replays with its steps", async () => {
    const webhookItem = /^\/v2\/management\/teams\/[^/]+\/webhooks\/[^/]+$/;
    // The last webhook endpoint the server answered with: what a server that never deletes would still read.
    let webhook: Record<string, unknown> | undefined;
    const run = await verifyBehind(
      (x) => {
        if (x.method !== "DELETE" && /\/webhooks(\/[^/]+)?$/.test(x.pathname) && x.status < 300 && x.answer.startsWith("{"))
          webhook = JSON.parse(x.answer) as Record<string, unknown>;
        if (x.method === "GET" && webhookItem.test(x.pathname) && x.status === 200)
          return { status: 200, body: JSON.stringify({ ...(JSON.parse(x.answer) as object), enabled: true }) };
        if (x.method === "GET" && webhookItem.test(x.pathname) && x.status === 404 && webhook !== undefined)
          return { status: 200, body: JSON.stringify(webhook) };
        if (x.method === "GET" && x.pathname === "/v2/providers" && x.status === 401 && x.headers["x-svc-api-key"] === undefined)
          return { status: 200, body: "[]" };
        if (x.method === "POST" && x.pathname.endsWith("/undo_delete") && x.status < 300) return error(500, "internal_error", "the deletion cannot be undone");
        if (x.method === "DELETE" && /^\/v2\/management\/teams\/[^/]+$/.test(x.pathname)) return error(500, "internal_error", "the team is locked");
        // A team that reads as the example, whatever it was created with: a server that keeps nothing.
        if (x.method === "GET" && /^\/v2\/management\/teams\/[^/]+$/.test(x.pathname) && x.status === 200)
          return { status: 200, body: JSON.stringify({ ...(JSON.parse(x.answer) as object), name: "Northwind Health" }) };
        return undefined;
      },
      {
        args: [
          "--cases",
          "0",
          ...["updateWebhookEndpoint", "deleteWebhookEndpoint", "listProviders", "deleteUser", "undoUserDeletion"].flatMap((op) => ["--only", op]),
        ],
      },
    );
    expect(failures(run)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^state updateWebhookEndpoint → getWebhookEndpoint: reads back what was sent: \/enabled reads true, sent false/),
        expect.stringMatching(/^state createTeam → getTeam: reads back what was sent: \/name reads "Northwind Health", sent "verify-[0-9a-f]+"/),
        expect.stringMatching(
          /^state deleteWebhookEndpoint → getWebhookEndpoint: what was deleted is gone: getWebhookEndpoint answered 200; expected 404 or 410/,
        ),
        "credential listProviders: no credential: listProviders answered 200; expected 401",
        "operation undoUserDeletion: valid call: undoUserDeletion answered 500 internal_error: the deletion cannot be undone",
        expect.stringMatching(/^cleanup deleteTeam: team_id \S+, made by createTeam: deleteTeam answered 500 internal_error: the team is locked$/),
      ]),
    );
    // Each replay made again the steps of its check: the update before the read-back, the create and the delete
    // before the read of what was deleted, the delete before the undo.
    expect(new Set(run.replayed.map((each) => each.check.suite))).toEqual(new Set(["state", "credential", "operation", "cleanup"]));
    const steps = (check: string) =>
      run.report!.checks.find((each) => each.status === "failed" && each.name.startsWith(check))?.request?.steps?.map((step) => step.operationId);
    expect(steps("updateWebhookEndpoint → getWebhookEndpoint: reads back")).toEqual(["updateWebhookEndpoint"]);
    expect(steps("createTeam → getTeam: reads back")).toEqual(["createTeam"]);
    expect(steps("deleteWebhookEndpoint → getWebhookEndpoint")).toEqual(["createWebhookEndpoint", "deleteWebhookEndpoint"]);
    // The undo depends on the run's writes before it too, and last on the delete it undoes.
    expect(steps("undoUserDeletion: valid call")?.at(-1)).toBe("deleteUser");
    const undo = run.replayed.find((each) => each.check.operationId === "undoUserDeletion")!;
    expect(undo.fixed.said).toContain("  step again: deleteUser (200)");
  });
});
