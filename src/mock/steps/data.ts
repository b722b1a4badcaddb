// `/_mock/data` (mock-only, with --stateful; described in openapi/workflows/mock-control.openapi.yaml): GET exports the
// state a credential reaches as seed data (everything without one), PUT replaces that state with posted seed data,
// refused whole with a 422 naming each record and field when anything in it is wrong (src/mock/state/seed.ts).
import { dataNeedsState, invalidJson, keyDeleted, orgTeamKey, seedBodyTooLarge, seedRefused } from "../refusals.ts";
import { jsonReply } from "../http-vocabulary.ts";
import { encodeText } from "../platform.ts";
import { exportSeed, loadSeed, problemCount, problemLine, SeedError } from "../state/seed.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";
import { mockOnlyGate } from "./mock-only.ts";

function sendJson(x: Exchange, body: unknown): typeof ANSWERED {
  x.reply = jsonReply(x.headers, 200, encodeText(JSON.stringify(body)));
  return ANSWERED;
}

export function seedData(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  const { stateful } = context;
  if (stateful === undefined) {
    return dataNeedsState();
  }
  const gate = mockOnlyGate(x, context, "data");
  if (gate !== undefined) return gate;
  const header = (scheme: string) => {
    const value = x.headers[stateful.header(scheme)];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const apiKey = header("TeamApiKey");
  const managementKey = header("ManagementKey") ?? header("OrgKey");
  if (apiKey !== undefined && stateful.store.isRevoked(apiKey)) return keyDeleted();
  // A team an org made goes with its org: its API key alone would export it without the keys that reach it.
  if (apiKey !== undefined && stateful.store.peekTeam(apiKey)?.orgId !== undefined) {
    return orgTeamKey(stateful.header("ManagementKey"));
  }
  if (x.method === "GET") return sendJson(x, exportSeed(stateful, apiKey, managementKey));
  // Only a request to /_mock/data waits for its body here.
  return Promise.resolve(x.request.body()).then((text): Outcome => {
    if (text === undefined) return seedBodyTooLarge();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return invalidJson();
    }
    try {
      loadSeed(stateful, data, { apiKey, managementKey });
    } catch (error) {
      if (!(error instanceof SeedError)) throw error;
      const details = error.details.map((problem) => ({ location: "body" as const, field: problem.pointer, message: problemLine(problem) }));
      return seedRefused(problemCount(details.length), details);
    }
    return sendJson(x, exportSeed(stateful, apiKey, managementKey));
  });
}
