// Gives each test file the running mock's address and generated clients bound to it.
import { inject } from "vitest";
import createFetchClient from "openapi-fetch";
import { createClient, type SvcClient } from "../../generated/client/index.js";
import type { paths } from "../../generated/schema.js";
import { TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY } from "./keys.ts";

export const mockUrl = inject("mockUrl");
export const prismUrl = inject("prismUrl");

export { TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY };

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
