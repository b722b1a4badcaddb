// verify's sender and a 429: the request is sent again after the answer's Retry-After (at most three times, if it asks
// for no longer than one request may take), every sender sharing the limiter waiting meanwhile, and only the last
// answer is given back. The limiter runs on a clock of the test's, so no test waits out a Retry-After.
import { afterEach, describe, expect, it } from "vitest";
import { RateLimiter, retryAfterMs, Sender } from "../../src/verify/sender.ts";
import { json, startStub, type StubServer } from "../support/stub-server.ts";

let stub: StubServer | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** A clock whose sleeps end at once, moving its time on: what the limiter decides, without the wait. */
function testClock() {
  const clock = {
    now: 0,
    clock: {
      now: () => clock.now,
      sleep: async (ms: number) => {
        await new Promise((resolve) => setImmediate(resolve));
        clock.now += ms;
      },
    },
  };
  return clock;
}

/** A server answering 429 with `retryAfter` to the first `limited` requests, then 200; noting the test clock at each arrival. */
async function limitedServer(limited: number, retryAfter: string, now: () => number) {
  const seen: { path: string; at: number }[] = [];
  stub = await startStub((arrival, res, index) => {
    seen.push({ path: arrival.url.pathname, at: now() });
    if (arrival.url.pathname === "/limited" && index < limited) json(res, 429, { code: "too_many_requests" }, { "retry-after": retryAfter });
    else json(res, 200, { ok: true });
  });
  return seen;
}

describe("verify's sender after a 429", () => {
  it("sends the request again after its Retry-After and gives back the answer that followed", async () => {
    const time = testClock();
    const seen = await limitedServer(2, "2", () => time.now);
    const sender = new Sender({ rate: undefined, limiter: new RateLimiter(undefined, time.clock) });
    const answer = await sender.send({ method: "GET", url: `${stub!.url}/limited`, headers: {} });
    expect(answer).toMatchObject({ kind: "answer", status: 200 });
    expect(seen.map((each) => each.at)).toEqual([0, 2000, 4000]);
    expect(sender.sent).toBe(3);
  });

  it("judges the fourth 429 as it came, and a Retry-After longer than a request may take at once", async () => {
    const time = testClock();
    const seen = await limitedServer(10, "1", () => time.now);
    const sender = new Sender({ rate: undefined, limiter: new RateLimiter(undefined, time.clock), timeoutMs: 5000 });
    expect(await sender.send({ method: "GET", url: `${stub!.url}/limited`, headers: {} })).toMatchObject({ status: 429 });
    expect(seen).toHaveLength(4);
    const patient = new Sender({ rate: undefined, limiter: new RateLimiter(undefined, time.clock), timeoutMs: 500 });
    expect(await patient.send({ method: "GET", url: `${stub!.url}/limited`, headers: {} })).toMatchObject({ status: 429 });
    expect(seen).toHaveLength(5);
  });

  it("holds every sender sharing the limiter until the Retry-After has passed", async () => {
    const time = testClock();
    const seen = await limitedServer(1, "3", () => time.now);
    const sender = new Sender({ rate: undefined, limiter: new RateLimiter(undefined, time.clock) });
    const other = sender.gated(async () => {});
    const first = sender.send({ method: "GET", url: `${stub!.url}/limited`, headers: {} });
    // The other sender asks once the 429 has come back, while the first waits it out.
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = other.send({ method: "GET", url: `${stub!.url}/free`, headers: {} });
    await Promise.all([first, second]);
    expect(seen.find((each) => each.path === "/free")!.at).toBeGreaterThanOrEqual(3000);
    // A gated view counts with the sender it came from: the run reports one count.
    expect(sender.sent).toBe(3);
  });

  it("reads a Retry-After in seconds or as a date", () => {
    expect(retryAfterMs("7")).toBe(7000);
    expect(retryAfterMs(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
