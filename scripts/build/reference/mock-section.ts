// The reference's "The mock" section: how the mock answers, stateless and with --stateful, and what the stateful mock
// decides where the interface document is silent, written from the mock's own constants so it cannot drift from them.
import {
  ANOTHER_MFA_CODE,
  DEFAULT_CAPS,
  DEFAULT_SETTINGS,
  INFERRED_PAYORS,
  MOCK_ONLY_METHODS,
  MOCK_PATHS,
  MOCK_WARNING,
  WRONG_MFA_CODE,
} from "../../../src/mock/server.ts";

const seconds = (ms: number) => `${ms / 1000} s`;

export function mockSection(section: (title: string, ...blocks: string[]) => string): string {
  const plans = [...INFERRED_PAYORS].map(([code, plan]) => `\`${code}\` becomes \`${plan.prefix}\` and the state's two-letter code (${plan.program})`);
  return section(
    "The mock",
    "`npm start` (or `npx svc-health-mock` where the package is installed) serves every operation of this reference on 127.0.0.1. It validates each request against the contract and answers from the operations' examples; `Prefer: code=<status>` or `Prefer: example=<name>` chooses another declared answer.",
    `A value a non-exhaustive enumeration does not list is valid in a request, as the contract says: the mock answers it as it would a listed one and names it in the \`${MOCK_WARNING}\` response header, so a typo still shows. The service may refuse a value it does not support.`,
    `With \`--stateful\` it remembers what each team does, so the document's flows behave as the document says: a created user conflicts on its \`client_user_id\`, a deletion can be undone for 7 days, a link token is what \`complete_mfa\` checks, the latest insurance is what was created, bulk imports progress over time, and a successful MFA completion delivers \`provider.connection.created\` to the team's webhook endpoints. The flows are in \`openapi/workflows/\` as Arazzo workflows. The stateful mock's choices where the document is silent, none of which is the service's:`,
    [
      "- **Teams:** state is per credential. A team API key issued by `createTeamApiKey` reaches its team (and is refused once deleted); any other API key is a team of its own. A management key is an org, with no teams until `createTeam`.",
      `- **MFA codes:** \`${WRONG_MFA_CODE}\` is wrong (\`incorrect_mfa_code\`), \`${ANOTHER_MFA_CODE}\` asks for another code (\`pending_provider_mfa\`), any other code succeeds. A link token lives ${DEFAULT_SETTINGS.link_token_lifetime_s / 60} minutes.`,
      `- **MEDFED and MAIDFED:** ${plans.join("; ")}, from the insured person's address; another state is refused with 422.`,
      "- **Latest insurance:** what was created, in the latest-insurance form (`zip_code`, no country), by `is_primary`.",
      `- **Closed beta:** every team is enabled until \`PATCH ${MOCK_PATHS.state}\` sets \`closed_beta_enabled\` to false.`,
      `- **Bulk import:** an operation takes ${seconds(DEFAULT_SETTINGS.bulk_import_duration_ms)} on the team's clock; \`wait_for_completion\` waits up to ${seconds(DEFAULT_SETTINGS.bulk_import_wait_ms)}. A connection whose user is not the team's fails. A team made through the management API needs its own OAuth credential for the provider first (\`403 feature_not_enabled\` otherwise); a team met through an unknown API key counts as configured.`,
      "- **Webhook endpoints** may also be loopback `http://` addresses on the stateful mock only; the service requires `https://`.",
      "- **Everything else** the caller does not give (ids, dates, an insurance record's company) is generated or taken from the examples.",
      `- **Bounds:** ${DEFAULT_CAPS.teams.toLocaleString("en-US")} teams, ${DEFAULT_CAPS.recordsPerTeam.toLocaleString("en-US")} records per team, ${DEFAULT_CAPS.records.toLocaleString("en-US")} in all; past one, \`429\` \`mock_state_full\` names it.`,
    ].join("\n"),
    `\`${MOCK_PATHS.state}\` (${MOCK_ONLY_METHODS.state.join(", ")}; mock-only, not an operation of the service) describes the state the credential reaches, changes a team's settings or moves its clock (\`{"clock": {"advance_seconds": 604800}}\`), and forgets it.`,
  );
}
