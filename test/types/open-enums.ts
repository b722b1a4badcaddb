// Compiled by `npm run typecheck` (test/typecheck.test.ts): what the generated types accept and refuse.
import type { AppointmentStatus, LabSlug, LinkProvider, LinkTokenRequest, Relationship } from "../../generated/client/index.js";

// A value the service adds later still type-checks where an enumeration is non-exhaustive.
export const addedLater: LinkProvider = "a_provider_added_next_year";
export const known: Relationship = "Spouse";
export const anyLab: LabSlug = "a_lab_added_later";

// Requests take them too, so an old client can send a value the service has since added.
export const request: LinkTokenRequest = { user_id: "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f", provider: "a_provider_added_next_year" };

// A closed enumeration still refuses anything else.
// @ts-expect-error AppointmentStatus is not non-exhaustive
export const closed: AppointmentStatus = "rescheduled";

// Required fields stay required.
// @ts-expect-error user_id is required
export const missing: LinkTokenRequest = { provider: "oura" };
