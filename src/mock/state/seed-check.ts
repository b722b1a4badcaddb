// What is wrong with seed data, every problem at once and each naming its record (`teams[0].users[2] (client_user_id
// "abc")`) and field: the contract's schemas (seed-form.ts), then what no schema can say (one client_user_id per team,
// a webhook endpoint's team_id that is its team's), then the caps, which a seed counts against as the API would.
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { createContractAjv } from "../../contract/ajv.ts";
import { bodyField, toDetails } from "../../contract/error-details.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import { utf8Length } from "../platform.ts";
import { customCredentialRecords } from "./management.ts";
import { MAX_RECORD_BODY, type StateCaps } from "./model.ts";
import { seedSchema, type SeedData, type SeedTeamContent } from "./seed-form.ts";

export interface SeedProblem {
  /** Where in the seed, as a JSON Pointer (`/teams/0/users/2/created_on`). */
  pointer: string;
  /** The record, by its place and what identifies it to a reader. */
  record: string;
  /** The field within the record, as a JSON Pointer; empty for the record itself. */
  field: string;
  message: string;
}

export const problemLine = (problem: SeedProblem): string => `${problem.record}: ${problem.field === "" ? "" : `${problem.field}: `}${problem.message}`;

/** The records each kind of record holds, by the field that lists them. */
const CHILDREN: Record<string, Record<string, string>> = {
  seed: { teams: "team", orgs: "org" },
  team: { users: "user", webhook_endpoints: "webhook" },
  org: { teams: "orgTeam", management_keys: "managementKey" },
  orgTeam: { users: "user", webhook_endpoints: "webhook", api_keys: "apiKey", etl_pipelines: "pipeline" },
  user: { insurance: "insurance", connections: "connection" },
};
/** The field that tells a reader which record it is; never one holding health data (an insurance record has none). */
const IDENTITY: Record<string, string> = {
  team: "name",
  org: "id",
  orgTeam: "name",
  user: "client_user_id",
  webhook: "id",
  apiKey: "label",
  managementKey: "label",
  pipeline: "id",
  connection: "provider",
};

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const escape = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** A place in the seed as its record and the field within it. */
function locate(data: unknown, pointer: string): Omit<SeedProblem, "message"> {
  const segments = pointer === "" ? [] : pointer.slice(1).split("/");
  let kind = "seed";
  let node: unknown = data;
  let label = "";
  let i = 0;
  for (; i + 1 < segments.length; i += 2) {
    // The pointer's segments are the seed's own keys: a field named `constructor` is no child list.
    const lists = CHILDREN[kind] ?? {};
    const child = Object.hasOwn(lists, segments[i]!) ? lists[segments[i]!] : undefined;
    if (child === undefined || !/^\d+$/.test(segments[i + 1]!)) break;
    node = isObject(node) ? list(node[segments[i]!])[Number(segments[i + 1])] : undefined;
    label += `${label === "" ? "" : "."}${segments[i]}[${segments[i + 1]}]`;
    kind = child;
  }
  const id = IDENTITY[kind];
  const value = id !== undefined && isObject(node) ? text(node[id]) : undefined;
  const named = value === undefined ? label : `${label} (${id} ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  return { pointer, record: label === "" ? "the seed" : named, field: segments.length > i ? `/${segments.slice(i).join("/")}` : "" };
}

/** A problem at a place in the seed, named by its record and field. */
export const seedProblem = (data: unknown, pointer: string, message: string): SeedProblem => ({ ...locate(data, pointer), message });

/** A place's record without what identifies it, to say which other record a duplicate repeats. */
const placeOf = (data: unknown, pointer: string) => locate(data, pointer).record.replace(/ \(.*$/, "");

const validators = new WeakMap<JsonObject, ValidateFunction>();

/** Ajv's wording, made to name the field a record does not take and what it takes instead. */
function reworded(error: ErrorObject): ErrorObject {
  if (error.keyword === "additionalProperties") {
    const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    return {
      ...error,
      instancePath: `${error.instancePath}/${escape(String(error.params.additionalProperty))}`,
      message: `is not a field this record takes (${allowed.join(", ")})`,
    };
  }
  if (error.keyword === "const") return { ...error, message: `must be ${JSON.stringify(error.params.allowedValue)}` };
  return error;
}

function schemaProblems(document: JsonObject, data: unknown): SeedProblem[] {
  let validate = validators.get(document);
  if (validate === undefined) validators.set(document, (validate = createContractAjv(document, { verbose: true }).compile(seedSchema(document))));
  if (validate(data)) return [];
  return toDetails("body", (validate.errors ?? []).map(reworded), bodyField).map((detail) => seedProblem(data, detail.field, detail.message));
}

/** Notes who holds each value, and the problem of a second holder. */
function claims(data: unknown, problems: SeedProblem[], what: string, quoted = true) {
  const holders = new Map<string, string>();
  return (value: unknown, pointer: string) => {
    if (typeof value !== "string") return;
    const first = holders.get(value);
    if (first === undefined) holders.set(value, pointer);
    else problems.push(seedProblem(data, pointer, `${quoted ? `${JSON.stringify(value)} ` : ""}is also the ${what} of ${placeOf(data, first)}`));
  };
}

/** What no schema says: one of each id and key, and the team or org a record names is the one it is in. */
function consistencyProblems(data: unknown): SeedProblem[] {
  if (!isObject(data)) return [];
  const problems: SeedProblem[] = [];
  const apiKey = claims(data, problems, "API key", false);
  const teamId = claims(data, problems, "id");
  const managementKey = claims(data, problems, "management key", false);
  const sameAs = (value: unknown, expected: string | undefined, pointer: string, whose: string) => {
    if (typeof value === "string" && expected !== undefined && value !== expected) problems.push(seedProblem(data, pointer, `must be ${whose} (${expected})`));
  };
  const sized = (record: unknown, pointer: string) => {
    const bytes = isObject(record) ? utf8Length(JSON.stringify(record)) : 0;
    if (bytes > MAX_RECORD_BODY)
      problems.push(seedProblem(data, pointer, `is ${bytes} bytes of JSON; the stateful mock keeps records of at most ${MAX_RECORD_BODY}`));
  };
  const content = (team: JsonObject, at: string, id: string | undefined) => {
    const userId = claims(data, problems, "user_id");
    const clientUserId = claims(data, problems, "client_user_id");
    list(team.users).forEach((user, u) => {
      if (!isObject(user)) return;
      const { insurance, connections, ...own } = user;
      sized(own, `${at}/users/${u}`);
      userId(user.user_id, `${at}/users/${u}/user_id`);
      clientUserId(user.client_user_id, `${at}/users/${u}/client_user_id`);
      list(insurance).forEach((record, r) => sized(record, `${at}/users/${u}/insurance/${r}`));
      const provider = claims(data, problems, "provider");
      list(connections).forEach((connection, c) => isObject(connection) && provider(connection.provider, `${at}/users/${u}/connections/${c}/provider`));
    });
    const hookId = claims(data, problems, "id");
    list(team.webhook_endpoints).forEach((hook, h) => {
      if (!isObject(hook)) return;
      sized(hook, `${at}/webhook_endpoints/${h}`);
      hookId(hook.id, `${at}/webhook_endpoints/${h}/id`);
      sameAs(hook.team_id, id, `${at}/webhook_endpoints/${h}/team_id`, "its team's id");
    });
    const keyId = claims(data, problems, "id");
    list(team.api_keys).forEach((key, k) => {
      if (!isObject(key)) return;
      sized(key, `${at}/api_keys/${k}`);
      keyId(key.id, `${at}/api_keys/${k}/id`);
      apiKey(key.api_key, `${at}/api_keys/${k}/api_key`);
      sameAs(key.team_id, id, `${at}/api_keys/${k}/team_id`, "its team's id");
    });
    const pipelineId = claims(data, problems, "id");
    list(team.etl_pipelines).forEach((pipeline, p) => {
      if (!isObject(pipeline)) return;
      sized(pipeline, `${at}/etl_pipelines/${p}`);
      pipelineId(pipeline.id, `${at}/etl_pipelines/${p}/id`);
      sameAs(pipeline.team_id, id, `${at}/etl_pipelines/${p}/team_id`, "its team's id");
    });
    sized(team.brand, `${at}/brand`);
  };
  list(data.teams).forEach((team, t) => {
    if (!isObject(team)) return;
    apiKey(team.api_key, `/teams/${t}/api_key`);
    const id = seedTeamId(team);
    teamId(id, `/teams/${t}/id`);
    content(team, `/teams/${t}`, id);
  });
  list(data.orgs).forEach((org, o) => {
    if (!isObject(org)) return;
    managementKey(org.management_key, `/orgs/${o}/management_key`);
    const id = seedOrgId(org);
    list(org.teams).forEach((team, t) => {
      if (!isObject(team)) return;
      teamId(team.id, `/orgs/${o}/teams/${t}/id`);
      sameAs(team.org_id, id, `/orgs/${o}/teams/${t}/org_id`, "its org's id");
      content(team, `/orgs/${o}/teams/${t}`, text(team.id));
    });
    const orgTeams = new Set(list(org.teams).map((team) => (isObject(team) ? text(team.id) : undefined)));
    const keyId = claims(data, problems, "id");
    list(org.management_keys).forEach((key, k) => {
      if (!isObject(key)) return;
      keyId(key.id, `/orgs/${o}/management_keys/${k}/id`);
      managementKey(key.management_key, `/orgs/${o}/management_keys/${k}/management_key`);
      // A team management key reaches only teams of its own org, as createManagementKey allows.
      list(key.team_ids).forEach((teamId, i) => {
        if (!orgTeams.has(text(teamId)))
          problems.push(seedProblem(data, `/orgs/${o}/management_keys/${k}/team_ids/${i}`, "must be the id of one of the org's teams"));
      });
      if (key.kind === "org" && list(key.team_ids).length > 0)
        problems.push(seedProblem(data, `/orgs/${o}/management_keys/${k}/team_ids`, "must be empty for an org management key"));
      if (key.kind === "team" && list(key.team_ids).length === 0)
        problems.push(seedProblem(data, `/orgs/${o}/management_keys/${k}/team_ids`, "must name at least one team for a team management key"));
    });
  });
  return problems;
}

/** A team's id: its own, else the one its webhook endpoints name. */
export const seedTeamId = (team: { id?: unknown; webhook_endpoints?: unknown }): string | undefined =>
  text(team.id) ??
  list(team.webhook_endpoints)
    .map((hook) => (isObject(hook) ? text(hook.team_id) : undefined))
    .find((id) => id !== undefined);

/** An org's id: its own, else the one its teams name. */
export const seedOrgId = (org: { id?: unknown; teams?: unknown }): string | undefined =>
  text(org.id) ??
  list(org.teams)
    .map((team) => (isObject(team) ? text(team.org_id) : undefined))
    .find((id) => id !== undefined);

/** The records a team holds, counted as the API counts them when it makes each one. */
export function seedRecords(team: SeedTeamContent & { api_keys?: unknown[]; etl_pipelines?: unknown[]; custom_credentials?: string[] }): number {
  let records = list(team.webhook_endpoints).length + list(team.api_keys).length + list(team.etl_pipelines).length;
  for (const user of list(team.users) as JsonObject[]) records += 1 + list(user.insurance).length + list(user.connections).length;
  // A provider's slug is a record of its own, and a long one more (setTeamCustomCredential).
  for (const provider of team.custom_credentials ?? []) records += customCredentialRecords(provider);
  return records;
}

/** What the state keeps beside the seed (outside what it replaces), which counts against the same caps. */
export interface Kept {
  teams: number;
  records: number;
}

export function capProblems(seed: SeedData, caps: StateCaps, kept: Kept): SeedProblem[] {
  const problems: SeedProblem[] = [];
  const teams = seed.teams ?? [];
  const orgs = seed.orgs ?? [];
  const beside = (count: number) => (count === 0 ? "" : `, beside the ${count} the mock keeps`);
  const teamCount = teams.length + orgs.reduce((sum, org) => sum + 1 + (org.teams ?? []).length, 0);
  if (kept.teams + teamCount > caps.teams) {
    problems.push(seedProblem(seed, "", `holds ${teamCount} teams and orgs${beside(kept.teams)}; the mock holds at most ${caps.teams}`));
  }
  let records = 0;
  const perTeam = (count: number, pointer: string) => {
    records += count;
    if (count > caps.recordsPerTeam)
      problems.push(seedProblem(seed, pointer, `holds ${count} records; the mock holds at most ${caps.recordsPerTeam} per team`));
  };
  teams.forEach((team, t) => perTeam(seedRecords(team), `/teams/${t}`));
  orgs.forEach((org, o) => {
    // An org's teams and the management keys it issued are its records.
    perTeam((org.teams ?? []).length + (org.management_keys ?? []).length, `/orgs/${o}`);
    (org.teams ?? []).forEach((team, t) => perTeam(seedRecords(team), `/orgs/${o}/teams/${t}`));
  });
  if (kept.records + records > caps.records)
    problems.push(seedProblem(seed, "", `holds ${records} records${beside(kept.records)}; the mock holds at most ${caps.records} in all`));
  return problems;
}

/** Every problem of the data as a seed for an empty state with these caps; none when it may be loaded. */
export function seedProblems(document: JsonObject, data: unknown, caps: StateCaps): SeedProblem[] {
  const problems = [...schemaProblems(document, data), ...consistencyProblems(data)];
  // The caps are counted on records the schema has vouched for.
  return problems.length > 0 ? problems : capProblems(data as SeedData, caps, { teams: 0, records: 0 });
}
