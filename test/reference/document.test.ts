// The reader's document is derived from the contract, so it cannot drift: badges from the markings, one operation per
// event kind (within the size budget), the introduction's tables from security, paging and the error body, and its
// mock section from the mock's constants.
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/contract/json.ts";
import { responseLinks } from "../../src/contract/links.ts";
import { deref, listOperations } from "../../src/contract/operations.ts";
import { MOCK_PATHS } from "../../src/shared/mock-paths.ts";
import { ANOTHER_MFA_CODE, WRONG_MFA_CODE } from "../../src/mock/state/link.ts";
import { readBundle } from "../../scripts/build/lib/paths.ts";
import { BADGES } from "../../scripts/build/reference/badges.ts";
import { referenceDocument } from "../../scripts/build/reference/document.ts";
import { expandEventOperations, FAMILY_TAGS } from "../../scripts/build/reference/event-operations.ts";
import { unwrapMarkdown } from "../../scripts/build/reference/prose.ts";
import { OPERATIONS_AT_LEAST, WEBHOOKS_AT_LEAST } from "../support/contract.ts";

let contract: JsonObject;
let reference: JsonObject;
const badgeNames = (operation: JsonObject) => ((operation["x-badges"] ?? []) as { name: string }[]).map((badge) => badge.name);

beforeAll(async () => {
  contract = await readBundle();
  reference = referenceDocument(contract);
});

describe("the reference's document", () => {
  it("badges every closed-beta, provisional and deprecated operation, and only those", () => {
    const operations = listOperations(reference);
    expect(operations.length).toBeGreaterThanOrEqual(OPERATIONS_AT_LEAST);
    for (const op of operations) {
      const names = badgeNames(op.operation);
      expect(names.includes(BADGES.closedBeta.name), op.operationId).toBe(op.operation["x-svc-closed-beta"] === true);
      expect(names.includes(BADGES.provisional.name), op.operationId).toBe(typeof op.operation["x-svc-provisional"] === "string");
      expect(names.includes(BADGES.deprecated.name), op.operationId).toBe(op.operation.deprecated === true);
    }
    const insurance = listOperations(reference).find((op) => op.operationId === "createInsurance")!;
    expect(badgeNames(insurance.operation)).toContain(BADGES.closedBetaValues.name);
  });

  it("derives badges from the contract's markings: unmark an operation and its badge goes", () => {
    const copy = structuredClone(contract);
    const latest = listOperations(copy).find((op) => op.operationId === "getLatestInsurance")!;
    expect(badgeNames(listOperations(referenceDocument(copy)).find((op) => op.operationId === "getLatestInsurance")!.operation)).toContain("Closed beta");
    delete latest.operation["x-svc-closed-beta"];
    expect(badgeNames(listOperations(referenceDocument(copy)).find((op) => op.operationId === "getLatestInsurance")!.operation)).not.toContain("Closed beta");
  });

  it("gives every event kind its own operation, titled with the kind, in its family's group, with an example of that kind", () => {
    const kinds = Object.keys(contract.webhooks as object);
    expect(kinds.length).toBeGreaterThanOrEqual(WEBHOOKS_AT_LEAST);
    const webhooks = reference.webhooks as Record<string, { post: JsonObject }>;
    expect(Object.keys(webhooks).sort()).toEqual([...kinds].sort());
    for (const [kind, { post }] of Object.entries(webhooks)) {
      expect(post.summary).toBe(kind);
      expect(Object.values(FAMILY_TAGS)).toContain((post.tags as string[])[0]);
      const examples = Object.values(((post.requestBody as JsonObject).content as any)["application/json"].examples);
      expect(examples.map((example) => (deref(reference, example) as { value: { event_type: string } }).value.event_type)).toEqual([kind]);
    }
    const groups = reference["x-tagGroups"] as { name: string; tags: string[] }[];
    expect(groups.find((group) => group.name === "Events")!.tags).toEqual(Object.values(FAMILY_TAGS));
    expect(groups.flatMap((group) => group.tags).sort()).toEqual((reference.tags as { name: string }[]).map((tag) => tag.name).sort());
  });

  it("grows the bundle by at most 150 kB for the event operations", () => {
    const expanded = structuredClone(contract);
    expandEventOperations(expanded);
    const growth = JSON.stringify(expanded).length - JSON.stringify(contract).length;
    expect(growth).toBeLessThanOrEqual(150_000);
  });

  it("introduces every credential by header, the deprecated org key, paging, errors and events", () => {
    const intro = String((reference.info as JsonObject).description);
    for (const header of ["x-svc-api-key", "x-svc-link-token", "X-Management-Key", "X-Svc-Org-Key"]) expect(intro).toContain(`\`${header}\``);
    expect(intro).toMatch(/\| Org key \(`OrgKey`\) \| `X-Svc-Org-Key` \|[^\n]*\*\*Deprecated\*\*: send `X-Management-Key` instead \|/);
    for (const heading of ["## Base URL", "## Authentication", "## Paging", "## Errors", "## Badges", "## Events", "## Service change history"])
      expect(intro).toContain(heading);
    expect(intro.indexOf("## Authentication")).toBeLessThan(intro.indexOf("## Service change history"));
    for (const field of ["`code`", "`message`", "`details`", "`pages`"]) expect(intro).toContain(field);
  });

  it("shows every link: under its answer, and in the introduction's table of state relations or of ids handed on", () => {
    const intro = String((reference.info as JsonObject).description);
    const section = intro.slice(intro.indexOf("## Links between operations"));
    const handedOn = section.indexOf("Every other id an answer carries");
    expect(handedOn).toBeGreaterThan(0);
    let seen = 0;
    for (const op of listOperations(contract)) {
      for (const status of Object.keys(op.responses)) {
        for (const link of responseLinks(contract, op, status)) {
          seen++;
          const row = section.indexOf(`| \`${op.operationId}\` \`${status}\` | \`${link.operationId}\``);
          expect(row, `${op.operationId} → ${link.operationId}`).toBeGreaterThan(0);
          // The state claim before the second table covers only links without x-svc-state: none.
          expect(row > handedOn, `${op.operationId} → ${link.operationId}`).toBe(!link.state);
          const answer = deref(reference, (listOperations(reference).find((o) => o.operationId === op.operationId)!.operation.responses as JsonObject)[status]);
          expect(String(answer.description), `${op.operationId} ${status}`).toContain(`- \`${link.operationId}\``);
        }
      }
    }
    expect(seen).toBeGreaterThanOrEqual(40);
  });

  it("has a mock section with the stateful mock's choices, from the mock's own constants", () => {
    const intro = String((reference.info as JsonObject).description);
    const mock = intro.slice(intro.indexOf("## The mock"), intro.indexOf("## Service change history"));
    expect(mock.length).toBeGreaterThan(500);
    for (const said of [
      `\`${WRONG_MFA_CODE}\` is wrong`,
      `\`${ANOTHER_MFA_CODE}\` asks for another code`,
      "`MEDFED` becomes `MCR`",
      MOCK_PATHS.state,
      "--stateful",
      "mock_state_full",
      "`zip_code`, no country",
      "feature_not_enabled",
    ])
      expect(mock).toContain(said);
  });
});

describe("unwrapMarkdown", () => {
  it("joins a paragraph's lines and keeps lists, tables, headings and code", () => {
    expect(unwrapMarkdown("the\nlatest one")).toBe("the latest one");
    expect(unwrapMarkdown("Intro:\n- one\n  more\n- two")).toBe("Intro:\n- one more\n- two");
    expect(unwrapMarkdown("| a |\n| b |")).toBe("| a |\n| b |");
    expect(unwrapMarkdown("## Title\ntext")).toBe("## Title\ntext");
    expect(unwrapMarkdown("```\nx\ny\n```")).toBe("```\nx\ny\n```");
    expect(unwrapMarkdown("one\n\ntwo")).toBe("one\n\ntwo");
  });
});
