// The validating proxy (`--proxy`), on the mock's own host, in front of upstreams of the test's own on 127.0.0.1: an
// answer breaking the contract in one field passed on byte for byte and named in x-svc-contract-violations and the
// journal; an exchange keeping it left alone (a compressed answer still compressed); a redirect off-host passed back,
// never followed; silence, an endless body and no server at all answered by the proxy itself, in time and bounded;
// plain http to another machine refused before anything is sent; --record's HAR without the key or marked values.
import http from "node:http";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockHost } from "../../src/mock/host.ts";
import { createProxy, ProxyError, upstreamRefusal, VIOLATIONS_HEADER } from "../../src/mock/proxy.ts";
import { listenOnLoopback, type Listening } from "../../src/net/loopback-server.ts";
import { contract, responseExample } from "../support/contract.ts";
import { startHostile, startRecorder } from "../support/hostile-servers.ts";
import { freePort } from "../support/net.ts";
import { startStub, type StubServer } from "../support/stub-server.ts";

const KEY = "sk_test_proxy_0000_not_a_real_key";
const USER_ID = "8d2e4f6a-1b3c-4d5e-9f7a-2b4c6d8e0f1a";
/** The created user as the upstream sends it, spaced oddly so that any re-serialization would show: `user_id` is no uuid. */
const BROKEN_USER = Buffer.from(`{ "user_id" : "not-a-uuid",  "client_user_id": "patient-0002", "created_on": "2026-02-03T14:05:00Z" }`);
const VALID_USER = Buffer.from(JSON.stringify({ user_id: USER_ID, client_user_id: "patient-0003", created_on: "2026-02-03T14:05:00Z" }));
/** The latest user info, every field filled (names and address are marked phi), as gzip. */
const USER_INFO = responseExample("getLatestUserInfo", 200, "complete") as { first_name: string; address: { first_line: string } };
const USER_INFO_GZIP = gzipSync(JSON.stringify(USER_INFO));

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request over Node's client, the answer's bytes as they came (fetch would undo a gzip). */
function send(url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers: { ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const json = { "x-svc-api-key": KEY, "content-type": "application/json" };

/** An upstream whose answer never ends (chunks of 64 KiB as fast as they are read), counting what it got written until its peer hangs up. */
async function startEndless(): Promise<Listening & { written: () => number; closed: Promise<void> }> {
  let written = 0;
  let hungUp!: () => void;
  const closed = new Promise<void>((resolve) => (hungUp = resolve));
  const piece = Buffer.alloc(64 * 1024, 0x20);
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.on("close", hungUp);
    const pour = () => {
      while (!res.destroyed && written < 256 * 1024 * 1024) {
        written += piece.length;
        if (!res.write(piece)) return void res.once("drain", pour);
      }
    };
    pour();
  });
  return { ...(await listenOnLoopback(server)), written: () => written, closed };
}

/** The mock's host as `--proxy <upstream>` makes it, on a free port of 127.0.0.1. */
function startProxy(upstream: string, proxy: { record?: string; timeoutMs?: number; maxResponseBytes?: number } = {}): Promise<Listening> {
  return listenOnLoopback(createMockHost({ document: contract, staticFiles: {}, proxy: { upstream: new URL(upstream), ...proxy } }));
}

describe("the validating proxy", () => {
  let upstream: StubServer;
  let proxy: Listening;
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), "svc-proxy-"));
    upstream = await startStub((arrival, res) => {
      if (arrival.url.pathname === "/v2/user") {
        const broken = JSON.parse(arrival.body).client_user_id === "patient-0002";
        const body = broken ? BROKEN_USER : VALID_USER;
        res.writeHead(200, { "content-type": "application/json", "content-length": body.length, "x-upstream-trace": "t-1" }).end(body);
      } else if (arrival.url.pathname === `/v2/user/${USER_ID}/info/latest` && /gzip/.test(arrival.headers["accept-encoding"] ?? "")) {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": USER_INFO_GZIP.length }).end(USER_INFO_GZIP);
      } else res.writeHead(500).end();
    });
    proxy = await startProxy(upstream.url);
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), upstream?.close()]);
    await rm(scratch, { recursive: true, force: true });
  });

  it("passes on an answer breaking the contract in one field byte for byte, and names the field in its header and the journal", async () => {
    const body = JSON.stringify({ client_user_id: "patient-0002" });
    const answer = await send(`${proxy.url}/v2/user`, "POST", json, body);
    expect(answer.status).toBe(200);
    expect(answer.body.equals(BROKEN_USER)).toBe(true);
    expect(answer.headers["x-upstream-trace"]).toBe("t-1");
    expect(answer.headers[VIOLATIONS_HEADER]).toBe('1; response 200: /user_id must match format "uuid"');
    // The upstream got the request as it was sent, its credential with it, addressed to itself.
    const arrived = upstream.arrivals.at(-1)!;
    expect([arrived.method, arrived.body, arrived.headers["x-svc-api-key"], arrived.headers.host]).toEqual(["POST", body, KEY, new URL(upstream.url).host]);

    const journal = await send(`${proxy.url}/_mock/journal?operation_id=createUser`, "GET", { "x-svc-api-key": KEY });
    const entries = JSON.parse(journal.body.toString()).entries as { status: number; contract_violations?: string[]; headers: Record<string, string> }[];
    expect(entries.at(-1)).toMatchObject({ status: 200, contract_violations: ['response 200: /user_id must match format "uuid"'] });
    expect(JSON.stringify(entries)).not.toContain(KEY);
  });

  it("forwards a request breaking the contract all the same, and names each thing wrong with it", async () => {
    const answer = await send(`${proxy.url}/v2/user`, "POST", { ...json, accept: "text/html" }, JSON.stringify({ client_user_id: 5 }));
    expect(answer.status).toBe(200);
    expect(answer.body.equals(VALID_USER)).toBe(true);
    expect(upstream.arrivals.at(-1)!.body).toBe('{"client_user_id":5}');
    // In the mock's order (credential, Accept, body, parameters); a line's own semicolon becomes a comma in the header.
    expect(answer.headers[VIOLATIONS_HEADER]).toBe(
      "2; request: Every answer is application/json, the Accept header (text/html) allows none; request: /client_user_id must be string",
    );
  });

  it("adds nothing to an exchange that keeps the contract; a compressed answer stays compressed, and is checked decoded", async () => {
    const answer = await send(`${proxy.url}/v2/user/${USER_ID}/info/latest`, "GET", { "x-svc-api-key": KEY, "accept-encoding": "gzip" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("gzip");
    expect(answer.body.equals(USER_INFO_GZIP)).toBe(true);
    expect(answer.headers[VIOLATIONS_HEADER]).toBeUndefined();
  });

  it("records every exchange as HAR, the credential masked and the values the contract marks removed", async () => {
    const file = path.join(scratch, "exchanges.har");
    const recording = await startProxy(upstream.url, { record: file });
    try {
      await send(`${recording.url}/v2/user`, "POST", json, JSON.stringify({ client_user_id: "patient-0002" }));
      await send(`${recording.url}/v2/user/${USER_ID}/info/latest`, "GET", { "x-svc-api-key": KEY, "accept-encoding": "gzip" });
      // Written after each answer, a whole HAR each time.
      await expect.poll(async () => JSON.parse(await readFile(file, "utf8")).log.entries.length).toBe(2);
    } finally {
      await recording.close();
    }
    const text = await readFile(file, "utf8");
    const { log } = JSON.parse(text) as {
      log: {
        version: string;
        entries: {
          request: { url: string; headers: { name: string; value: string }[] };
          response: { status: number; content: { text?: string } };
          comment?: string;
        }[];
      };
    };
    expect(log.version).toBe("1.2");
    expect(text).not.toContain(KEY);
    const [created, info] = log.entries;
    expect(created!.request.headers).toContainEqual({ name: "x-svc-api-key", value: `[credential …${KEY.slice(-4)}]` });
    expect(created!.comment).toBe('contract violations: response 200: /user_id must match format "uuid"');
    expect(info!.request.url).toBe(`${upstream.url}/v2/user/${USER_ID}/info/latest`);
    // The names and the address are marked phi: the answer (decoded from its gzip) is kept without them.
    for (const marked of [USER_INFO.first_name, USER_INFO.address.first_line]) expect(text).not.toContain(marked);
    expect(JSON.parse(info!.response.content.text!).first_name).toBe("[phi removed]");
  });
});

describe("the validating proxy before an upstream that misbehaves", () => {
  it("passes a redirect to another host back as it came, not followed, and names it", async () => {
    const elsewhere = await startRecorder();
    const redirecting = await startHostile("redirect-elsewhere", { elsewhere: elsewhere.origin });
    const proxy = await startProxy(redirecting.url);
    try {
      const answer = await send(`${proxy.url}/v2/user`, "POST", json, JSON.stringify({ client_user_id: "patient-0003" }));
      expect(answer.status).toBe(307);
      expect(answer.headers.location).toBe(`${elsewhere.origin}/v2/user`);
      expect(answer.headers[VIOLATIONS_HEADER]).toMatch(/^1; response 307: not a status createUser declares \(200, .*\), and the proxy did not follow it$/);
      expect(elsewhere.heads).toEqual([]);
    } finally {
      await Promise.all([proxy.close(), redirecting.close(), elsewhere.close()]);
    }
  });

  it("answers 504 naming the upstream when it does not answer within the deadline", async () => {
    const silent = await startHostile("never-answers");
    const proxy = await startProxy(silent.url, { timeoutMs: 200 });
    try {
      const started = performance.now();
      const answer = await send(`${proxy.url}/v3/lab_tests/labs`, "GET", { "x-svc-api-key": KEY });
      // Far under the proxy's default deadline (30 s), which a deadline ignored would wait out; far over 0.2 s, busy or not.
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(answer.status).toBe(504);
      expect(JSON.parse(answer.body.toString())).toEqual({
        code: "upstream_timeout",
        message: `${silent.url} did not answer within 0.2 s, the proxy's deadline.`,
      });
    } finally {
      await Promise.all([proxy.close(), silent.close()]);
    }
  });

  it("answers 502 naming its bound when the answer runs past it, and stops reading there", async () => {
    const endless = await startEndless();
    const proxy = await startProxy(endless.url, { maxResponseBytes: 64 * 1024 });
    try {
      const answer = await send(`${proxy.url}/v3/lab_tests/labs`, "GET", { "x-svc-api-key": KEY });
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body.toString())).toMatchObject({
        code: "upstream_answer_too_large",
        message: expect.stringContaining("over 65536 bytes, the proxy's bound"),
      });
      // The connection is dropped there: what the upstream got written is the bound and the sockets' buffers, no more.
      await endless.closed;
      expect(endless.written()).toBeLessThan(4 * 1024 * 1024);
    } finally {
      await Promise.all([proxy.close(), endless.close()]);
    }
  });

  it("sends an idempotent request once more when the kept-alive connection it went out on was closed under it, and a POST not", async () => {
    // Answers the first request of each connection, and drops the connection at the second: a server closing an idle one.
    const served = new WeakMap<object, number>();
    const dropping = await listenOnLoopback(
      http.createServer((req, res) => {
        const count = (served.get(req.socket) ?? 0) + 1;
        served.set(req.socket, count);
        if (count > 1) return void req.socket.destroy();
        req.resume();
        res.writeHead(200, { "content-type": "application/json" }).end("[]");
      }),
    );
    const proxy = await startProxy(dropping.url);
    try {
      const labs = () => send(`${proxy.url}/v3/lab_tests/labs`, "GET", { "x-svc-api-key": KEY });
      expect([(await labs()).status, (await labs()).status]).toEqual([200, 200]);
      const created = await send(`${proxy.url}/v2/user`, "POST", json, JSON.stringify({ client_user_id: "patient-0003" }));
      expect(created.status).toBe(502);
      expect(JSON.parse(created.body.toString()).code).toBe("upstream_unreachable");
    } finally {
      await Promise.all([proxy.close(), dropping.close()]);
    }
  });

  it("answers 502 naming the upstream it cannot reach", async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const proxy = await startProxy(nowhere);
    try {
      const answer = await send(`${proxy.url}/v3/lab_tests/labs`, "GET", { "x-svc-api-key": KEY });
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body.toString())).toEqual({ code: "upstream_unreachable", message: `${nowhere} could not be reached: ECONNREFUSED.` });
    } finally {
      await proxy.close();
    }
  });
});

describe("the upstream a proxy takes", () => {
  it("refuses plain http to another machine, which would carry every credential in the clear", () => {
    expect(upstreamRefusal(new URL("http://sandbox.example.com/api"))).toMatch(
      /^--proxy http:\/\/sandbox\.example\.com is plain http to another machine.*use its https address, or a tunnel to it on 127\.0\.0\.1$/,
    );
    expect(() => createProxy({ document: contract, upstream: new URL("http://10.0.0.8:8080"), log: () => {} })).toThrow(ProxyError);
    expect(upstreamRefusal(new URL("https://user:secret@sandbox.example.com"))).toMatch(/not in the upstream's URL/);
    for (const fine of ["https://sandbox.example.com/api", "http://127.0.0.1:4010", "http://127.8.0.1", "http://localhost:8080", "http://[::1]:8080"]) {
      expect(upstreamRefusal(new URL(fine)), fine).toBeUndefined();
    }
  });
});
