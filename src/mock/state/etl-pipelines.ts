// A team's ETL pipelines in state: created, listed, read, updated and deleted as the management API describes them;
// the destination's shared access key is write-only, so it is taken and never kept or shown.
import { randomId } from "../platform.ts";
import { isoAt, type EtlPipelineRecord, type TeamState } from "./model.ts";
import { notFound, type OrgHandler, type StateAnswer } from "./vocabulary.ts";

type TeamManagementHandler = (team: TeamState, ...rest: Parameters<OrgHandler>) => ReturnType<OrgHandler>;

const shownDestination = ({ shared_access_key: _key, ...shown }: { shared_access_key?: string } & EtlPipelineRecord["destination"]) => shown;

const unknownPipeline = (team: TeamState, id: string): StateAnswer => notFound(`Team ${team.id} has no ETL pipeline with the id ${id}.`);

export const etlPipelineHandlers: Record<string, TeamManagementHandler> = {
  listEtlPipelines: (team) => ({ status: 200, body: [...team.etlPipelines.values()] }),
  createEtlPipeline(team, { call, store }) {
    store.reserve(team);
    const at = isoAt(Date.now());
    const pipeline: EtlPipelineRecord = {
      id: randomId(),
      team_id: team.id,
      name: String(call.body.name),
      enabled: call.body.enabled ?? true,
      destination: shownDestination(call.body.destination),
      routes: call.body.routes ?? [],
      default_event_hub: call.body.default_event_hub ?? null,
      created_at: at,
      updated_at: at,
    };
    team.etlPipelines.set(pipeline.id, pipeline);
    return { status: 201, body: pipeline };
  },
  getEtlPipeline(team, { call }) {
    const pipeline = team.etlPipelines.get(call.path.pipeline_id!);
    return pipeline === undefined ? unknownPipeline(team, call.path.pipeline_id!) : { status: 200, body: pipeline };
  },
  updateEtlPipeline(team, { call }) {
    const pipeline = team.etlPipelines.get(call.path.pipeline_id!);
    if (pipeline === undefined) return unknownPipeline(team, call.path.pipeline_id!);
    for (const field of ["name", "enabled", "routes", "default_event_hub"] as const) {
      if (call.body?.[field] !== undefined) (pipeline as unknown as Record<string, unknown>)[field] = call.body[field];
    }
    if (call.body?.destination !== undefined) pipeline.destination = shownDestination(call.body.destination);
    pipeline.updated_at = isoAt(Date.now());
    return { status: 200, body: pipeline };
  },
  deleteEtlPipeline(team, { call, store }) {
    const pipeline = team.etlPipelines.get(call.path.pipeline_id!);
    if (pipeline === undefined) return unknownPipeline(team, call.path.pipeline_id!);
    team.etlPipelines.delete(pipeline.id);
    store.release(team);
    return { status: 200, body: { id: pipeline.id, deleted: true } };
  },
};
