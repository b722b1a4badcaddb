// The management API (provisional, named in 4.14, 5, 6 rule 7 and 9.4): called as an application calls it, through the
// package's ./management entry (createManagementClient), and the document's credential rules over raw HTTP.
import { describe, expect, it } from "vitest";
import { assertMatchesContract, operation, operations, responseExample } from "../support/contract.ts";
import { callOperation, PIPELINE_ID, SECOND_TEAM_ID, TEAM_ID, WEBHOOK_ID } from "../support/calls.ts";
import { bareClient, expectStatus, managementClient, mockUrl, prefer, TEST_API_KEY, TEST_MANAGEMENT_KEY } from "../support/mock.ts";

const management = operations.filter((op) => op.template.startsWith("/v2/management/"));
/** Org-level operations: only an org management key may call them (section 5, rule 1). */
const ORG_LEVEL = ["getOrg", "updateOrg", "createTeam", "deleteTeam", "listManagementKeys", "createManagementKey", "deleteManagementKey"];
const team = { team_id: TEAM_ID };

describe("an org management key sets up a team", () => {
  const api = managementClient();

  it("creates a team and gives it a team API key, whose secret only the creation shows", async () => {
    const created = await api.POST("/v2/management/teams", { body: { name: "Northwind Research" } });
    expectStatus(created, 201);
    expect(created.data.org_id).toBe("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d");

    const key = await api.POST("/v2/management/teams/{team_id}/api_keys", {
      params: { path: { team_id: created.data.id } },
      body: { label: "Backend production" },
    });
    expectStatus(key, 201);
    expect(key.data.api_key).toMatch(/^sk_test_/);

    const listed = await api.GET("/v2/management/teams/{team_id}/api_keys", { params: { path: team } });
    expectStatus(listed, 200);
    expect(listed.data.map((k) => k.key_preview)).toContain(key.data.key_preview);
    for (const k of listed.data) expect(k).not.toHaveProperty("api_key");

    const deleted = await api.DELETE("/v2/management/teams/{team_id}/api_keys/{api_key_id}", { params: { path: { ...team, api_key_id: key.data.id } } });
    expectStatus(deleted, 200);
    expect(deleted.data).toEqual({ id: key.data.id, deleted: true });
  });

  it("creates a team management key bound to two teams, which only the API can do (rule 3)", async () => {
    const created = await api.POST("/v2/management/keys", {
      body: { kind: "team", label: "Health and research operations", team_ids: [TEAM_ID, SECOND_TEAM_ID] },
    });
    expectStatus(created, 201);
    expect(created.data.kind).toBe("team");
    expect(created.data.team_ids).toEqual([TEAM_ID, SECOND_TEAM_ID]);
    expect(created.data.management_key).toMatch(/^mk_test_/);

    const orgKey = await api.POST("/v2/management/keys", { body: { kind: "org", label: "Platform automation" }, ...prefer("example=org") });
    expectStatus(orgKey, 201);
    expect(orgKey.data.team_ids).toEqual([]);

    const listed = await api.GET("/v2/management/keys");
    expectStatus(listed, 200);
    expect(new Set(listed.data.map((k) => k.kind))).toEqual(new Set(["org", "team"]));
    for (const k of listed.data) expect(k).not.toHaveProperty("management_key");
  });

  it("brands the link widget and reads the brand back", async () => {
    const brand = { display_name: "Northwind Health", logo_url: null, primary_color: "#0B5FFF", accent_color: null, support_url: null };
    const set = await api.PUT("/v2/management/teams/{team_id}/brand", { params: { path: team }, body: brand, ...prefer("example=minimal") });
    expectStatus(set, 200);
    expect(set.data).toEqual(brand);
    const read = await api.GET("/v2/management/teams/{team_id}/brand", { params: { path: team } });
    expectStatus(read, 200);
    assertMatchesContract("getTeamBrand", 200, read.data);
  });

  it("prepares and sets the team's own OAuth application, never returning its secret (the credential bulk import needs, 4.4)", async () => {
    const prepared = await api.POST("/v2/management/teams/{team_id}/custom_credentials/prepare", { params: { path: team }, body: { provider: "oura" } });
    expectStatus(prepared, 200);
    expect(prepared.data.redirect_uri).toMatch(/^https:\/\//);

    const set = await api.PUT("/v2/management/teams/{team_id}/custom_credentials/{provider}", {
      params: { path: { ...team, provider: "oura" } },
      body: { client_id: "northwind-oura-client-0001", client_secret: "example-client-secret-not-real-0001" },
    });
    expectStatus(set, 200);
    expect(set.data.client_id).toBe("northwind-oura-client-0001");
    expect(JSON.stringify(set.data)).not.toContain("example-client-secret");
  });

  it("adds a webhook endpoint with headers, shows its secret on creation and rotation only, then disables and deletes it", async () => {
    const created = await api.POST("/v2/management/teams/{team_id}/webhooks", {
      params: { path: team },
      body: {
        url: "https://hooks.northwind.example/svc/events",
        event_types: ["daily.data.", "provider.connection.created"],
        headers: { "X-Northwind-Route": "health-events" },
      },
    });
    expectStatus(created, 201);
    expect(created.data.secret).toMatch(/^whsec_/);
    expect(created.data.headers).toEqual({ "X-Northwind-Route": "health-events" });

    const read = await api.GET("/v2/management/teams/{team_id}/webhooks/{webhook_id}", { params: { path: { ...team, webhook_id: WEBHOOK_ID } } });
    expectStatus(read, 200);
    expect(read.data).not.toHaveProperty("secret");

    const rotated = await api.POST("/v2/management/teams/{team_id}/webhooks/{webhook_id}/rotate_secret", {
      params: { path: { ...team, webhook_id: WEBHOOK_ID } },
    });
    expectStatus(rotated, 200);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(created.data.secret);

    const disabled = await api.PATCH("/v2/management/teams/{team_id}/webhooks/{webhook_id}", {
      params: { path: { ...team, webhook_id: WEBHOOK_ID } },
      body: { enabled: false },
    });
    expectStatus(disabled, 200);
    expect(disabled.data.enabled).toBe(false);

    const deleted = await api.DELETE("/v2/management/teams/{team_id}/webhooks/{webhook_id}", { params: { path: { ...team, webhook_id: WEBHOOK_ID } } });
    expectStatus(deleted, 200);
    expect(deleted.data.deleted).toBe(true);
  });

  it("routes events to an event hub by event-type prefix, the shared access key write-only (6, rule 7)", async () => {
    const created = await api.POST("/v2/management/teams/{team_id}/etl_pipelines", {
      params: { path: team },
      body: {
        name: "Northwind analytics",
        destination: {
          type: "event_hub",
          namespace: "northwind-events.servicebus.windows.net",
          shared_access_key_name: "svc-send",
          shared_access_key: "example-shared-access-key-not-real-0001",
        },
        routes: [
          { event_type_prefix: "daily.data.", event_hub: "daily-data" },
          { event_type_prefix: "provider.connection.", event_hub: "connections" },
        ],
        default_event_hub: "all-other-events",
      },
    });
    expectStatus(created, 201);
    expect(created.data.routes.map((route) => route.event_type_prefix)).toEqual(["daily.data.", "provider.connection."]);
    expect(created.data.destination).not.toHaveProperty("shared_access_key");

    const listed = await api.GET("/v2/management/teams/{team_id}/etl_pipelines", { params: { path: team } });
    expectStatus(listed, 200);
    expect(listed.data.map((pipeline) => pipeline.id)).toContain(PIPELINE_ID);
  });

  it("reads and renames the organization", async () => {
    const org = await api.PATCH("/v2/management/org", { body: { name: "Northwind Health Group" } });
    expectStatus(org, 200);
    expect(org.data).toEqual(responseExample("getOrg", 200, "northwind"));
  });

  it("lists only the teams a team management key is bound to", async () => {
    const teams = await managementClient({ managementKey: "mk_test_team_0002_northwind_not_a_real_key" }).GET(
      "/v2/management/teams",
      prefer("example=team_key_scope"),
    );
    expectStatus(teams, 200);
    expect(teams.data.map((t) => t.name)).toEqual(["Northwind Health"]);
  });
});

describe("credentials of the management API (section 5), over raw HTTP where the client would refuse before sending", () => {
  async function raw(
    path: string,
    headers: Record<string, string>,
    init: RequestInit = {},
  ): Promise<{ status: number; body: { code?: string; message?: string } }> {
    const response = await fetch(`${mockUrl}${path}`, { ...init, headers: { ...headers, ...(init.body ? { "content-type": "application/json" } : {}) } });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
  }

  it("refuses a team API key alone on a management operation with 401 naming the management key (rule 2)", async () => {
    for (const path of ["/v2/management/org", "/v2/management/teams", `/v2/management/teams/${TEAM_ID}/api_keys`]) {
      const answer = await raw(path, { "x-svc-api-key": TEST_API_KEY });
      expect(answer.status, path).toBe(401);
      expect(answer.body.code).toBe("unauthorized");
      expect(answer.body.message).toContain("x-management-key");
      expect(answer.body.message).toContain("x-svc-api-key is another kind of credential");
      assertMatchesContract("getOrg", 401, answer.body);
    }
  });

  it("refuses a management key alone on the regular API with 401 naming the team API key (rule 2)", async () => {
    for (const header of ["X-Management-Key", "X-Svc-Org-Key"]) {
      const answer = await raw("/v3/lab_tests/labs", { [header]: TEST_MANAGEMENT_KEY });
      expect(answer.status, header).toBe(401);
      expect(answer.body.code).toBe("unauthorized");
      expect(answer.body.message).toContain("x-svc-api-key");
      assertMatchesContract("listLabs", 401, answer.body);
    }
  });

  it("says which header is missing when a management operation gets no credential", async () => {
    const answer = await raw("/v2/management/keys", {});
    expect(answer).toEqual({ status: 401, body: { code: "unauthorized", message: "The x-management-key, or x-svc-org-key header is missing." } });
    expect(answer.body).toEqual(responseExample("listManagementKeys", 401, "missing_credential"));
  });

  for (const op of management) {
    it(`accepts the deprecated X-Svc-Org-Key wherever X-Management-Key is: ${op.method} ${op.template}`, async () => {
      const result = await callOperation(bareClient({ "X-Svc-Org-Key": TEST_MANAGEMENT_KEY }), op.operationId);
      expect(result.status, JSON.stringify(result.error)).toBeGreaterThanOrEqual(200);
      expect(result.status).toBeLessThan(300);
      assertMatchesContract(op.operationId, result.status, result.data);
    });
  }

  for (const id of ORG_LEVEL) {
    const op = operation(id);
    it(`answers a team management key on the org-level ${op.method} ${op.template} with 403 org_key_required (rule 1)`, async () => {
      const result = await callOperation(managementClient({ managementKey: "mk_test_team_0002_northwind_not_a_real_key" }), id, prefer("code=403"));
      expect(result.status).toBe(403);
      expect(result.error).toEqual(responseExample(id, 403, "org_key_required"));
      assertMatchesContract(id, 403, result.error);
    });
  }

  it("answers a team management key on a team it is not bound to with 403 team_not_in_key_scope (rule 1)", async () => {
    const answer = await managementClient({ managementKey: "mk_test_team_0002_northwind_not_a_real_key" }).GET("/v2/management/teams/{team_id}", {
      params: { path: { team_id: SECOND_TEAM_ID } },
      ...prefer("code=403"),
    });
    expectStatus(answer, 403);
    expect(answer.error.code).toBe("team_not_in_key_scope");
  });

  it("declares 403 team_not_in_key_scope on every team operation that is not org-level", () => {
    for (const op of management.filter((o) => o.template.includes("{team_id}") && !ORG_LEVEL.includes(o.operationId))) {
      expect(Object.keys(op.operation.responses as object), op.operationId).toContain("403");
      expect(responseExample(op.operationId, 403, "team_not_in_key_scope"), op.operationId).toMatchObject({ code: "team_not_in_key_scope" });
    }
  });
});
