// `/_mock/journal` (mock-only): GET reads the requests the mock received from the credential's team (every team's
// without one), filtered by operation, status and time; DELETE forgets them. Described in the mock-only description
// (openapi/workflows/mock-control.openapi.yaml).
import { invalidParts, journalOff } from "../refusals.ts";
import type { JournalFilter } from "../journal.ts";
import { jsonReply } from "../http-vocabulary.ts";
import { MOCK_PATHS } from "../../shared/mock-paths.ts";
import { encodeText } from "../platform.ts";
import { ANSWERED, type Exchange, type Outcome, type StepContext } from "./exchange.ts";
import { mockOnlyGate } from "./mock-only.ts";

const time = (text: string) => (/^\d+$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN);

/** The filter a query asks for, or the details of what is wrong with it. */
function readFilter(query: URLSearchParams, team: string | undefined): JournalFilter | { location: "query"; field: string; message: string }[] {
  const details: { location: "query"; field: string; message: string }[] = [];
  const filter: JournalFilter = { team };
  for (const name of query.keys()) {
    if (!["operation_id", "status", "since", "until", "limit"].includes(name))
      details.push({ location: "query", field: name, message: "is not a filter (operation_id, status, since, until, limit)" });
  }
  filter.operationId = query.get("operation_id") ?? undefined;
  const status = query.get("status");
  if (status !== null) {
    if (/^([1-5]\d\d|[1-5]xx)$/i.test(status)) filter.status = status.toLowerCase();
    else details.push({ location: "query", field: "status", message: "must be a status (201) or a class (4xx)" });
  }
  for (const bound of ["since", "until"] as const) {
    const value = query.get(bound);
    if (value === null) continue;
    const at = time(value);
    if (Number.isNaN(at)) details.push({ location: "query", field: bound, message: "must be an RFC 3339 date-time or epoch milliseconds" });
    else filter[bound] = at;
  }
  const limit = query.get("limit");
  if (limit !== null) {
    if (/^\d{1,6}$/.test(limit) && Number(limit) > 0) filter.limit = Number(limit);
    else details.push({ location: "query", field: "limit", message: "must be a whole number from 1 to 999999" });
  }
  return details.length > 0 ? details : filter;
}

export function journalPath(x: Exchange, context: StepContext): Outcome {
  if (x.url.pathname !== MOCK_PATHS.journal) return undefined;
  const gate = mockOnlyGate(x, context, "journal");
  if (gate !== undefined) return gate;
  const { journal } = context;
  if (journal === undefined) return journalOff();
  const team = context.teamOf(x.headers);
  const scope = team === "" ? undefined : team;
  if (x.method === "DELETE") journal.clear(scope);
  const filter = x.method === "DELETE" ? { team: scope } : readFilter(x.url.searchParams, scope);
  if (Array.isArray(filter)) return invalidParts(filter);
  x.reply = jsonReply(x.headers, 200, encodeText(JSON.stringify({ size: journal.size, entries: journal.entries(filter) })));
  return ANSWERED;
}
