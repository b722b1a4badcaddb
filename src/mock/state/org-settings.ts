// The org's settings and each team's brand in state: what updateOrg and setTeamBrand set, getOrg and getTeamBrand
// read back. A brand never set is the team's name with no logo, in the contract's minimal example's colours.
import type { OrgState, TeamBrand, TeamState } from "./model.ts";
import type { Examples, OrgHandler } from "./vocabulary.ts";

type TeamManagementHandler = (team: TeamState, ...rest: Parameters<OrgHandler>) => ReturnType<OrgHandler>;

const publicOrg = (org: OrgState) => ({ id: org.id, name: org.name, created_at: org.created_at });

export const orgSettingsHandlers: Record<string, OrgHandler> = {
  getOrg: ({ org }) => ({ status: 200, body: publicOrg(org) }),
  updateOrg({ org, call }) {
    if (typeof call.body?.name === "string") org.name = call.body.name;
    return { status: 200, body: publicOrg(org) };
  },
};

/** The brand a team shows before one is set. */
function defaultBrand(team: TeamState, examples: Examples): TeamBrand {
  const minimal = examples.response("getTeamBrand", 200, "minimal") as TeamBrand;
  return { ...minimal, display_name: team.name.slice(0, 100), logo_url: null, accent_color: null, support_url: null };
}

export const brandHandlers: Record<string, TeamManagementHandler> = {
  getTeamBrand: (team, { examples }) => ({ status: 200, body: team.brand ?? defaultBrand(team, examples) }),
  setTeamBrand(team, { call }) {
    // Setting replaces the whole brand (the schema requires every field).
    team.brand = structuredClone(call.body) as TeamBrand;
    return { status: 200, body: team.brand };
  },
};
