// Finds out what the target is before the pass: whether it answers at all, and whether it is the package's stateful
// mock (GET /_mock/state answers 200 with {"stateful": true}; the stateless mock answers 404, and so, presumably,
// does any other server), which runs the mock-only workflows too.
import { isObject } from "../contract/json.ts";
import type { Sender } from "./http.ts";
import { MOCK_PATHS } from "../mock/paths.ts";

export const MOCK_STATE_PATH = MOCK_PATHS.state;

export type Target = { reachable: true; mock: boolean } | { reachable: false; error: string };

export async function probeTarget(sender: Sender, baseUrl: string): Promise<Target> {
  const answer = await sender.send({ method: "GET", url: `${baseUrl}${MOCK_STATE_PATH}`, headers: { accept: "application/json" } });
  if (answer.kind === "failure") return { reachable: false, error: answer.error };
  if (answer.status !== 200) return { reachable: true, mock: false };
  try {
    const body: unknown = JSON.parse(answer.text);
    return { reachable: true, mock: isObject(body) && body.stateful === true };
  } catch {
    return { reachable: true, mock: false };
  }
}
