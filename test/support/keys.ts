// The obviously fake credentials the tests send, in a module of their own so scripts outside vitest (the robustness survey) can read them.

/** An obviously fake team API key; the mock accepts any non-empty key. */
export const TEST_API_KEY = "sk_test_0000_not_a_real_key";
export const TEST_LINK_TOKEN = "lt_test_0000_not_a_real_token";
/** An obviously fake management key, for the management API (the mock accepts any non-empty key). */
export const TEST_MANAGEMENT_KEY = "mk_test_0000_not_a_real_key";
