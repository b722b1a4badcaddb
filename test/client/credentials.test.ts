// Each client sends each of its operations the credential its contract names, refuses before sending when it lacks it,
// holds only its own entry's operations, and checks its options.
import { describe, expect, it } from "vitest";
import { createClient, MissingCredentialError } from "../../generated/client/index.js";
import { createManagementClient } from "../../generated/management/index.js";
import { callOperation } from "../support/calls.ts";
import { contract, operations } from "../support/contract.ts";

const HEADERS = ["x-svc-api-key", "x-svc-link-token", "x-management-key", "x-svc-org-key"];
const schemes = (contract.components as { securitySchemes: Record<string, { name: string }> }).securitySchemes;
/** The client option and the test value of each credential header the client sends (never the deprecated org key). */
const OPTION_OF: Record<string, { option: string; value: string }> = {
  "x-svc-api-key": { option: "apiKey", value: "sk_test_a" },
  "x-svc-link-token": { option: "linkToken", value: "lt_test_b" },
  "x-management-key": { option: "managementKey", value: "mk_test_c" },
};

const isManagement = (template: string): boolean => template.startsWith("/v2/management/");

/** A fetch that records what it was sent and answers `{}`. */
function recorder() {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request);
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  };
  return { seen, fetch };
}

function recording(credentials: { apiKey?: string; linkToken?: string }) {
  const { seen, fetch } = recorder();
  return { api: createClient({ baseUrl: "http://client.invalid", ...credentials, fetch }), seen };
}

function recordingManagement(credentials: { managementKey?: string }) {
  const { seen, fetch } = recorder();
  return { api: createManagementClient({ baseUrl: "http://client.invalid", ...credentials, fetch }), seen };
}

/** The client of the operation's entry, given every credential (or the same empty ones), recording what it sends. */
function recordingFor(template: string, given: "all" | "none" | "empty") {
  const value = (credential: string) => (given === "all" ? credential : given === "empty" ? "" : undefined);
  return isManagement(template)
    ? recordingManagement({ managementKey: value("mk_test_c") })
    : recording({ apiKey: value("sk_test_a"), linkToken: value("lt_test_b") });
}

describe("createClient credentials", () => {
  for (const op of operations) {
    // The header of the operation's first security requirement is the one the client sends.
    const header = schemes[op.securitySchemes[0]!]!.name.toLowerCase();
    it(`sends ${op.method} ${op.template} ${header} and no other credential`, async () => {
      const { api, seen } = recordingFor(op.template, "all");
      await callOperation(api, op.operationId);
      expect(seen).toHaveLength(1);
      for (const name of HEADERS) {
        expect(seen[0]!.headers.get(name)).toBe(name === header ? OPTION_OF[name]!.value : null);
      }
    });

    it(`refuses ${op.method} ${op.template} without ${header}, before sending, naming the option`, async () => {
      for (const given of ["none", "empty"] as const) {
        const { api, seen } = recordingFor(op.template, given);
        const error = await callOperation(api, op.operationId).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(MissingCredentialError);
        const option = OPTION_OF[header]!.option;
        expect((error as MissingCredentialError).option).toBe(option);
        expect((error as Error).message).toContain(`\`${option}\``);
        expect((error as Error).message.toLowerCase()).toContain(header);
        expect(seen).toHaveLength(0);
      }
    });
  }

  it("adds a credential to a copy of the client with withCredentials, leaving the original as it was", async () => {
    const { api, seen } = recording({ apiKey: "sk_test_a" });
    const linked = api.withCredentials({ linkToken: "lt_test_c" });
    await linked.POST("/v2/link/provider/password/{provider}/complete_mfa", { params: { path: { provider: "whoop" } }, body: { mfa_code: "1" } });
    expect(seen[0]!.headers.get("x-svc-link-token")).toBe("lt_test_c");
    await linked.GET("/v3/lab_tests/labs");
    expect(seen[1]!.headers.get("x-svc-api-key")).toBe("sk_test_a");
    // The recording helper's options are typed `string | undefined`, so only the run-time check can refuse this one.
    const error = await api
      .POST("/v2/link/provider/password/{provider}/complete_mfa", { params: { path: { provider: "whoop" } }, body: { mfa_code: "1" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingCredentialError);
  });

  it("lets a header set on the call override the client's credential, or stand in for a missing one", async () => {
    const { api, seen } = recording({ apiKey: "sk_test_a" });
    await api.GET("/v3/lab_tests/labs", { headers: { "X-Svc-Api-Key": "sk_test_other_team" } });
    expect(seen[0]!.headers.get("x-svc-api-key")).toBe("sk_test_other_team");
    const bare = recording({});
    await bare.api.GET("/v3/lab_tests/labs", { headers: { "x-svc-api-key": "sk_test_per_call" } });
    expect(bare.seen[0]!.headers.get("x-svc-api-key")).toBe("sk_test_per_call");
  });

  it("lets the management key, or the deprecated org key header, set on the call stand in for a missing managementKey", async () => {
    for (const header of ["X-Management-Key", "x-management-key", "X-Svc-Org-Key"]) {
      const { api, seen } = recordingManagement({});
      await api.GET("/v2/management/org", { headers: { [header]: "mk_test_per_call" } } as never);
      expect(seen[0]!.headers.get(header), header).toBe("mk_test_per_call");
    }
    const { api, seen } = recordingManagement({ managementKey: "mk_test_c" });
    await api.GET("/v2/management/org");
    expect(seen[0]!.headers.get("x-management-key")).toBe("mk_test_c");
    expect(seen[0]!.headers.get("x-svc-org-key")).toBeNull();
  });

  it("refuses a path that is not an operation of the contract before sending", async () => {
    const { api, seen } = recording({ apiKey: "sk_test_a" });
    // @ts-expect-error not a path of the contract
    await expect(api.GET("/v3/not/a/path")).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(0);
  });
});

describe("each entry holds its own operations", () => {
  const management = operations.filter((op) => isManagement(op.template));
  const regular = operations.filter((op) => !isManagement(op.template));

  it("splits the contract: the management API to createManagementClient, the rest to createClient", () => {
    expect(management.length).toBeGreaterThan(20);
    expect(regular.length).toBeGreaterThan(20);
    expect(management.length + regular.length).toBe(operations.length);
  });

  for (const op of management) {
    it(`refuses ${op.method} ${op.template} through createClient before sending, naming the management entry`, async () => {
      const { api, seen } = recording({ apiKey: "sk_test_a", linkToken: "lt_test_b" });
      const error = await callOperation(api, op.operationId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(
        `${op.method} ${op.template} is not an operation of createClient: the management API is createManagementClient's, from @svc/health-api-contract/management`,
      );
      expect(seen).toHaveLength(0);
    });
  }

  for (const op of regular) {
    it(`refuses ${op.method} ${op.template} through createManagementClient before sending`, async () => {
      const { api, seen } = recordingManagement({ managementKey: "mk_test_c" });
      const error = await callOperation(api, op.operationId).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe(
        `${op.method} ${op.template} is not an operation of createManagementClient: the rest of the contract is createClient's, from @svc/health-api-contract/client`,
      );
      expect(seen).toHaveLength(0);
    });
  }

  it("takes no managementKey in createClient: the option does not compile, and is not sent if forced", async () => {
    const { seen, fetch } = recorder();
    // @ts-expect-error the management key belongs to createManagementClient
    const api = createClient({ baseUrl: "http://client.invalid", apiKey: "sk_test_a", fetch, managementKey: "mk_test_c" });
    await api.GET("/v3/lab_tests/labs");
    expect(seen[0]!.headers.get("x-management-key")).toBeNull();
    // @ts-expect-error a management path does not compile through createClient
    await expect(api.GET("/v2/management/org")).rejects.toThrow(/createManagementClient/);
  });
});

describe("a path the client does not have", () => {
  it("is refused before sending, naming the nearest path the client has first (a typo, a method for another)", async () => {
    const { seen, fetch } = recorder();
    const api = createClient({ baseUrl: "http://client.invalid", apiKey: "sk_test_a", fetch });
    // @ts-expect-error a typo of /v3/lab_tests/labs
    const typo = await api.GET("/v3/lab_test/labs").catch((error: unknown) => error);
    expect(typo).toBeInstanceOf(TypeError);
    expect((typo as Error).message).toBe("GET /v3/lab_test/labs is not an operation of createClient; did you mean GET /v3/lab_tests/labs?");
    // @ts-expect-error createUser is a POST
    await expect(api.GET("/v2/user")).rejects.toThrow(/^GET \/v2\/user is not an operation of createClient; did you mean POST \/v2\/user\?$/);
    // Nothing near, and not the management API's: no guess, and no other client named.
    // @ts-expect-error not a path of the contract
    await expect(api.GET("/completely/elsewhere")).rejects.toThrow(/^GET \/completely\/elsewhere is not an operation of createClient$/);
    expect(seen).toHaveLength(0);
  });

  it("names the management API only for a management path, even one the management API does not have", async () => {
    const { api, seen } = recording({ apiKey: "sk_test_a" });
    // @ts-expect-error a typo of a management path
    await expect(api.GET("/v2/management/orgs")).rejects.toThrow(
      /^GET \/v2\/management\/orgs is not an operation of createClient: the management API is createManagementClient's, from @svc\/health-api-contract\/management$/,
    );
    // @ts-expect-error a typo that only looks like the management API's
    await expect(api.GET("/v2/managment/org")).rejects.toThrow(/^GET \/v2\/managment\/org is not an operation of createClient$/);
    expect(seen).toHaveLength(0);
  });

  it("on createManagementClient, names the nearest management path first, and createClient only for another path", async () => {
    const { api, seen } = recordingManagement({ managementKey: "mk_test_c" });
    // @ts-expect-error a typo of /v2/management/teams
    await expect(api.GET("/v2/management/team")).rejects.toThrow(
      /^GET \/v2\/management\/team is not an operation of createManagementClient; did you mean GET \/v2\/management\/teams\?$/,
    );
    // @ts-expect-error a typo of a path of createClient's
    await expect(api.GET("/v3/lab_test/labs")).rejects.toThrow(
      /^GET \/v3\/lab_test\/labs is not an operation of createManagementClient: the rest of the contract is createClient's, from @svc\/health-api-contract\/client$/,
    );
    expect(seen).toHaveLength(0);
  });

  it("is refused by paginate with the same TypeError, before sending", async () => {
    const { api, seen } = recording({ apiKey: "sk_test_a" });
    // @ts-expect-error a typo of /v3/orders
    const pages = api.paginate("GET", "/v3/order");
    const error = await pages.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("GET /v3/order is not an operation of createClient; did you mean GET /v3/orders?");
    expect(seen).toHaveLength(0);
  });

  it("keeps the caller's place in the error's stack, though its message's end is loaded later", async () => {
    const { api } = recording({ apiKey: "sk_test_a" });
    // Not an async function: only an error made during the call, not after a later load, has this frame in its stack.
    function callingWithATypo() {
      // @ts-expect-error a typo of /v3/lab_tests/labs
      return api.GET("/v3/lab_test/labs");
    }
    const error = (await callingWithATypo().catch((e: unknown) => e)) as Error;
    expect(error.stack).toContain("did you mean GET /v3/lab_tests/labs?");
    expect(error.stack).toContain("callingWithATypo");
  });
});

describe("createClient options", () => {
  for (const baseUrl of [undefined, "", "api.svc.example", "/v2", "ftp://files.example", "http://"]) {
    it(`refuses the baseUrl ${JSON.stringify(baseUrl)} when the client is made`, () => {
      expect(() => createClient({ baseUrl } as never)).toThrow(/baseUrl must be the service's absolute http\(s\) address/);
    });
  }

  it("refuses a timeout that is not a number of milliseconds >= 0", () => {
    for (const timeoutMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, "10" as unknown as number]) {
      expect(() => createClient({ baseUrl: "http://x.invalid", timeoutMs })).toThrow(/timeoutMs/);
    }
  });

  it("refuses a credential that is not a string", () => {
    expect(() => createClient({ baseUrl: "http://x.invalid", apiKey: 42 as unknown as string })).toThrow(/apiKey must be a string/);
  });
});
