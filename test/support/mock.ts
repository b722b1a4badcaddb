// Gives each test file the running mock's address and generated clients bound to it.
import { inject } from "vitest";
import { createClient, type SvcClient } from "../../generated/client.js";

export const mockUrl = inject("mockUrl");
export const prismUrl = inject("prismUrl");

/** An obviously fake team API key; the mock accepts any non-empty key. */
export const TEST_API_KEY = "sk_test_0000_not_a_real_key";
export const TEST_LINK_TOKEN = "lt_test_0000_not_a_real_token";

export function client(credentials: { apiKey?: string; linkToken?: string } = { apiKey: TEST_API_KEY, linkToken: TEST_LINK_TOKEN }): SvcClient {
  return createClient({ baseUrl: mockUrl, ...credentials });
}

export function prefer(value: string): { headers: { Prefer: string } } {
  return { headers: { Prefer: value } };
}
