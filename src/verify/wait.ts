// `--wait <s>`: a server that is starting (a container a CI job just started, a mock sent to the background) is waited
// for before the run, with the probe's own request, rather than failing every check at once; past the time, what it
// last got is what the target check says.
import { setTimeout as sleep } from "node:timers/promises";
import type { HttpAnswer, Sender } from "./sender.ts";
import { probeRequest } from "./target.ts";

/** Between two tries: short, since a mock starts in under a second, and the rate limiter spaces them further if it must. */
const POLL_MS = 250;

/** What a connection to a server still starting fails with: nothing listens yet, or it closed the connection mid-start. */
const NOT_LISTENING = /\b(ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET)\b/;
/** What a gateway in front of a server still starting answers. */
const GATEWAY_WAITING = new Set([502, 503, 504]);

/** Whether an answer is a server still starting's (worth another try), rather than an answer or a failure of its own. */
export function stillStarting(answer: HttpAnswer): boolean {
  return answer.kind === "failure" ? NOT_LISTENING.test(answer.error) : GATEWAY_WAITING.has(answer.status);
}

function described(answer: HttpAnswer): string {
  return answer.kind === "failure" ? answer.error : `answered ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ""}`;
}

export type Waited = { ready: true } | { ready: false; error: string };

/** Tries the target until it answers or `waitMs` is past, saying that it waits (once) and when it answered. */
export async function waitForTarget(sender: Sender, baseUrl: string, waitMs: number, log: (line: string) => void): Promise<Waited> {
  const started = performance.now();
  const seconds = waitMs / 1000;
  for (let tries = 1; ; tries++) {
    const answer = await sender.send(probeRequest(baseUrl));
    const elapsed = performance.now() - started;
    if (!stillStarting(answer)) {
      if (tries > 1) log(`verify: ${baseUrl} answers, after ${(elapsed / 1000).toFixed(1)} s`);
      return { ready: true };
    }
    if (tries === 1) log(`verify: waiting up to ${seconds} s (--wait) for ${baseUrl}, which is not answering yet (${described(answer)})`);
    if (elapsed >= waitMs)
      return { ready: false, error: `${baseUrl} did not answer within ${seconds} s (--wait ${seconds}); the last try: ${described(answer)}` };
    await sleep(Math.min(POLL_MS, waitMs - elapsed));
  }
}
