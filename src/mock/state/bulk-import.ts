// Bulk import (4.4): each call makes one background operation that takes the team's `bulk_import_duration_ms` on its
// clock, migrating its connections one by one; List Bulk Ops shows it queued, in progress, then completed. A
// connection whose user is not one of the team's fails. `wait_for_completion` waits up to `bulk_import_wait_ms`.
import { randomId, sleep } from "../platform.ts";
import { stateRefusal } from "./vocabulary.ts";
import { bulkImportDisabled } from "../refusals.ts";
import { isoAt, teamNow, type BulkOpRecord, type TeamState } from "./model.ts";
import { liveUser } from "./users.ts";
import type { TeamHandler } from "./vocabulary.ts";

/** What an operation has done by the team's clock: how many connections are processed, and its status. */
function progress(team: TeamState, op: BulkOpRecord) {
  const elapsed = teamNow(team) - op.createdAt;
  const total = op.connections.length;
  const byClock = op.durationMs <= 0 || elapsed >= op.durationMs ? total : Math.max(0, Math.floor((elapsed / op.durationMs) * total));
  const done = (op.done = Math.max(op.done, byClock));
  const processed = op.connections.slice(0, done);
  const imported = processed.filter((c) => c.ok).map((c) => c.userId);
  const failed = processed.filter((c) => !c.ok).map((c) => c.userId);
  const status = done === total ? "completed" : done === 0 ? "queued" : "in_progress";
  // When the last connection processed so far was: the end of the operation's time once all are.
  const updatedAt = op.createdAt + op.durationMs * (total === 0 ? 1 : done / total);
  return { done, total, imported, failed, status, updatedAt };
}

function describe(team: TeamState, op: BulkOpRecord) {
  const p = progress(team, op);
  return {
    id: op.id,
    provider: op.provider,
    status: p.status,
    counts: { submitted: p.total, imported: p.imported.length, failed: p.failed.length, pending: p.total - p.done },
    user_ids_imported: p.imported,
    user_ids_failed: p.failed,
    created_at: isoAt(op.createdAt),
    updated_at: isoAt(Math.round(p.updatedAt)),
  };
}

/** Whether the team may import this provider's connections: a team made through the management API needs its own OAuth credential for it. */
function importEnabled(team: TeamState, provider: string): boolean {
  return team.orgId === undefined || team.customCredentials.has(provider);
}

export const bulkImportHandlers: Record<string, TeamHandler> = {
  async bulkImportConnections({ team, call, store }) {
    const provider = String(call.body.provider);
    if (!importEnabled(team, provider)) {
      return stateRefusal(bulkImportDisabled(provider, team.id));
    }
    const connections = (call.body.connections as { user_id: string }[]).map((c) => ({ userId: c.user_id, ok: liveUser(team, c.user_id) !== undefined }));
    // The operation and each of its connections count: a call may submit thousands.
    store.reserve(team, 1 + connections.length);
    const op: BulkOpRecord = { id: randomId(), provider, createdAt: teamNow(team), durationMs: team.settings.bulk_import_duration_ms, connections, done: 0 };
    team.bulkOps.push(op);
    if (call.body.wait_for_completion === true) {
      const remaining = op.createdAt + op.durationMs - teamNow(team);
      const wait = team.settings.bulk_import_wait_ms;
      if (remaining <= wait) {
        if (remaining > 0) await sleep(remaining);
        // Complete now: every connection is imported or failed, as decided when it was submitted.
        return {
          status: 200,
          body: {
            user_ids_imported: connections.filter((c) => c.ok).map((c) => c.userId),
            user_ids_failed: connections.filter((c) => !c.ok).map((c) => c.userId),
          },
        };
      }
      await sleep(wait);
    }
    return { status: 202, body: { user_ids_imported: [], user_ids_failed: [] } };
  },

  listBulkOps({ team }) {
    // The whole collection, newest first, as one page: the pipeline filters it and cuts the asked page (src/mock/whole-collection.ts).
    const all = team.bulkOps.map((op) => describe(team, op)).reverse();
    return { status: 200, body: { bulk_ops: all, total: all.length, page: 1, size: all.length, pages: 1 } };
  },
};
