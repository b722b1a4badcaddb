// The proxy every workflow request goes through: it forwards requests and answers unchanged (status, headers, body),
// spaces them by verify's limiter, and answers 502 naming what happened when the target cannot be reached, redirects
// (never followed), answers too much, in an encoding left undone or in bytes that are not UTF-8.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Sender } from "../../src/verify/sender.ts";
import { startWorkflowProxy, type WorkflowProxy } from "../../src/verify/workflows/workflow-proxy.ts";
import { startHostile, startRecorder, type HostileKind } from "../support/hostile-servers.ts";
import { freePort } from "../support/net.ts";
import { json, startStub } from "../support/stub-server.ts";

let proxy: WorkflowProxy;
beforeAll(async () => {
  proxy = await startWorkflowProxy(inject("mockUrl"), new Sender({ rate: 20 }));
});
afterAll(() => proxy.close());

const KEY = { "x-svc-api-key": "sk_test_0000_not_a_real_key" };

describe("the workflows' proxy", () => {
  it("forwards a request and its answer unchanged", async () => {
    for (const [path, init] of [
      ["/v3/lab_tests/labs", { headers: KEY }],
      ["/v2/user", { method: "POST", headers: { ...KEY, "content-type": "application/json" }, body: JSON.stringify({ client_user_id: "patient-0001" }) }],
      ["/v2/user", { method: "POST", headers: { ...KEY, "content-type": "application/json" }, body: "{" }],
    ] as const) {
      const [direct, proxied] = await Promise.all([fetch(`${inject("mockUrl")}${path}`, init), fetch(`${proxy.url}${path}`, init)]);
      expect([proxied.status, proxied.headers.get("content-type"), await proxied.text()]).toEqual([
        direct.status,
        direct.headers.get("content-type"),
        await direct.text(),
      ]);
    }
  });

  it("forwards neither way a header of one hop: a proxy's credentials, or one the Connection header names", async () => {
    const target = await startStub((_arrival, res) =>
      json(res, 200, { ok: true }, { connection: "keep-alive, x-answer-hop", "x-answer-hop": "1", "proxy-authenticate": "Basic" }),
    );
    const guarded = await startWorkflowProxy(target.url, new Sender({ rate: undefined }));
    try {
      // Node's own client: fetch will not send a Connection header of the caller's.
      const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const { port } = new URL(guarded.url);
        const request = http.request(
          {
            host: "127.0.0.1",
            port,
            path: "/v3/lab_tests/labs",
            headers: { ...KEY, "proxy-authorization": "Basic bm90OmFzZWNyZXQ=", connection: "x-request-hop", "x-request-hop": "1" },
          },
          resolve,
        );
        request.on("error", reject).end();
      });
      answer.resume();
      expect(answer.statusCode).toBe(200);
      expect(Object.keys(answer.headers)).not.toEqual(expect.arrayContaining(["x-answer-hop"]));
      expect(answer.headers["proxy-authenticate"]).toBeUndefined();
      const [arrival] = target.arrivals;
      expect(arrival!.headers["x-svc-api-key"]).toBe(KEY["x-svc-api-key"]);
      expect(arrival!.headers["proxy-authorization"]).toBeUndefined();
      expect(arrival!.headers["x-request-hop"]).toBeUndefined();
    } finally {
      await Promise.all([guarded.close(), target.close()]);
    }
  });

  it("spaces requests by the limiter, concurrent ones included", async () => {
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${proxy.url}/v3/lab_tests/labs`, { headers: KEY })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Six requests at 20 a second: at least five intervals of 50 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("answers 502 naming the target when it cannot be reached", async () => {
    const port = await freePort();
    const nowhere = await startWorkflowProxy(`http://127.0.0.1:${port}`, new Sender({ rate: undefined }));
    try {
      const answer = await fetch(`${nowhere.url}/v3/lab_tests/labs`);
      expect(answer.status).toBe(502);
      // The system's code, and the host and port it met (verify's sender walks fetch's causes for them).
      expect(((await answer.json()) as { message: string }).message).toBe(
        `verify did not take the answer of http://127.0.0.1:${port}: connection failed: ECONNREFUSED 127.0.0.1:${port}`,
      );
    } finally {
      await nowhere.close();
    }
  });

  for (const [kind, code, says] of [
    ["redirect-elsewhere", "verify_redirect_refused", /answered 307, a redirect to http:\/\/127\.0\.0\.2:\d+\/v2\/user; verify follows no redirect/],
    ["redirect-loop", "verify_redirect_refused", /answered 302, a redirect to \/v2\/user/],
    ["gzip-bomb", "verify_proxy_error", /a body over 1048576 bytes, verify's limit/],
    ["endless-chunked", "verify_proxy_error", /a body over 1048576 bytes, verify's limit/],
    ["invalid-utf8", "verify_proxy_error", /a body that is not UTF-8/],
    ["unknown-encoding", "verify_proxy_error", /Content-Encoding zstd/],
    ["never-answers", "verify_proxy_error", /no answer within 0.3 s/],
  ] as const satisfies readonly (readonly [HostileKind, string, RegExp])[]) {
    it(`answers 502 ${code} to respect for ${kind}, and nothing reaches another origin`, async () => {
      const recorder = await startRecorder();
      const server = await startHostile(kind, { elsewhere: recorder.origin });
      const guarded = await startWorkflowProxy(server.url, new Sender({ rate: undefined, timeoutMs: 300, maxResponseBytes: 1024 * 1024 }));
      try {
        const answer = await fetch(`${guarded.url}/v2/user`, { method: "POST", headers: { ...KEY, "content-type": "application/json" }, body: "{}" });
        expect(answer.status).toBe(502);
        const body = (await answer.json()) as { code: string; message: string };
        expect(body.code).toBe(code);
        expect(body.message).toMatch(says);
        expect(recorder.heads).toEqual([]);
      } finally {
        await Promise.all([guarded.close(), server.close(), recorder.close()]);
      }
    });
  }
});
