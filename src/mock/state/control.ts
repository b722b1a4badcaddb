// The stateful mock's own endpoint, `/_mock/state` (mock-only: not part of the service's contract; described for the
// workflows in openapi/workflows/mock-control.openapi.yaml): GET describes the state the credential reaches, PATCH
// changes a team's mock settings or moves its clock, DELETE forgets it (everything, with no credential).
import type { StateMethod } from "../paths.ts";
import type { HeaderBag } from "../http-shapes.ts";
import { stateRefusal, type StateAnswer } from "./vocabulary.ts";
import { invalidParts, keyDeleted, settingsPerTeam } from "../refusals.ts";
import { insuranceCount } from "./insurance.ts";
import { unknownKeyRefusal } from "./known-keys.ts";
import { DEFAULT_SETTINGS, isoAt, MAX_CLOCK_MOVE_S, SETTING_BOUNDS, teamNow, type OrgState, type TeamSettings, type TeamState } from "./model.ts";
import type { StatefulState } from "./vocabulary.ts";

interface Detail {
  location: "body";
  field: string;
  message: string;
}

function describeTeam(team: TeamState) {
  return {
    id: team.id,
    org_id: team.orgId ?? null,
    name: team.name,
    clock: isoAt(teamNow(team)),
    clock_offset_ms: team.clockOffsetMs,
    settings: team.settings,
    records: team.ledger.records,
    counts: {
      users: team.users.size,
      insurance_records: insuranceCount(team),
      bulk_ops: team.bulkOps.length,
      webhook_endpoints: team.webhooks.size,
      api_keys: team.apiKeys.size,
      connections: [...team.connections.values()].reduce((sum, users) => sum + users.size, 0),
    },
    deliveries: team.deliveries,
  };
}

function describeOrg(org: OrgState) {
  const teams = [...org.teams.values()];
  return {
    id: org.id,
    name: org.name,
    teams: teams.map((team) => team.id),
    records: org.ledger.records,
    counts: {
      teams: teams.length,
      management_keys: org.managementKeys.size,
      etl_pipelines: teams.reduce((sum, team) => sum + team.etlPipelines.size, 0),
    },
  };
}

/** Reads and checks a PATCH body; the details name every field that is wrong. */
function readPatch(text: string): { settings: Partial<TeamSettings>; advanceMs: number; setTo?: number } | Detail[] {
  let body: unknown;
  try {
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return [{ location: "body", field: "", message: "is not valid JSON" }];
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return [{ location: "body", field: "", message: "must be an object with settings and/or clock" }];
  const details: Detail[] = [];
  const { settings = {}, clock = {}, ...others } = body as Record<string, unknown>;
  for (const key of Object.keys(others)) details.push({ location: "body", field: `/${key}`, message: "is not a field of the mock's state (settings, clock)" });
  const patch: Partial<TeamSettings> = {};
  if (typeof settings !== "object" || settings === null || Array.isArray(settings))
    details.push({ location: "body", field: "/settings", message: "must be an object" });
  else {
    for (const [key, value] of Object.entries(settings)) {
      // Own keys only: `constructor` or `toString` is a field the mock does not take, not a setting with Object's bounds.
      const bounds = Object.hasOwn(SETTING_BOUNDS, key) ? SETTING_BOUNDS[key as keyof TeamSettings] : undefined;
      if (bounds === undefined)
        details.push({ location: "body", field: `/settings/${key}`, message: `is not a setting (${Object.keys(SETTING_BOUNDS).join(", ")})` });
      else if (bounds === "boolean" ? typeof value !== "boolean" : !Number.isInteger(value) || (value as number) < bounds[0] || (value as number) > bounds[1]) {
        details.push({
          location: "body",
          field: `/settings/${key}`,
          message: bounds === "boolean" ? "must be a boolean" : `must be a whole number from ${bounds[0]} to ${bounds[1]}`,
        });
      } else (patch as Record<string, unknown>)[key] = value;
    }
  }
  let advanceMs = 0;
  let setTo: number | undefined;
  if (typeof clock !== "object" || clock === null || Array.isArray(clock)) details.push({ location: "body", field: "/clock", message: "must be an object" });
  else {
    const { advance_seconds: advance, now, ...unknown } = clock as Record<string, unknown>;
    for (const key of Object.keys(unknown)) details.push({ location: "body", field: `/clock/${key}`, message: "is not a clock field (advance_seconds, now)" });
    if (advance !== undefined) {
      if (typeof advance !== "number" || !Number.isFinite(advance) || Math.abs(advance) > MAX_CLOCK_MOVE_S) {
        details.push({ location: "body", field: "/clock/advance_seconds", message: `must be a number of seconds within ±${MAX_CLOCK_MOVE_S}` });
      } else advanceMs = Math.round(advance * 1000);
    }
    if (now !== undefined) {
      const at = typeof now === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(now) ? Date.parse(now) : Number.NaN;
      if (Number.isNaN(at) || Math.abs(at - Date.now()) > MAX_CLOCK_MOVE_S * 1000)
        details.push({ location: "body", field: "/clock/now", message: "must be an RFC 3339 date-time within 100 years of today" });
      else setTo = at;
    }
  }
  return details.length > 0 ? details : { settings: patch, advanceMs, ...(setTo === undefined ? {} : { setTo }) };
}

export function controlAnswer(mock: StatefulState, method: StateMethod, headers: HeaderBag, text: string): StateAnswer {
  const store = mock.store;
  const header = (scheme: string) => {
    const value = headers[mock.header(scheme)];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const apiKey = header("TeamApiKey");
  const managementKey = header("ManagementKey") ?? header("OrgKey");
  const summary = () => ({
    stateful: true,
    caps: { teams: store.caps.teams, records_per_team: store.caps.recordsPerTeam, records: store.caps.records },
    totals: { teams: store.teamCount, records: store.records },
    defaults: { ...DEFAULT_SETTINGS, ...store.defaults },
  });
  // Describing makes nothing: a probe or a reset does not use up the cap on teams.
  const describe = () => {
    const team = apiKey === undefined ? undefined : store.peekTeam(apiKey);
    const org = managementKey === undefined ? undefined : store.peekOrg(managementKey);
    return { ...summary(), ...(team === undefined ? {} : { team: describeTeam(team) }), ...(org === undefined ? {} : { org: describeOrg(org) }) };
  };

  if (method === "GET") return { status: 200, body: describe() };
  if (method === "DELETE") {
    if (apiKey === undefined && managementKey === undefined) store.resetAll();
    if (apiKey !== undefined) store.resetApiKey(apiKey);
    if (managementKey !== undefined) store.resetManagementKey(managementKey);
    return { status: 200, body: describe() };
  }
  // PATCH.
  if (apiKey === undefined) return stateRefusal(settingsPerTeam(mock.header("TeamApiKey")));
  if (store.isRevoked(apiKey)) return stateRefusal(keyDeleted());
  // Setting a team's clock or settings would make a team of any key: with strict keys, only a known one has a team to set.
  if (mock.strictKeys) {
    const refused = unknownKeyRefusal(store, "team", apiKey, mock.header("TeamApiKey"));
    if (refused !== undefined) return stateRefusal(refused);
  }
  const patch = readPatch(text);
  const invalid = (details: Detail[]) => stateRefusal(invalidParts(details));
  if (Array.isArray(patch)) return invalid(patch);
  const team = store.teamForApiKey(apiKey);
  const offset = (patch.setTo === undefined ? team.clockOffsetMs : patch.setTo - Date.now()) + patch.advanceMs;
  if (Math.abs(offset) > MAX_CLOCK_MOVE_S * 1000) {
    return invalid([
      { location: "body", field: "/clock", message: `would put the team's clock more than 100 years from today (it is ${isoAt(teamNow(team))})` },
    ]);
  }
  Object.assign(team.settings, patch.settings);
  team.clockOffsetMs = offset;
  return { status: 200, body: describe() };
}
