// The stateful mock's event deliveries: signed, retried on failure, a redirect taken as the answer (not followed), at
// most DELIVERY_CONCURRENCY in flight with DELIVERY_QUEUE waiting and the rest dropped and logged, and the team's log
// kept to its last DELIVERY_LOG entries; the mock's log writes an endpoint's URL without its query.
import http from "node:http";
import { describe, expect, it, type TestContext } from "vitest";
import { listenOnLoopback, type Listening } from "../../src/net/loopback-server.ts";
import { createDeliverer, DELIVERY_CONCURRENCY, DELIVERY_QUEUE } from "../../src/mock/state/deliveries.ts";
import { DEFAULT_SETTINGS, DELIVERY_LOG, newTeam, type TeamState } from "../../src/mock/state/model.ts";
import { parseWebhook } from "../../generated/webhooks/index.js";
import { newSecret } from "../../src/webhooks/signature.ts";

/** A receiver on loopback, closed when the test that started it finishes (the tests run at once: each waits out retries). */
async function receiver(test: TestContext, handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => handle(req, res, body));
  });
  const listening: Listening = await listenOnLoopback(server);
  test.onTestFinished(() => listening.close());
  return listening.url;
}

function teamWith(url: string): TeamState {
  const team = newTeam("deliveries", DEFAULT_SETTINGS);
  const at = new Date().toISOString();
  team.webhooks.set("hook", {
    id: "hook",
    team_id: team.id,
    url,
    event_types: ["provider.connection.created"],
    headers: { "x-route": "tests" },
    enabled: true,
    description: null,
    created_at: at,
    updated_at: at,
    secret: newSecret(),
  });
  return team;
}

const EVENT = { event_type: "provider.connection.created", team_id: "t", user_id: "u", client_user_id: "c", data: { provider: "whoop" } };
const until = async (done: () => boolean) => {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(done()).toBe(true);
};

describe.concurrent("event deliveries", () => {
  it("are signed with the endpoint's secret, carry its headers, and are tried again after a failure", async (test) => {
    const { expect } = test;
    const arrivals: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const url = await receiver(test, (req, res, body) => {
      arrivals.push({ headers: req.headers, body });
      res.writeHead(arrivals.length < 3 ? 500 : 204).end();
    });
    const team = teamWith(url);
    createDeliverer(() => {})(team, EVENT);
    await until(() => team.deliveries.length === 1);
    expect(team.deliveries[0]).toMatchObject({ status: 204, attempts: 3, url });
    const last = arrivals.at(-1)!;
    expect(last.headers["x-route"]).toBe("tests");
    const event = await parseWebhook(last.body, last.headers as Record<string, string>, team.webhooks.get("hook")!.secret);
    expect(event.kind).toBe("provider.connection.created");
  }, 10_000);

  it("take a redirect as the receiver's answer and go nowhere else", async (test) => {
    const { expect } = test;
    let followed = false;
    const elsewhere = await receiver(test, (_req, res) => {
      followed = true;
      res.writeHead(204).end();
    });
    const url = await receiver(test, (_req, res) => res.writeHead(302, { location: elsewhere }).end());
    const team = teamWith(url);
    createDeliverer(() => {})(team, EVENT);
    await until(() => team.deliveries.length === 1);
    expect(team.deliveries[0]).toMatchObject({ status: 302, attempts: 3 });
    expect(followed).toBe(false);
  }, 10_000);

  it(`run at most ${DELIVERY_CONCURRENCY} at once, queue ${DELIVERY_QUEUE}, drop the rest saying so, and log the last ${DELIVERY_LOG}`, async (test) => {
    const { expect } = test;
    let open = 0;
    let most = 0;
    const held: http.ServerResponse[] = [];
    const url = await receiver(test, (_req, res) => {
      most = Math.max(most, ++open);
      held.push(res);
    });
    // A receiver's token in its query: the mock's log leaves it out.
    const team = teamWith(`${url}/hook?token=rcv_query_token_0123456789`);
    const lines: string[] = [];
    const deliver = createDeliverer((line) => lines.push(line));
    const extra = 5;
    for (let i = 0; i < DELIVERY_CONCURRENCY + DELIVERY_QUEUE + extra; i++) deliver(team, EVENT);
    await until(() => held.length === DELIVERY_CONCURRENCY);
    expect(team.deliveries.filter((entry) => entry.attempts === 0)).toHaveLength(extra);
    expect(lines.filter((line) => line.includes("dropped"))).toHaveLength(extra);
    expect(lines[0]).toContain(`${url}/hook?[query not logged]`);
    expect(lines.join("\n")).not.toContain("rcv_query_token_0123456789");
    // Answer everything, now and as it comes: the queue drains through the same few slots.
    const answerAll = setInterval(() => {
      for (const res of held.splice(0)) {
        open--;
        res.writeHead(204).end();
      }
    }, 5);
    try {
      await until(() => team.deliveries.length === DELIVERY_LOG && team.deliveries.every((entry) => entry.status === 204));
    } finally {
      clearInterval(answerAll);
    }
    expect(most).toBeLessThanOrEqual(DELIVERY_CONCURRENCY);
  }, 15_000);
});
