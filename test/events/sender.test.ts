// `npm run events` posts every kind's example, signed, to a receiver on 127.0.0.1 and reports what it answered: a receiver
// that verifies with the same secret takes them all, one that holds another secret refuses them all.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseWebhook } from "../../generated/webhooks/index.js";
import { sendEvents } from "../../scripts/commands/send-events.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { startStub, type StubServer } from "../support/stub-server.ts";
import { contract } from "../support/contract.ts";

const run = promisify(execFile);
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
let receiver: StubServer;
/** The secret the receiver verifies with, and the kinds it has taken. */
let receiverSecret = SECRET;
const received: string[] = [];

beforeAll(async () => {
  receiver = await startStub(async (arrival, res) => {
    try {
      const event = await parseWebhook(arrival.body, arrival.headers as Record<string, string>, receiverSecret);
      received.push(event.kind);
      res.writeHead(204).end();
    } catch {
      res.writeHead(400).end();
    }
  });
});
afterAll(() => receiver.close());

describe("npm run events", () => {
  it("delivers every kind to a receiver that verifies with the same secret", async () => {
    receiverSecret = SECRET;
    received.length = 0;
    const deliveries = await sendEvents(contract, { to: receiver.url, secret: SECRET });
    expect(deliveries.map((d) => d.kind)).toEqual(Object.keys(contract.webhooks as object));
    expect(deliveries.filter((d) => d.status !== 204)).toEqual([]);
    expect(received).toEqual(deliveries.map((d) => d.kind));
  });

  it("reports every kind refused by a receiver that holds another secret", async () => {
    receiverSecret = "whsec_b3RoZXJfc2VjcmV0X25vdF9hX3JlYWxfb25l";
    const deliveries = await sendEvents(contract, { to: receiver.url, secret: SECRET, kinds: ["daily.data.heartrate.created", "provider.connection.created"] });
    expect(deliveries.map((d) => d.status)).toEqual([400, 400]);
  });

  it("runs as a command: one kind, a summary line, exit 0 when delivered and 1 when refused", async () => {
    receiverSecret = SECRET;
    const args = ["tsx", "scripts/commands/send-events.ts", "--to", receiver.url, "--kind", "daily.data.sleep_cycle.created", "--secret", SECRET];
    const ok = await run("npx", args, { cwd: repoRoot });
    expect(ok.stdout).toMatch(/^204 .* daily\.data\.sleep_cycle\.created {2}delivered$/m);
    expect(ok.stdout).toContain("events: 1 delivered, 0 refused or unanswered");
    receiverSecret = "whsec_b3RoZXJfc2VjcmV0X25vdF9hX3JlYWxfb25l";
    const refused = await run("npx", args, { cwd: repoRoot }).catch((error: { code: number; stdout: string }) => error);
    expect("code" in refused ? refused.code : 0).toBe(1);
    expect(refused.stdout).toContain("refused: the service would retry");
  });

  it("follows no redirect: the event stays with the receiver it was sent to", async () => {
    const elsewhere = await startStub((_, res) => void res.writeHead(204).end());
    const redirecting = await startStub((_, res) => void res.writeHead(307, { location: `${elsewhere.url}/hooks` }).end());
    try {
      const deliveries = await sendEvents(contract, { to: redirecting.url, secret: SECRET, kinds: ["provider.connection.created"] });
      expect(deliveries.map((d) => [d.status, d.location])).toEqual([[307, `${elsewhere.url}/hooks`]]);
      expect(redirecting.arrivals).toHaveLength(1);
      expect(elsewhere.arrivals).toEqual([]);
    } finally {
      await Promise.all([redirecting.close(), elsewhere.close()]);
    }
  });

  it("says so, and exits 2, for a kind the contract does not have", async () => {
    const failed = await run("npx", ["tsx", "scripts/commands/send-events.ts", "--to", receiver.url, "--kind", "daily.data.nothing.created"], {
      cwd: repoRoot,
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in failed ? failed.code : 0).toBe(2);
    expect(failed.stderr).toContain("no such event kind: daily.data.nothing.created");
  });
});
