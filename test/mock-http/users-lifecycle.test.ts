// Creating and deleting users (the change notes of 4.14 and 9.4; 3, 7.3, 8), called the way an application calls them through the generated client.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, responseExample } from "../support/contract.ts";
import { SECOND_USER_ID, USER_ID } from "../support/calls.ts";
import { client, expectStatus, prefer } from "../support/mock.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

describe("POST /v2/user", () => {
  it("creates a user for a client_user_id no user has, and returns its user_id", async () => {
    const answer = await client().POST("/v2/user", { body: { client_user_id: "patient-0002" } });
    expectStatus(answer, 200);
    expect(answer.data).toEqual(responseExample("createUser", 200, "created"));
    expect(answer.data.client_user_id).toBe("patient-0002");
    expect(answer.data.user_id).toBe(SECOND_USER_ID);
  });

  it("answers 400 for a client_user_id that belongs to a user, naming that user's id and creation date (7.3)", async () => {
    // No Prefer header: the mock applies the document's rule to patient-0001, the examples' existing user.
    const answer = await client().POST("/v2/user", { body: { client_user_id: "patient-0001" } });
    expectStatus(answer, 400);
    assertMatchesContract("createUser", 400, answer.error);
    expect(answer.error.code).toBe("user_already_exists");
    // 400 also answers malformed JSON, with the plain error body: the conflict is the one that names a user.
    if (!("user_id" in answer.error)) throw new Error("the conflict body names no user");
    expect(answer.error.user_id).toBe(USER_ID);
    expect(answer.error.created_on).toBe("2026-01-12T08:30:00Z");
    expect(answer.error.message).toContain("patient-0001");
  });

  it("lets an application carry on with the existing user after the conflict", async () => {
    const created = await client().POST("/v2/user", { body: { client_user_id: "patient-0001" } });
    const userId = created.status === 200 ? created.data.user_id : created.status === 400 && "user_id" in created.error ? created.error.user_id : undefined;
    expect(userId).toBe(USER_ID);
    const token = await client().POST("/v2/user/{user_id}/sign_in_token", { params: { path: { user_id: userId! } } });
    expect(token.status).toBe(200);
  });

  it("refuses a missing client_user_id with 422", async () => {
    // @ts-expect-error client_user_id is required
    const answer = await client().POST("/v2/user", { body: {} });
    expectStatus(answer, 422);
    expect(answer.error.details).toContainEqual(expect.objectContaining({ location: "body", field: "/client_user_id" }));
  });
});

describe("DELETE /v2/user/{user_id}", () => {
  it("schedules the deletion to take effect after the 7-day grace period (3, 8)", async () => {
    const answer = await client().DELETE("/v2/user/{user_id}", { params: { path: { user_id: SECOND_USER_ID } } });
    expectStatus(answer, 200);
    assertMatchesContract("deleteUser", 200, answer.data);
    expect(answer.data.user_id).toBe(SECOND_USER_ID);
    const requested = Date.parse(answer.data.deletion_requested_at);
    const effective = Date.parse(answer.data.deletion_takes_effect_at);
    expect(effective - requested).toBe(7 * DAY_MS);
  });

  it("says 404 for a user the team does not have", async () => {
    const answer = await client().DELETE("/v2/user/{user_id}", { params: { path: { user_id: SECOND_USER_ID } }, ...prefer("code=404") });
    expectStatus(answer, 404);
    expect(answer.error.code).toBe("not_found");
  });

  it("is retried like any idempotent call", async () => {
    const answer = await client().DELETE("/v2/user/{user_id}", { params: { path: { user_id: SECOND_USER_ID } }, retry: true });
    expect(answer.status).toBe(200);
  });
});

describe("POST /v2/user/{user_id}/undo_delete", () => {
  const path = { user_id: SECOND_USER_ID };

  it("restores the user within the grace period", async () => {
    const answer = await client().POST("/v2/user/{user_id}/undo_delete", { params: { path } });
    expectStatus(answer, 200);
    expect(answer.data).toEqual(responseExample("undoUserDeletion", 200, "restored"));
    expect(answer.data.user_id).toBe(SECOND_USER_ID);
  });

  it("answers 410 after the grace period, with a clear code and the date the deletion took effect", async () => {
    const answer = await client().POST("/v2/user/{user_id}/undo_delete", { params: { path }, ...prefer("code=410") });
    expectStatus(answer, 410);
    assertMatchesContract("undoUserDeletion", 410, answer.error);
    expect(answer.error.code).toBe("deletion_grace_period_over");
    expect(answer.error.user_id).toBe(SECOND_USER_ID);
    expect(answer.error.message).toContain(answer.error.deleted_on);
    // The deletion took effect exactly when the deletion answer said it would.
    const scheduled = responseExample("deleteUser", 200, "scheduled") as { deletion_takes_effect_at: string };
    expect(answer.error.deleted_on).toBe(scheduled.deletion_takes_effect_at);
  });

  it("says 404 for a user the team never had", async () => {
    const answer = await client().POST("/v2/user/{user_id}/undo_delete", { params: { path }, ...prefer("code=404") });
    expectStatus(answer, 404);
    expect(answer.error.code).toBe("not_found");
  });

  it("throws an ApiError carrying the code in throwing mode", async () => {
    const { createClient, isApiError } = await import("../../generated/client/index.js");
    const { mockUrl, TEST_API_KEY } = await import("../support/mock.ts");
    const strict = createClient({ baseUrl: mockUrl, apiKey: TEST_API_KEY, throwOnError: true });
    const error = await strict.POST("/v2/user/{user_id}/undo_delete", { params: { path }, ...prefer("code=410") }).catch((e: unknown) => e);
    expect(isApiError(error)).toBe(true);
    expect((error as { status: number; code: string }).status).toBe(410);
    expect((error as { code: string }).code).toBe("deletion_grace_period_over");
  });
});
