// The target's set-up and tear-down, in one place. First what the target is: whether it answers at all, and whether it
// is the package's stateful mock (GET /_mock/state answers 200 with {"stateful": true}; the stateless mock answers 404,
// and so, presumably, does any other server). On the stateful mock a run takes keys of its own, so its users, clock
// moves and settings never reach the team of the reference's placeholder keys (which the samples use) nor another
// run's; its team is set to complete bulk imports at once, and the mock forgets the run's team and org at the end.
import { randomBytes } from "node:crypto";
import { isObject } from "../contract/json.ts";
import type { Redactor } from "../contract/redact.ts";
import { MOCK_PATHS } from "../shared/mock-paths.ts";
import type { MadeCheck } from "./check.ts";
import type { CredentialMap } from "./credential-map.ts";
import type { VerifyOptions } from "./options.ts";
import type { HttpRequest, Sender } from "./sender.ts";

export const MOCK_STATE_PATH = MOCK_PATHS.state;

export type Target = { reachable: true; mock: boolean } | { reachable: false; error: string };

/** Which keys the run made up for itself (on the stateful mock, each one the command line did not give). */
export interface OwnKeys {
  apiKey: boolean;
  managementKey: boolean;
}

/** The probe's request: the mock's state, which the package's stateful mock alone answers 200 (`--wait` tries it too). */
export function probeRequest(baseUrl: string): HttpRequest {
  return { method: "GET", url: `${baseUrl}${MOCK_STATE_PATH}`, headers: { accept: "application/json" } };
}

export async function probeTarget(sender: Sender, baseUrl: string): Promise<Target> {
  const answer = await sender.send(probeRequest(baseUrl));
  if (answer.kind === "failure") return { reachable: false, error: answer.error };
  if (answer.status !== 200) return { reachable: true, mock: false };
  try {
    const body: unknown = JSON.parse(answer.text);
    return { reachable: true, mock: isObject(body) && body.stateful === true };
  } catch {
    return { reachable: true, mock: false };
  }
}

/** The run's options for this target: the command line's, with keys of the run's own on the stateful mock. */
export function targetOptions(target: Target, given: VerifyOptions): { options: VerifyOptions; ownKeys: OwnKeys } {
  const ownKeys: OwnKeys =
    target.reachable && target.mock ? { apiKey: !given.given.apiKey, managementKey: !given.given.managementKey } : { apiKey: false, managementKey: false };
  if (!ownKeys.apiKey && !ownKeys.managementKey) return { options: given, ownKeys };
  const run = randomBytes(8).toString("hex");
  return {
    ownKeys,
    options: {
      ...given,
      credentials: {
        ...given.credentials,
        ...(ownKeys.apiKey ? { apiKey: `sk_test_verify_${run}` } : {}),
        ...(ownKeys.managementKey ? { managementKey: `mk_test_verify_${run}` } : {}),
      },
    },
  };
}

/**
 * The run's own team on the mock completes bulk imports at once: every generated call with wait_for_completion would
 * otherwise wait out the mock's default duration, and the waiting would fill the run. A failed check when it refuses.
 */
export async function prepareTarget(sender: Sender, options: VerifyOptions, ownKeys: OwnKeys, credentials: CredentialMap): Promise<MadeCheck | undefined> {
  if (!ownKeys.apiKey) return undefined;
  const set = await sender.send({
    method: "PATCH",
    url: `${options.baseUrl}${MOCK_STATE_PATH}`,
    headers: { "content-type": "application/json", [credentials.header("apiKey")]: options.credentials.apiKey! },
    body: JSON.stringify({ settings: { bulk_import_duration_ms: 0 } }),
  });
  if (set.kind === "answer" && set.status === 200) return undefined;
  return {
    suite: "setup",
    name: `the mock completes this run's bulk imports at once (PATCH ${MOCK_STATE_PATH})`,
    status: "failed",
    detail: set.kind === "answer" ? `answered ${set.status}` : set.error,
    ms: 0,
  };
}

/** The mock forgets the run's team and org (those of its own keys), a cleanup check; nothing to do on another server. */
export async function resetTarget(
  sender: Sender,
  options: VerifyOptions,
  ownKeys: OwnKeys,
  credentials: CredentialMap,
  redactor: Redactor,
): Promise<MadeCheck | undefined> {
  if (!ownKeys.apiKey && !ownKeys.managementKey) return undefined;
  const headers: Record<string, string> = {
    ...(ownKeys.apiKey ? { [credentials.header("apiKey")]: options.credentials.apiKey! } : {}),
    ...(ownKeys.managementKey ? { [credentials.header("managementKey")]: options.credentials.managementKey! } : {}),
  };
  const forgotten = await sender.send({ method: "DELETE", url: `${options.baseUrl}${MOCK_STATE_PATH}`, headers });
  const ok = forgotten.kind === "answer" && forgotten.status === 200;
  return {
    suite: "cleanup",
    name: `the mock forgets this run's team and org (DELETE ${MOCK_STATE_PATH})`,
    status: ok ? "passed" : "failed",
    ...(ok
      ? {}
      : {
          detail:
            forgotten.kind === "answer"
              ? `answered ${forgotten.status}: ${redactor.opaque({ text: forgotten.text, status: forgotten.status, statusText: forgotten.statusText, contentType: forgotten.headers.get("content-type") }, 200)}`
              : forgotten.error,
        }),
    ms: Math.round(forgotten.ms),
  };
}
