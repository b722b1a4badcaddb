// Following a bulk import with List Bulk Ops (4.4, rule 3) and the historical pulls of connections (3), called as an application calls them through the generated client.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, requestExample, responseExample } from "../support/contract.ts";
import { SECOND_USER_ID, USER_ID } from "../support/calls.ts";
import { client, expectStatus, prefer } from "../support/mock.ts";
import type { BulkImportRequest } from "../../generated/client/index.js";

describe("GET /v2/link/bulk_op", () => {
  it("follows an import answered 202: each operation has its provider, status, counts and users", async () => {
    const api = client();
    const imported = await api.POST("/v2/link/bulk_import", { body: requestExample("bulkImportConnections", "oura_two_users") as BulkImportRequest });
    expect(imported.status).toBe(202);

    const answer = await api.GET("/v2/link/bulk_op", { params: { query: { provider: "oura" } } });
    expectStatus(answer, 200);
    assertMatchesContract("listBulkOps", 200, answer.data);
    expect(answer.data.bulk_ops.length).toBeGreaterThan(0);
    for (const op of answer.data.bulk_ops) {
      const { submitted, imported: done, failed, pending } = op.counts;
      expect(submitted, op.id).toBe(done + failed + pending);
      expect(op.user_ids_imported.length, op.id).toBe(done);
      expect(op.user_ids_failed.length, op.id).toBe(failed);
      expect(Date.parse(op.updated_at)).toBeGreaterThanOrEqual(Date.parse(op.created_at));
      if (op.status === "completed") expect(pending, op.id).toBe(0);
      if (op.status === "in_progress") expect(pending, op.id).toBeGreaterThan(0);
    }
  });

  it("pages through every operation with paginate", async () => {
    const seen: string[] = [];
    for await (const op of client().paginate("GET", "/v2/link/bulk_op", {})) seen.push(op.id);
    const first = responseExample("listBulkOps", 200, "in_progress_and_completed") as { bulk_ops: { id: string }[] };
    expect(seen).toEqual(first.bulk_ops.map((op) => op.id));
  });

  it("answers an empty page for a team without operations", async () => {
    const answer = await client().GET("/v2/link/bulk_op", prefer("example=none"));
    expectStatus(answer, 200);
    expect(answer.data.bulk_ops).toEqual([]);
  });
});

describe("GET /v2/introspect/historical_pull", () => {
  it("reports, per connection and resource, the historical pull status", async () => {
    const answer = await client().GET("/v2/introspect/historical_pull");
    expectStatus(answer, 200);
    assertMatchesContract("getHistoricalPullIntrospection", 200, answer.data);
    const statuses = answer.data.connections.flatMap((connection) => connection.resources.map((resource) => resource.status));
    expect(statuses).toEqual(expect.arrayContaining(["not_started", "in_progress", "success", "failure", "Retrying"]));
  });

  it("reaches Retrying for the user whose pull the service is retrying, on a connection established after 9 May 2025", async () => {
    // No Prefer header: filtering on the examples' second user answers their connection.
    const answer = await client().GET("/v2/introspect/historical_pull", { params: { query: { user_id: SECOND_USER_ID, provider: "fitbit" } } });
    expectStatus(answer, 200);
    const [connection] = answer.data.connections;
    expect(connection?.user_id).toBe(SECOND_USER_ID);
    expect(Date.parse(connection!.connected_at)).toBeGreaterThan(Date.parse("2025-05-09T23:59:59Z"));
    const retrying = connection!.resources.find((resource) => resource.status === "Retrying");
    expect(retrying?.next_retry_at).toBeTruthy();
    expect(retrying?.ended_at).toBeNull();
  });

  it("says 404 for a user_id the team does not have", async () => {
    const answer = await client().GET("/v2/introspect/historical_pull", { params: { query: { user_id: USER_ID } }, ...prefer("code=404") });
    expectStatus(answer, 404);
    expect(answer.error.code).toBe("not_found");
  });
});
