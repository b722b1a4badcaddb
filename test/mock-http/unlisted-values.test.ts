// A value a non-exhaustive enumeration does not list is answered by both mocks as a listed one is, as the published
// contract says, with x-svc-mock-warning naming it; a value of another type is still refused with 422.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../scripts/commands/mock-server.ts";
import { MOCK_WARNING } from "../../src/mock/http-vocabulary.ts";
import { requestExample } from "../support/contract.ts";
import { ORDER_ID, TEAM_ID, USER_ID } from "../support/calls.ts";
import { mockUrl, TEST_API_KEY, TEST_LINK_TOKEN, TEST_MANAGEMENT_KEY } from "../support/mock.ts";

/** What a request reaches on a mock: a team's key, one of its users, a link token for that user, a managed team. */
interface Reach {
  apiKey: string;
  userId: string;
  /** A token each time: completing MFA consumes the one it is given on the stateful mock. */
  linkToken: () => Promise<string>;
  managementKey: string;
  teamId: string;
}

async function call(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    warning: response.headers.get(MOCK_WARNING),
    body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** The stateful mock's answers depend on what the team did: a user of its own, a token for it, a team it manages. */
async function reachOnStateful(base: string): Promise<Reach> {
  const apiKey = `sk_test_${randomUUID()}`;
  const managementKey = `mk_test_${randomUUID()}`;
  const user = await call(base, "POST", "/v2/user", { "x-svc-api-key": apiKey }, { client_user_id: randomUUID() });
  const linkToken = async () =>
    String((await call(base, "POST", "/v2/link/token", { "x-svc-api-key": apiKey }, { user_id: user.body!.user_id })).body!.link_token);
  const team = await call(base, "POST", "/v2/management/teams", { "x-management-key": managementKey }, { name: "Unlisted values" });
  return { apiKey, userId: String(user.body!.user_id), linkToken, managementKey, teamId: String(team.body!.id) };
}

/** One place an open enumeration takes a value, and a request that puts a value there. */
interface Place {
  where: string;
  /** The field as the warning names it. */
  field: string;
  listed: string;
  send: (base: string, reach: Reach, value: unknown) => ReturnType<typeof call>;
}

const PLACES: Place[] = [
  {
    where: "a path parameter (completeProviderMfa's provider)",
    field: "provider",
    listed: "whoop",
    send: async (base, reach, value) =>
      call(base, "POST", `/v2/link/provider/password/${String(value)}/complete_mfa`, { "x-svc-link-token": await reach.linkToken() }, { mfa_code: "482913" }),
  },
  {
    where: "a path parameter of the management API (setTeamCustomCredential's provider)",
    field: "provider",
    listed: "oura",
    send: (base, reach, value) =>
      call(
        base,
        "PUT",
        `/v2/management/teams/${reach.teamId}/custom_credentials/${String(value)}`,
        { "x-management-key": reach.managementKey },
        requestExample("setTeamCustomCredential", "oura"),
      ),
  },
  {
    where: "a query parameter (listOrders' interpretation)",
    field: "interpretation",
    listed: "abnormal",
    send: (base, reach, value) => call(base, "GET", `/v3/orders?interpretation=${String(value)}`, { "x-svc-api-key": reach.apiKey }),
  },
  {
    where: "a query parameter's list (getOrderPscInfo's capabilities)",
    field: "capabilities",
    listed: "stat",
    send: (base, reach, value) =>
      call(base, "GET", `/v3/order/${ORDER_ID}/psc/info?capabilities=stat&capabilities=${String(value)}`, { "x-svc-api-key": reach.apiKey }),
  },
  {
    where: "a query filter of a stateful list (listBulkOps' provider)",
    field: "provider",
    listed: "oura",
    send: (base, reach, value) => call(base, "GET", `/v2/link/bulk_op?provider=${String(value)}`, { "x-svc-api-key": reach.apiKey }),
  },
  {
    where: "a body (createInsurance's relationship)",
    field: "relationship",
    listed: "Spouse",
    send: (base, reach, value) =>
      call(
        base,
        "POST",
        `/v2/user/${reach.userId}/insurance`,
        { "x-svc-api-key": reach.apiKey },
        { ...(requestExample("createInsurance", "commercial_plan") as object), relationship: value },
      ),
  },
  {
    where: "a body (bulkImportConnections' provider)",
    field: "provider",
    listed: "oura",
    send: (base, reach, value) => {
      const body = requestExample("bulkImportConnections", "oura_two_users") as { provider: unknown; connections: { user_id: string }[] };
      body.provider = value;
      body.connections = [{ ...body.connections[0]!, user_id: reach.userId }];
      return call(base, "POST", "/v2/link/bulk_import", { "x-svc-api-key": reach.apiKey }, body);
    },
  },
  {
    where: "a body of the management API (prepareTeamCustomCredentials' provider)",
    field: "provider",
    listed: "oura",
    send: (base, reach, value) =>
      call(base, "POST", `/v2/management/teams/${reach.teamId}/custom_credentials/prepare`, { "x-management-key": reach.managementKey }, { provider: value }),
  },
  {
    where: "an object nested in a body (createEtlPipeline's destination.type)",
    field: "destination/type",
    listed: "event_hub",
    send: (base, reach, value) => {
      const body = requestExample("createEtlPipeline", "event_hub_routing") as { destination: { type: unknown } };
      body.destination.type = value;
      return call(base, "POST", `/v2/management/teams/${reach.teamId}/etl_pipelines`, { "x-management-key": reach.managementKey }, body);
    },
  },
  {
    where: "a list in a body (createLinkToken's filter_on_providers)",
    field: "filter_on_providers/0",
    listed: "oura",
    send: (base, reach, value) =>
      call(base, "POST", "/v2/link/token", { "x-svc-api-key": reach.apiKey }, { user_id: reach.userId, filter_on_providers: [value] }),
  },
];

function placesOn(mock: () => { base: string; reach: Reach }): void {
  for (const place of PLACES) {
    describe(place.where, () => {
      it("answers an unlisted value 2xx, with a warning naming it", async () => {
        const { base, reach } = mock();
        const answer = await place.send(base, reach, "not_listed_yet");
        expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        expect(answer.warning).toMatch(
          new RegExp(
            `^${place.field} "not_listed_yet" is not one of the values the contract lists \\(.+\\); the service may add values, and may refuse one it does not support$`,
          ),
        );
      });

      it("answers a listed value 2xx, with no warning", async () => {
        const { base, reach } = mock();
        const answer = await place.send(base, reach, place.listed);
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        expect(answer.warning).toBeNull();
      });

      // Path and query values are text, so only a body can carry a value of another type.
      if (place.where.includes("body")) {
        it("still refuses a number with 422 naming the field", async () => {
          const { base, reach } = mock();
          const answer = await place.send(base, reach, 42);
          expect(answer.status).toBe(422);
          expect(answer.body?.details).toContainEqual({ location: "body", field: `/${place.field}`, message: "must be string" });
        });
      }
    });
  }
}

describe("the mock", () => {
  placesOn(() => ({
    base: mockUrl,
    reach: { apiKey: TEST_API_KEY, userId: USER_ID, linkToken: async () => TEST_LINK_TOKEN, managementKey: TEST_MANAGEMENT_KEY, teamId: TEAM_ID },
  }));
});

describe("the stateful mock", () => {
  let stateful: RunningMock;
  let reach: Reach;
  beforeAll(async () => {
    stateful = await startMock({ port: 0, stateful: {} });
    reach = await reachOnStateful(stateful.url);
  });
  afterAll(() => stateful?.stop());

  placesOn(() => ({ base: stateful.url, reach }));
});
