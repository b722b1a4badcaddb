// What the generated pass makes, as verify's outputs meet it, over fast-check's data for every input of every
// operation: the redactor learns each request as verify's own and each answer as the server's, the answer carrying a
// canary in every marked field, or, in every other one, the value verify sent (echoed, as a server storing it does). Free text then loses every canary, while verify's own sentences, every property name,
// every listed value of an enumeration, and every value verify generated and sent are written as they are (a
// reproduction must send them again).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isObject } from "../../src/contract/json.ts";
import { deref } from "../../src/contract/operations.ts";
import { Redactor } from "../../src/contract/redact.ts";
import { validCalls } from "../../src/contract/valid-calls.ts";
import { validArbitrary } from "../../src/verify/cases/arbitraries.ts";
import { buildRequest } from "../../src/verify/calls.ts";
import { inputsOf, inputValue, setInput } from "../../src/verify/cases/inputs.ts";
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
  "createInsurance 200: /insured/phone_number must match format; default_event_hub; /status must be one of: confirmed, pending, reserved",
].join("\n");

/** Every property name and every listed value of the contract: its own words. */
function contractWords(): string[] {
  const words = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (isObject(node.properties)) Object.keys(node.properties).forEach((name) => words.add(name));
    if (Array.isArray(node.enum)) node.enum.forEach((value) => words.add(String(value)));
    Object.values(node).forEach(visit);
  };
  visit(contract);
  return [...words];
}

/** The 2xx example each operation declares first: what a server's answer looks like, to fill with canaries. */
function answerOf(op: (typeof operations)[number]): { status: number; body: unknown } | undefined {
  for (const [status, response] of Object.entries(op.responses)) {
    if (!/^2\d\d$/.test(status) || !isObject(response) || !isObject(response.content)) continue;
    const media = response.content["application/json"];
    const examples = isObject(media) && isObject(media.examples) ? Object.values(media.examples) : [];
    const first = deref<unknown>(contract, examples[0]);
    const value = isObject(first) ? first.value : undefined;
    if (value !== undefined) return { status: Number(status), body: value };
  }
  return undefined;
}

describe("the generated pass's data and a server's marked values in verify's outputs", () => {
  it("writes every value verify made and every word of its own and the contract's, and none of a server's marked values", () => {
    const examples = validCalls(contract, operations);
    const redactor = new Redactor(contract);
    const made: string[] = [];
    const canaries: string[] = [];
    let observed = 0;
    for (const op of operations) {
      const base = examples[op.operationId]!;
      const declared = answerOf(op);
      // The answer as the redactor shows it: its placeholders are where the server's canaries go.
      const shown = declared === undefined ? undefined : JSON.stringify(redactor.response(op, declared.status, declared.body));
      for (const input of inputsOf(contract, op)) {
        const arbitrary = validArbitrary(contract, input.schema, inputValue(base, input));
        if (arbitrary === undefined) continue;
        for (const value of fc.sample(arbitrary, { numRuns: 30, seed: 32 })) {
          const call = structuredClone(base);
          setInput(call, input, value);
          const request = buildRequest("http://127.0.0.1:1", op, call, undefined);
          // The server answers with its own values in the marked fields: what the redactor says it removes there.
          let answer: { status: number; text: string } | undefined;
          if (declared !== undefined && shown !== undefined) {
            // Every other marked field echoes what verify sent (a server storing it): that stays verify's own.
            const echo = typeof value === "string" && value.length >= 4 ? JSON.stringify(value).slice(1, -1) : undefined;
            let index = 0;
            const withCanaries = shown.replace(/\[(phi|secret) removed\]/g, () => {
              if (echo !== undefined && index++ % 2 === 1) return echo;
              const canary = `cnry${String(canaries.length).padStart(6, "0")}qz`;
              canaries.push(canary);
              return canary;
            });
            answer = { status: declared.status, text: withCanaries };
          }
          redactor.observe(request, answer);
          if (typeof value === "string" && value.length >= 4) made.push(value);
          observed++;
        }
      }
    }
    expect(observed).toBeGreaterThan(1000);
    expect(canaries.length).toBeGreaterThan(300);
    expect(made.length).toBeGreaterThan(300);
    // The server's values leave a message quoting them, however it quotes them.
    for (const canary of canaries) expect(redactor.text(`the server holds ${canary}; "x":"${canary}"`)).not.toContain(canary);
    // verify's own words, the contract's words and what verify generated and sent are written as they are.
    expect(redactor.text(OWN_WORDS)).toBe(OWN_WORDS);
    const words = contractWords();
    expect(words.length).toBeGreaterThan(400);
    expect(words.filter((word) => redactor.text(word) !== word)).toEqual([]);
    expect(made.filter((value) => redactor.text(value) !== value)).toEqual([]);
  });
});
