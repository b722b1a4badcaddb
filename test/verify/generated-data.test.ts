// What the generated pass makes, as the outputs meet it: verify's redactor removes every value the contract marks as
// health data or a secret from free text wherever it turns up, so generated marked values must not be words of
// verify's own sentences (a value "call" once turned "a call made with" into "a [phi removed] made with" in a report).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Redactor } from "../../src/contract/redact.ts";
import { validCalls } from "../../src/contract/valid-calls.ts";
import { validArbitrary } from "../../src/verify/arbitraries.ts";
import { buildRequest } from "../../src/verify/calls.ts";
import { inputsOf, inputValue, setInput } from "../../src/verify/inputs.ts";
import { USAGE } from "../../src/verify/options.ts";
import { contract, operations } from "../support/contract.ts";

/** verify's own words: its help, and check names of every kind. */
const OWN_WORDS = [
  USAGE,
  "createTeamApiKey → listProviders: a call made with the credential it gave answers",
  "deleteTeam → getTeam: what was deleted is gone",
  "createWebhookEndpoint: generated valid calls are accepted (40 cases)",
  "listOrders: query size=100 (its maximum)",
  "the mock forgets this run's team and org (DELETE /_mock/state)",
].join("\n");

describe("the generated pass's data in verify's outputs", () => {
  it("never makes a marked value that cuts a word out of verify's own sentences", () => {
    const examples = validCalls(contract, operations);
    const redactor = new Redactor(contract);
    let observed = 0;
    for (const op of operations) {
      const base = examples[op.operationId]!;
      for (const input of inputsOf(contract, op)) {
        const made = validArbitrary(contract, input.schema, inputValue(base, input));
        if (made === undefined) continue;
        for (const value of fc.sample(made, { numRuns: 60, seed: 22 })) {
          const call = structuredClone(base);
          setInput(call, input, value);
          redactor.observe(buildRequest("http://127.0.0.1:1", op, call, undefined));
          observed++;
        }
      }
    }
    expect(observed).toBeGreaterThan(1000);
    // The redactor did learn generated values (health data in insurance and the link's users, among others)...
    expect(redactor.text(JSON.stringify(examples.createInsurance!.body))).not.toBe(JSON.stringify(examples.createInsurance!.body));
    // ...and none of them is a word of verify's.
    expect(redactor.text(OWN_WORDS)).toBe(OWN_WORDS);
  });
});
