// A failure's cause (src/verify/report/groups.ts) over details as verify's passes write them: one cause across operations and
// whatever values a message holds (names, emails, ids, numbers, quoted text, a server's own words), another class or
// status another cause; and what a run keeps of its checks (src/verify/report/findings.ts): the counts exact, each cause's
// first failures whole, the rest named and counted, every detail bounded.
import { describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/check.ts";
import { causeKey, causeOf, withoutValues } from "../../src/verify/report/groups.ts";
import { Findings, KEPT_PER_GROUP, MAX_DETAIL } from "../../src/verify/report/findings.ts";

const NOT_JSON = "not shown: an answer verify cannot read may hold health data (--show-data shows it on a loopback target)";
const NEEDS_STATE = "this check needs a server that keeps state (the package's mock does with --stateful)";

type Made = Pick<Check, "suite" | "detail" | "operationId">;
const key = (check: Made) => causeKey(causeOf(check));

/** Checks that must share one cause, and what that cause reads. */
const SAME: [string, Made[], string][] = [
  [
    "a body that is not JSON, in any operation, of any size",
    [
      { suite: "operation", operationId: "createUser", detail: `createUser 200: the body is not JSON (application/json, 200 OK, 28 bytes; ${NOT_JSON})` },
      {
        suite: "operation",
        operationId: "listLabs",
        detail: `listLabs 200: the body is not JSON (text/html; charset=utf-8, 200 OK, 10482 bytes, titled "Welcome, Ann"; ${NOT_JSON})`,
      },
      // --show-data quotes the answer instead.
      { suite: "operation", operationId: "getOrg", detail: `getOrg 200: the body is not JSON ("{\\"labs\\": [{\\"id\\": 1, \\"slug\\": …")` },
    ],
    "<op> 200: the body is not JSON (<answer>)",
  ],
  [
    "a status the operation does not declare, whatever it declares",
    [
      {
        suite: "coverage",
        operationId: "createTeam",
        detail: "createTeam answered 307, which it does not declare (it declares 201, 400, 401, 403, 405, 406, 408, 413, 414, 415, 422, 429, 431, 500)",
      },
      { suite: "coverage", operationId: "listLabs", detail: "listLabs answered 307, which it does not declare (it declares 200, 400, 401)" },
    ],
    "<op> answered 307, which it does not declare (it declares <statuses>)",
  ],
  [
    "a server's message holding names, emails, ids and numbers",
    [
      {
        suite: "state",
        operationId: "getTeam",
        detail: `getTeam answered 404 not_found: No team "acme" for jane@example.com; expected 200 or 201; ${NEEDS_STATE}`,
      },
      {
        suite: "state",
        operationId: "getWebhookEndpoint",
        detail: `getWebhookEndpoint answered 404 not_found: Endpoint 6f1c2b3a-4d5e-4f60-8a51-6c0f2b8d7e11 of team 42 is gone; expected 200; ${NEEDS_STATE}`,
      },
      {
        suite: "state",
        operationId: "getTeamApiKey",
        detail: `getTeamApiKey answered 404 not_found: Bob Smith has no key tk_live_8f3a2b1c; expected 200; ${NEEDS_STATE}`,
      },
    ],
    `<op> answered 404 not_found: <message>; expected <statuses>; ${NEEDS_STATE}`,
  ],
  [
    "a read-back's values, one field or several, of any type",
    [
      { suite: "state", operationId: "getTeam", detail: `/name reads "Acme Labs", sent "Acme"; ${NEEDS_STATE}` },
      {
        suite: "state",
        operationId: "getUser",
        detail: `/display_name reads "Zoë 😀", sent "Zoe"; /age reads 41, sent 42; /tags reads ["a","b"], sent []; /meta reads {"k":null}, sent {"k":1}; ${NEEDS_STATE}`,
      },
      { suite: "state", operationId: "getWebhookEndpoint", detail: `/enabled reads false, sent true; ${NEEDS_STATE}` },
    ],
    `<field> reads <value>, sent <value>; ${NEEDS_STATE}`,
  ],
  [
    "the fields a plausible answer leaves out, however many",
    [
      {
        suite: "operation",
        operationId: "createUser",
        detail: "createUser 200: /user_id is required; createUser 200: /client_user_id is required; createUser 200: /created_on is required",
      },
      { suite: "operation", operationId: "listLabs", detail: "listLabs 200: /labs/3/slug is required" },
    ],
    "<op> 200: <field> is required",
  ],
  [
    "a generated failure, whatever case it shrank to and whatever seed",
    [
      {
        suite: "generated",
        operationId: "createUser",
        detail: `createUser answered 500 internal_error: boom; smallest failing case (after 12 shrinks): body first_name="é\\"; x", query size=3; replay with --seed 42 --only createUser`,
      },
      {
        suite: "generated",
        operationId: "listLabs",
        detail: `listLabs answered 500 internal_error: Lab "Quest" is down; smallest failing case (after 0 shrinks): the valid call; replay with --seed 1234567 --only listLabs`,
      },
    ],
    "<op> answered 500 internal_error: <message>; smallest failing case: <case>; replay with --seed <n> --only <op>",
  ],
  [
    "a connection the server cut",
    [
      { suite: "operation", operationId: "createUser", detail: "createUser: connection failed: UND_ERR_SOCKET (other side closed)" },
      { suite: "operation", operationId: "listOrderSetMarkers", detail: "listOrderSetMarkers: connection failed: UND_ERR_SOCKET (other side closed)" },
    ],
    "<op>: connection failed: UND_ERR_SOCKET (other side closed)",
  ],
  [
    "a connection refused or cut, wherever it went",
    [
      { suite: "target", detail: "connection failed: ECONNREFUSED 127.0.0.1:4010" },
      { suite: "target", detail: "connection failed: ECONNREFUSED [::1]:8080" },
      { suite: "target", detail: "connection failed: ECONNREFUSED 10.0.12.7:443" },
    ],
    "connection failed: ECONNREFUSED <address>",
  ],
  [
    "an undocumented method, on any path, naming the answer of the path's first operation",
    [
      { suite: "protocol", detail: "POST /v2/user/{user_id} answered 200; expected 405; getUser 200: /user_id is required" },
      { suite: "protocol", detail: "DELETE /v3/lab_tests/labs answered 200; expected 405; listLabs 200: /labs is required" },
    ],
    "<method> <path> answered 200; expected <statuses>; <op> 200: <field> is required",
  ],
  [
    "a paged list holding too many, with any counts",
    [
      { suite: "collection", operationId: "listLabs", detail: "labs holds 3 items on a page of size 1; pages is 1, but total 3 at size 1 makes 3" },
      { suite: "collection", operationId: "listOrders", detail: "labs holds 12 items on a page of size 1; pages is 2, but total 40 at size 1 makes 40" },
    ],
    "labs holds <n> items on a page of size <n>; pages is <n>, but total <n> at size <n> makes <n>",
  ],
  [
    "a masked credential, whichever key",
    [
      { suite: "credential", operationId: "listTeams", detail: "listTeams answered 401: the credential it was sent was refused ([credential …a1b2])" },
      { suite: "credential", operationId: "getOrg", detail: "getOrg answered 401: the credential it was sent was refused ([credential …zz99])" },
    ],
    "<op> answered 401: the credential it was sent was refused ([credential])",
  ],
  [
    "a workflow's step, in any workflow, whatever the answer held",
    [
      {
        suite: "workflow users-lifecycle",
        operationId: "createUser",
        detail: `success criteria check $response.body#/client_user_id == $inputs.clientUserId; got 200 {"user_id":"6f1c2b3a-4d5e-4f60-8a51-6c0f2b8d7e11","client_user_id":"ann"}`,
      },
      {
        suite: "workflow user-conflict-and-undo",
        operationId: "createUser",
        detail: `success criteria check $response.body#/client_user_id == $inputs.clientUserId; got 200 {"user_id":"u2","client_user_id":"bob","tags":[1,2]}`,
      },
    ],
    "success criteria check $response.body#/client_user_id == $inputs.clientUserId; got 200 <json>",
  ],
];

describe("a failure's cause", () => {
  for (const [what, checks, message] of SAME) {
    it(`is one for ${what}`, () => {
      expect(new Set(checks.map(key)).size, checks.map((check) => withoutValues(check.detail!, check.operationId)).join("\n")).toBe(1);
      expect(causeOf(checks.at(-1)!).message).toBe(message);
    });
  }

  it("does not depend on the values a detail holds, whatever they are", () => {
    const values = [
      "Ann",
      "jane.doe+1@example.com",
      "6f1c2b3a-4d5e-4f60-8a51-6c0f2b8d7e11",
      "usr_8f3a2b1c9d",
      "42",
      "-3.5e7",
      "O'Brien; DROP",
      'é 😀 \\ "q"',
      "",
      "[phi removed]",
    ];
    const keys = new Set(
      values.flatMap((value) => [
        key({
          suite: "state",
          operationId: "getUser",
          detail: `/first_name reads ${JSON.stringify(value)}, sent ${JSON.stringify(`${value}x`)}; ${NEEDS_STATE}`,
        }),
        key({ suite: "state", operationId: "listUsers", detail: `/first_name reads ${JSON.stringify(value)}, sent "Ann"; ${NEEDS_STATE}` }),
      ]),
    );
    expect([...keys]).toEqual([`state\n<field> reads <value>, sent <value>; ${NEEDS_STATE}`]);
  });

  it("tells another class, status or kind of problem apart", () => {
    const detail = "createUser answered 500";
    const keys = [
      key({ suite: "operation", operationId: "createUser", detail }),
      key({ suite: "coverage", operationId: "createUser", detail }),
      key({ suite: "operation", operationId: "createUser", detail: "createUser answered 404" }),
      key({ suite: "operation", operationId: "createUser", detail: "createUser 200: /user_id must be string" }),
      key({ suite: "operation", operationId: "createUser", detail: "createUser: no answer within 15 s" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    // Every workflow's suite is one class.
    expect(causeOf({ suite: "workflow a", detail: "x" })).toEqual(causeOf({ suite: "workflow b", detail: "x" }));
  });

  it("reads only the start of a detail listing thousands of problems, and finds the cause of its first ones", () => {
    const many = Array.from({ length: 50_000 }, (_, index) => `listLabs 200: /${index}/slug is required`).join("; ");
    // A problem of another kind at the very end: read, it would be part of the cause (as it is in a short detail).
    const last = "listLabs 200: /0/name must be string";
    expect(causeOf({ suite: "operation", operationId: "listLabs", detail: `${many}; ${last}` })).toEqual({
      class: "operation",
      message: "<op> 200: <field> is required",
    });
    expect(causeOf({ suite: "operation", operationId: "listLabs", detail: `listLabs 200: /1/slug is required; ${last}` }).message).toBe(
      "<op> 200: <field> is required; <op> 200: <field> must be string",
    );
  });
});

describe("what a run keeps of its checks", () => {
  const failure = (index: number): Check => {
    const operationId = ["createUser", "listLabs", "getOrg", "getTeam"][index % 4]!;
    return {
      suite: "operation",
      name: `${operationId}: case ${index}`,
      status: "failed",
      detail: `${operationId} answered 500 internal_error: case ${index} for "user-${index}"`,
      repro: `curl 'http://127.0.0.1/${index}'`,
      operationId,
      ms: 1,
    };
  };

  it("counts every check exactly, keeps each cause's first failures whole and names and counts the rest", () => {
    const findings = new Findings();
    findings.add({ suite: "operation", name: "listLabs: valid call", status: "passed", operationId: "listLabs", ms: 1 });
    for (let index = 0; index < 1_000; index++) findings.add(failure(index));
    findings.add({
      suite: "operation",
      name: "getOrg: valid call",
      status: "failed",
      detail: "getOrg: no answer within 15 s",
      operationId: "getOrg",
      ms: 15_000,
    });
    findings.add({ suite: "credential", name: "getOrg: no credential", status: "skipped", detail: "needs --management-key", operationId: "getOrg", ms: 0 });
    expect(findings.summary).toEqual({ passed: 1, failed: 1_001, skipped: 1, total: 1_003 });
    expect(findings.checks).toHaveLength(1_003);
    const [many, timeout] = findings.groups;
    expect(many).toMatchObject({
      id: "G1",
      class: "operation",
      message: "<op> answered 500 internal_error: <message>",
      count: 1_000,
      operations: ["createUser", "listLabs", "getOrg", "getTeam"],
      examples: ["F1", "F2", "F3", "F4", "F5"],
    });
    expect(many!.first).toEqual({
      id: "F1",
      suite: "operation",
      name: "createUser: case 0",
      detail: failure(0).detail,
      repro: failure(0).repro,
      operationId: "createUser",
    });
    expect(timeout).toMatchObject({ id: "G2", count: 1, examples: ["F1001"] });
    const failed = findings.checks.filter((check) => check.status === "failed");
    expect(failed.map((check) => check.id)).toEqual(failed.map((_, index) => `F${index + 1}`));
    expect(failed.filter((check) => check.detail !== undefined)).toHaveLength(KEPT_PER_GROUP + 1);
    // After its group's first few, a failure is its name, id and group: what it costs does not grow with its detail.
    expect(failed[500]).toEqual({
      suite: "operation",
      name: "createUser: case 500",
      status: "failed",
      id: "F501",
      group: "G1",
      operationId: "createUser",
      ms: 1,
    });
    expect(findings.checks.at(-1)).toEqual({
      suite: "credential",
      name: "getOrg: no credential",
      status: "skipped",
      detail: "needs --management-key",
      operationId: "getOrg",
      ms: 0,
    });
  });

  it("titles a group by its first failure's own sentence, cut at 160 characters, and how many more are like it", () => {
    const findings = new Findings();
    const long = `listLabs answered 500 internal_error: ${"🙂".repeat(100)}`;
    for (let index = 0; index < 3; index++)
      findings.add({
        suite: "operation",
        name: "listLabs: valid call",
        status: "failed",
        detail: index === 0 ? long : `${long}${index}`,
        operationId: "listLabs",
        ms: 1,
      });
    findings.add({
      suite: "operation",
      name: "getOrg: valid call",
      status: "failed",
      detail: "getOrg answered 502 bad_gateway: Org acme is gone",
      operationId: "getOrg",
      ms: 1,
    });
    findings.add({ suite: "cleanup", name: "deleteTeam: t1", status: "failed", ms: 1 });
    const [cut, one, unsaid] = findings.groups;
    // 159 characters and an ellipsis; an emoji is never cut in two (the 159th character is half of one: it goes too).
    expect(cut!.title).toBe(`${long.slice(0, 158)}… (and 2 more like it)`);
    expect(cut!.title.length).toBeLessThanOrEqual(160 + " (and 2 more like it)".length);
    expect(one!.title).toBe("getOrg answered 502 bad_gateway: Org acme is gone");
    expect(one!.message).toBe("<op> answered 502 bad_gateway: <message>");
    // A failure without a sentence of its own is titled by its name.
    expect(unsaid!.title).toBe("deleteTeam: t1");
  });

  it("makes what costs to keep (the server's answer) only for the failures a cause keeps whole", () => {
    const findings = new Findings();
    let made = 0;
    const answer = { status: 500, statusText: "", headers: {}, bodyForm: "empty" as const, body: "" };
    const kept = Array.from({ length: 8 }, (_, index) =>
      findings.add(
        { suite: "operation", name: `listLabs: case ${index}`, status: "failed", detail: "listLabs answered 500", operationId: "listLabs", ms: 1 },
        () => {
          made++;
          return { answer };
        },
      ),
    );
    findings.add({ suite: "operation", name: "listLabs: valid call", status: "passed", operationId: "listLabs", ms: 1 }, () => {
      made++;
      return { answer };
    });
    expect(made).toBe(KEPT_PER_GROUP);
    expect(kept.map((check) => check.answer !== undefined)).toEqual(kept.map((_, index) => index < KEPT_PER_GROUP));
    expect(findings.checks.at(-1)!.answer).toBeUndefined();
  });

  it("keeps the ids a run gave, and bounds a detail quoting a large answer", () => {
    const findings = new Findings();
    const huge = `listLabs 200: ${"/x must be string; ".repeat(100_000)}`;
    const kept = findings.add({ suite: "operation", name: "listLabs: valid call", status: "failed", id: "F7", detail: huge, operationId: "listLabs", ms: 1 });
    expect(kept.id).toBe("F7");
    expect(kept.detail!.length).toBeLessThan(MAX_DETAIL + 40);
    expect(kept.detail).toMatch(/… \(\d+ more characters\)$/);
    expect(findings.groups[0]!.first.detail).toBe(kept.detail);
  });
});
