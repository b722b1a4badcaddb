// The six summary endpoints of 4.14, with the redefined source object of 6.2 and 6.3, called as an application calls them through the generated client.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, responseExample } from "../support/contract.ts";
import { USER_ID } from "../support/calls.ts";
import { client, expectStatus, prefer } from "../support/mock.ts";

const path = { user_id: USER_ID };
const query = { start_date: "2026-03-01", end_date: "2026-03-02" };

/** Reads every summary endpoint the way a dashboard would: one call per resource, the list under the resource's key. */
async function readAll(init: { headers?: Record<string, string> } = {}) {
  const api = client();
  const [activity, body, meal, profile, sleep, workouts] = await Promise.all([
    api.GET("/v2/summary/activity/{user_id}", { params: { path, query }, ...init }),
    api.GET("/v2/summary/body/{user_id}", { params: { path, query }, ...init }),
    api.GET("/v2/summary/meal/{user_id}", { params: { path, query }, ...init }),
    api.GET("/v2/summary/profile/{user_id}", { params: { path, query }, ...init }),
    api.GET("/v2/summary/sleep/{user_id}", { params: { path, query }, ...init }),
    api.GET("/v2/summary/workouts/{user_id}", { params: { path, query }, ...init }),
  ]);
  return { activity, body, meal, profile, sleep, workouts };
}

const OPERATION: Record<string, string> = {
  activity: "listActivitySummaries",
  body: "listBodySummaries",
  meal: "listMealSummaries",
  profile: "listProfileSummaries",
  sleep: "listSleepSummaries",
  workouts: "listWorkoutSummaries",
};

describe("GET /v2/summary/{resource}/{user_id}", () => {
  it("answers each resource's summaries under its own key, for the user and the date range", async () => {
    const answers = await readAll();
    for (const [resource, answer] of Object.entries(answers)) {
      expectStatus(answer, 200);
      assertMatchesContract(OPERATION[resource]!, 200, answer.data);
      const summaries = (answer.data as unknown as Record<string, { user_id: string }[]>)[resource]!;
      expect(summaries.length, resource).toBeGreaterThan(0);
      for (const summary of summaries) expect(summary.user_id).toBe(USER_ID);
    }
  });

  it("gives every summary a source with the provider's slug and the source type (6.2, 6.3)", async () => {
    const { activity, body, meal, profile, sleep, workouts } = await readAll();
    const sources = [
      ...(activity.ok ? activity.data.activity : []),
      ...(body.ok ? body.data.body : []),
      ...(meal.ok ? meal.data.meal : []),
      ...(profile.ok ? profile.data.profile : []),
      ...(sleep.ok ? sleep.data.sleep : []),
      ...(workouts.ok ? workouts.data.workouts : []),
    ].map((summary) => summary.source);
    expect(sources.length).toBeGreaterThanOrEqual(12);
    for (const source of sources) {
      expect(source.provider).toMatch(/^[a-z0-9_]+$/);
      expect(typeof source.type).toBe("string");
    }
  });

  it("keeps the dates in the range asked for", async () => {
    const { activity, sleep, workouts } = await readAll();
    const dates = [...(activity.ok ? activity.data.activity : []), ...(sleep.ok ? sleep.data.sleep : []), ...(workouts.ok ? workouts.data.workouts : [])].map(
      (summary) => summary.calendar_date,
    );
    for (const date of dates) expect(date >= query.start_date && date <= query.end_date, date).toBe(true);
  });

  it("still carries the deprecated name, logo and slug where the service sends them, slug equal to provider", async () => {
    const answer = await client().GET("/v2/summary/activity/{user_id}", { params: { path, query } });
    expectStatus(answer, 200);
    const withOld = answer.data.activity.map((summary) => summary.source).filter((source) => source.slug !== undefined);
    expect(withOld.length).toBeGreaterThan(0);
    for (const source of withOld) expect(source.slug).toBe(source.provider);
  });

  it("answers an empty list for a range without data", async () => {
    const answers = await readAll(prefer("example=empty"));
    for (const [resource, answer] of Object.entries(answers)) {
      expectStatus(answer, 200);
      expect(answer.data).toEqual({ [resource]: [] });
    }
  });

  it("takes start_date alone, and a provider filter", async () => {
    const answer = await client().GET("/v2/summary/sleep/{user_id}", { params: { path, query: { start_date: "2026-03-01", provider: "oura" } } });
    expectStatus(answer, 200);
    expect(answer.data).toEqual(responseExample("listSleepSummaries", 200, "two_days"));
  });

  it("refuses a call without start_date with 422 naming it", async () => {
    // @ts-expect-error start_date is required
    const answer = await client().GET("/v2/summary/body/{user_id}", { params: { path, query: { end_date: "2026-03-02" } } });
    expectStatus(answer, 422);
    expect(answer.error.details).toContainEqual(expect.objectContaining({ location: "query", field: "start_date" }));
  });

  it("says 404 for a user the team does not have", async () => {
    const answer = await client().GET("/v2/summary/meal/{user_id}", { params: { path, query }, ...prefer("code=404") });
    expectStatus(answer, 404);
    expect(answer.error.code).toBe("not_found");
  });
});
