// The state-to-plan table MEDFED (Medicare) and MAIDFED (Medicaid) resolve through (section 2.1). The document names
// no plan codes, so the table is the mock's own and provisional: `MCR` or `MCD` followed by the two-letter state. Both
// tables are looked up by what a request sends, so they are Maps: `constructor` is an unknown code, not Object's.
export const STATE_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    AL: "Alabama",
    AK: "Alaska",
    AZ: "Arizona",
    AR: "Arkansas",
    CA: "California",
    CO: "Colorado",
    CT: "Connecticut",
    DE: "Delaware",
    DC: "District of Columbia",
    FL: "Florida",
    GA: "Georgia",
    HI: "Hawaii",
    ID: "Idaho",
    IL: "Illinois",
    IN: "Indiana",
    IA: "Iowa",
    KS: "Kansas",
    KY: "Kentucky",
    LA: "Louisiana",
    ME: "Maine",
    MD: "Maryland",
    MA: "Massachusetts",
    MI: "Michigan",
    MN: "Minnesota",
    MS: "Mississippi",
    MO: "Missouri",
    MT: "Montana",
    NE: "Nebraska",
    NV: "Nevada",
    NH: "New Hampshire",
    NJ: "New Jersey",
    NM: "New Mexico",
    NY: "New York",
    NC: "North Carolina",
    ND: "North Dakota",
    OH: "Ohio",
    OK: "Oklahoma",
    OR: "Oregon",
    PA: "Pennsylvania",
    RI: "Rhode Island",
    SC: "South Carolina",
    SD: "South Dakota",
    TN: "Tennessee",
    TX: "Texas",
    UT: "Utah",
    VT: "Vermont",
    VA: "Virginia",
    WA: "Washington",
    WV: "West Virginia",
    WI: "Wisconsin",
    WY: "Wyoming",
  }),
);

/** The payor codes whose plan is inferred from the patient's state, with the program each names. */
export const INFERRED_PAYORS: ReadonlyMap<string, { prefix: string; program: string }> = new Map([
  ["MEDFED", { prefix: "MCR", program: "Medicare" }],
  ["MAIDFED", { prefix: "MCD", program: "Medicaid" }],
]);

export interface StatePlan {
  payor_code: string;
  name: string;
}

/** The plan of a state for MEDFED or MAIDFED, or undefined for a state the table does not have. */
export function statePlan(payorCode: string, state: string): StatePlan | undefined {
  const payor = INFERRED_PAYORS.get(payorCode);
  const code = state.trim().toUpperCase();
  const name = STATE_NAMES.get(code);
  if (payor === undefined || name === undefined) return undefined;
  return { payor_code: `${payor.prefix}${code}`, name: `${payor.program} ${name} (mock plan)` };
}
