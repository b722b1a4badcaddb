// Gives each test file the running mock's address and generated clients bound to it.
import { inject } from "vitest";
import createFetchClient from "openapi-fetch";
import { createClient, type SvcClient } from "../../generated/client/index.js";
import { createManagementClient, type ManagementClient } from "../../generated/management/index.js";
import type { paths } from "../../generated/schema.js";
import { TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY } from "./keys.ts";

export const mockUrl = inject("mockUrl");

export { TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY };

export function client(credentials: { apiKey?: string; linkToken?: string } = { apiKey: TEST_API_KEY, linkToken: TEST_LINK_TOKEN }): SvcClient {
  return createClient({ baseUrl: mockUrl, ...credentials }) as SvcClient;
}

/** The management API's client (the package's ./management entry), with the management key unless told otherwise. */
export function managementClient(credentials: { managementKey?: string } = { managementKey: TEST_MANAGEMENT_KEY }): ManagementClient {
  return createManagementClient({ baseUrl: mockUrl, ...credentials }) as ManagementClient;
}

/** The package's client whose entry holds the path, with every test credential it takes: for tests that go through every operation. */
export function clientFor(template: string): SvcClient | ManagementClient {
  return template.startsWith("/v2/management/") ? managementClient() : client();
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
