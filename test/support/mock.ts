// Gives each test file the running mock's address and generated clients bound to it.
import { inject } from "vitest";
import createFetchClient from "openapi-fetch";
import { createClient, type SvcClient } from "../../generated/client/index.js";
import type { paths } from "../../generated/schema.js";

export const mockUrl = inject("mockUrl");
export const prismUrl = inject("prismUrl");

/** An obviously fake team API key; the mock accepts any non-empty key. */
export const TEST_API_KEY = "sk_test_0000_not_a_real_key";
export const TEST_LINK_TOKEN = "lt_test_0000_not_a_real_token";
/** An obviously fake management key, for the management API (the mock accepts any non-empty key). */
export const TEST_MANAGEMENT_KEY = "mk_test_0000_not_a_real_key";

export function client(
  credentials: { apiKey?: string; linkToken?: string; managementKey?: string } = { apiKey: TEST_API_KEY, linkToken: TEST_LINK_TOKEN, managementKey: TEST_MANAGEMENT_KEY },
): SvcClient {
  return createClient({ baseUrl: mockUrl, ...credentials }) as SvcClient;
}

/** Bare openapi-fetch, which sends exactly the headers it is given: for the refusals the package's client stops before sending. */
export function bareClient(headers: Record<string, string> = {}) {
  return createFetchClient<paths>({ baseUrl: mockUrl, headers });
}

/** Asserts an answer's status and narrows it to that branch, so the test reads the body the contract declares for it. */
export function expectStatus<A extends { status: number }, S extends A["status"]>(answer: A, status: S): asserts answer is Extract<A, { status: S }> {
  if (answer.status !== status) throw new Error(`expected status ${status}, got ${answer.status}: ${JSON.stringify(answer)}`);
}

export function prefer(value: string): { headers: { Prefer: string } } {
  return { headers: { Prefer: value } };
}
