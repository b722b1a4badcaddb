// Insurance records (4.1, 4.2): created for a user of the team, with MEDFED and MAIDFED resolved to the plan of the
// patient's state (closed beta, plans.ts); the latest one read back in the latest-insurance form (`zip_code`, no
// country, section 2.3), by `is_primary`. The company the document leaves to the service comes from the examples.
import { notFound, stateRefusal, type StateAnswer } from "./vocabulary.ts";
import { closedBeta, invalidParts } from "../refusals.ts";
import { INFERRED_PAYORS, statePlan } from "./plans.ts";
import { liveUser, unknownUser } from "./users.ts";
import type { TeamHandler } from "./vocabulary.ts";
import type { InsuranceRecord, TeamState } from "./model.ts";

export const closedBetaRefusal = (what: string): StateAnswer => stateRefusal(closedBeta(what));

/** An address of the created record in the latest-insurance form: `zip` becomes `zip_code`, the country is dropped. */
function latestAddress(address: Record<string, unknown>): Record<string, unknown> {
  const { zip, country: _country, ...rest } = address;
  return { ...rest, zip_code: zip };
}

function latestForm(record: Record<string, any>): Record<string, unknown> {
  const form: Record<string, any> = structuredClone(record);
  form.insured.address = latestAddress(form.insured.address);
  form.company.address = latestAddress(form.company.address);
  if (form.guarantor?.address !== undefined) form.guarantor.address = latestAddress(form.guarantor.address);
  return form;
}

/** A created insurance record as the team keeps it (createInsurance's, or seed data's): is_primary always set, its latest-insurance form made once. */
export function createdRecord(request: Record<string, any>): Record<string, any> {
  return { ...structuredClone(request), is_primary: request.is_primary ?? true };
}

export function keptInsurance(created: Record<string, any>): InsuranceRecord {
  return { created, latest: latestForm(created), isPrimary: created.is_primary === true };
}

export const insuranceHandlers: Record<string, TeamHandler> = {
  createInsurance({ team, call, store, examples }) {
    const user = liveUser(team, call.path.user_id!);
    if (user === undefined) return unknownUser(call.path.user_id!);
    const request = call.body as Record<string, any>;
    const record = createdRecord(request);
    const inferred = INFERRED_PAYORS.get(String(request.payor_code));
    if (inferred !== undefined) {
      if (!team.settings.closed_beta_enabled) return closedBetaRefusal(`The payor code ${request.payor_code}`);
      // The mock holds no other address of the user, so the insured person's state is the patient's whatever the relationship.
      const state = String(request.insured.address.state);
      const plan = statePlan(String(request.payor_code), state);
      if (plan === undefined) {
        const message = `has no ${inferred.program} plan for the state ${state} (the mock's table has the 50 states and DC by their two-letter codes)`;
        return stateRefusal(invalidParts([{ location: "body", field: "/insured/address/state", message }]));
      }
      const company = examples.response("createInsurance", 200, "medicare_inferred_from_state").company;
      record.payor_code = plan.payor_code;
      record.company = { ...company, name: plan.name };
    } else {
      record.company = examples.response("createInsurance", 200, "commercial_plan").company;
    }
    store.reserve(team);
    const records = team.insurance.get(user.user_id) ?? [];
    records.push(keptInsurance(record));
    team.insurance.set(user.user_id, records);
    return { status: 200, body: record, stable: true };
  },

  getLatestInsurance({ team, call }) {
    if (!team.settings.closed_beta_enabled) return closedBetaRefusal("Get latest insurance");
    const user = liveUser(team, call.path.user_id!);
    if (user === undefined) return unknownUser(call.path.user_id!);
    const primary = !["false", "0"].includes(call.query.get("is_primary") ?? "true");
    const records = team.insurance.get(user.user_id) ?? [];
    let latest: InsuranceRecord | undefined;
    for (let i = records.length - 1; i >= 0 && latest === undefined; i--) if (records[i]!.isPrimary === primary) latest = records[i];
    if (latest === undefined) return notFound(`User ${user.user_id} has no ${primary ? "primary" : "non-primary"} insurance record.`);
    return { status: 200, body: latest.latest, stable: true };
  },

  getLatestUserInfo({ team, call }) {
    if (!team.settings.closed_beta_enabled) return closedBetaRefusal("Get latest user info");
    // A user the team has gets the example's info: nothing in the contract records user info.
    return liveUser(team, call.path.user_id!) === undefined ? unknownUser(call.path.user_id!) : undefined;
  },
};

/** Insurance records of a team, for the state's description. */
export function insuranceCount(team: TeamState): number {
  let count = 0;
  for (const records of team.insurance.values()) count += records.length;
  return count;
}
