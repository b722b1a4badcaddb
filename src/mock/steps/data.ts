// `/_mock/data` (mock-only, with --stateful; described in openapi/workflows/mock-control.openapi.yaml): GET exports the
// state a credential reaches as seed data (everything without one), PUT replaces that state with posted seed data,
// refused whole with a 422 naming each record and field when anything in it is wrong (src/mock/state/seed.ts).
import { corsHeaders, JSON_TYPE } from "../http.ts";
import { MOCK_PATHS } from "../paths.ts";
import { encodeText } from "../runtime.ts";
import { exportSeed, loadSeed, problemCount, problemLine, SeedError } from "../state/seed.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";
import { mockOnlyGate } from "./mock-only.ts";

export const DATA_PATH = MOCK_PATHS.data;

function sendJson(x: Exchange, body: unknown): typeof ANSWERED {
  const bytes = encodeText(JSON.stringify(body));
  x.reply = { status: 200, headers: ["content-type", JSON_TYPE, "content-length", String(bytes.length), ...corsHeaders(x.headers)], body: bytes };
  return ANSWERED;
}

export function seedData(x: Exchange, context: StepContext): Outcome | Promise<Outcome> {
  const { stateful } = context;
  if (stateful === undefined) {
    return { status: 404, code: "not_found", message: `${DATA_PATH} answers only when the mock runs with --stateful (or --data <file>, which implies it).` };
  }
  const gate = mockOnlyGate(x, context, "data");
  if (gate !== undefined) return gate;
  const header = (scheme: string) => {
    const value = x.headers[stateful.header(scheme)];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const apiKey = header("TeamApiKey");
  const managementKey = header("ManagementKey") ?? header("OrgKey");
  if (apiKey !== undefined && stateful.store.isRevoked(apiKey))
    return { status: 401, code: "unauthorized", message: "This API key was deleted (deleteTeamApiKey)." };
  // A team an org made goes with its org: its API key alone would export it without the keys that reach it.
  if (apiKey !== undefined && stateful.store.peekTeam(apiKey)?.orgId !== undefined) {
    return {
      status: 401,
      code: "unauthorized",
      message: `This API key reaches a team of an org: its data goes with the org's, under ${stateful.header("ManagementKey")} (or everything's, with no credential).`,
    };
  }
  if (x.method === "GET") return sendJson(x, exportSeed(stateful, apiKey, managementKey));
  // Only a request to /_mock/data waits for its body here.
  return Promise.resolve(x.request.body()).then((text): Outcome => {
    if (text === undefined)
      return { status: 413, code: "payload_too_large", message: `The request body is larger than 1 MiB; start the mock with --data <file> for a larger seed.` };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return { status: 400, code: "invalid_json", message: "The request body is not well-formed JSON." };
    }
    try {
      loadSeed(stateful, data, { apiKey, managementKey });
    } catch (error) {
      if (!(error instanceof SeedError)) throw error;
      const details = error.details.map((problem) => ({ location: "body" as const, field: problem.pointer, message: problemLine(problem) }));
      return { status: 422, code: "invalid_request", message: `The seed data has ${problemCount(details.length)}; nothing was loaded.`, details };
    }
    return sendJson(x, exportSeed(stateful, apiKey, managementKey));
  });
}
