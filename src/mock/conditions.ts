// Real-world conditions a team asks of the mock, per team and seeded: latency (fixed or a range), a share of answers
// replaced by a declared failure (429 with Retry-After, or 500), and a share of connections dropped. The n-th request
// of a team under one seed meets the same fate on every run, so a test that makes the service fail is repeatable.
import type { Conditions } from "./public-types.ts";
import { nearestName } from "../shared/nearest-name.ts";

export type { Conditions };

export type FailureStatus = 429 | 500;
const FAILURES: readonly FailureStatus[] = [429, 500];

/** Most a latency may be: a minute is slow enough to test any timeout, and short enough not to hold a test run hostage. */
export const MAX_LATENCY_MS = 60_000;
const MAX_RETRY_AFTER_S = 3_600;

export interface ConditionDetail {
  location: "body";
  field: string;
  message: string;
}

const isRate = (value: unknown) => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1;
const isWhole = (value: unknown, max: number) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= max;

/** Reads and checks conditions; the details name every field that is wrong (under `at`, such as `/conditions`). */
export function readConditions(value: unknown, at = ""): Conditions | ConditionDetail[] {
  const detail = (field: string, message: string): ConditionDetail => ({ location: "body", field: `${at}${field}`, message });
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [detail("", "must be an object of conditions")];
  const {
    latency_ms: latency,
    failure_rate: failureRate,
    failure_statuses: statuses,
    retry_after_s: retryAfter,
    drop_rate: dropRate,
    seed,
    ...others
  } = value as Record<string, unknown>;
  const names = ["latency_ms", "failure_rate", "failure_statuses", "retry_after_s", "drop_rate", "seed"];
  const details = Object.keys(others).map((key) => {
    const near = nearestName(key, names);
    return detail(`/${key}`, `is not a condition (${near === undefined ? names.join(", ") : `did you mean ${near}?`})`);
  });
  const read: Conditions = {};
  if (latency !== undefined) {
    if (isWhole(latency, MAX_LATENCY_MS)) read.latency_ms = latency as number;
    else if (Array.isArray(latency) && latency.length === 2 && latency.every((ms) => isWhole(ms, MAX_LATENCY_MS)) && latency[0] <= latency[1])
      read.latency_ms = [latency[0], latency[1]];
    else details.push(detail("/latency_ms", `must be whole milliseconds from 0 to ${MAX_LATENCY_MS}, or [min, max] of them`));
  }
  if (failureRate !== undefined) {
    if (isRate(failureRate)) read.failure_rate = failureRate as number;
    else details.push(detail("/failure_rate", "must be a share from 0 to 1"));
  }
  if (statuses !== undefined) {
    if (Array.isArray(statuses) && statuses.length > 0 && statuses.every((status) => FAILURES.includes(status)))
      read.failure_statuses = [...new Set(statuses as FailureStatus[])];
    else details.push(detail("/failure_statuses", `must be a non-empty list of ${FAILURES.join(" and ")}`));
  }
  if (retryAfter !== undefined) {
    if (isWhole(retryAfter, MAX_RETRY_AFTER_S)) read.retry_after_s = retryAfter as number;
    else details.push(detail("/retry_after_s", `must be whole seconds from 0 to ${MAX_RETRY_AFTER_S}`));
  }
  if (dropRate !== undefined) {
    if (isRate(dropRate)) read.drop_rate = dropRate as number;
    else details.push(detail("/drop_rate", "must be a share from 0 to 1"));
  }
  if (seed !== undefined) {
    if (Number.isInteger(seed) && Math.abs(seed as number) <= 0xffffffff) read.seed = seed as number;
    else details.push(detail("/seed", "must be a whole number within ±4294967295"));
  }
  return details.length > 0 ? details : read;
}

/** A request's fate: dropped, answered with a failure, or answered as usual; after the latency in each case. */
export interface Fate {
  latencyMs: number;
  drop: boolean;
  failure: FailureStatus | undefined;
  retryAfterS: number;
}

/** Mulberry32: a small, fast generator whose sequence a 32-bit seed fixes. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface TeamConditions {
  conditions: Conditions;
  random: () => number;
}

/** Whether conditions ask for anything at all: without any, a request costs one map lookup. */
const asksAnything = (c: Conditions) => c.latency_ms !== undefined || (c.failure_rate ?? 0) > 0 || (c.drop_rate ?? 0) > 0;

/** Teams remembered at most: past it the oldest team's conditions are forgotten (it falls back to the defaults). */
const MAX_TEAMS = 10_000;

/** Every team's conditions, and the defaults a team without its own meets (from the command's flag or createMock). */
export class ConditionsTable {
  readonly #defaults: Conditions;
  readonly #teams = new Map<string, TeamConditions>();
  /** Set when neither the defaults nor any team asks for anything: the pipeline skips its draw. */
  #idle: boolean;

  constructor(defaults: Conditions = {}) {
    this.#defaults = defaults;
    this.#idle = !asksAnything(defaults);
  }

  get idle(): boolean {
    return this.#idle;
  }

  /** A team's conditions as they stand (its own, else the defaults). */
  of(team: string): Conditions {
    return this.#teams.get(team)?.conditions ?? this.#defaults;
  }

  /** Sets a team's conditions (an empty object: none), and starts its draws again from the seed. */
  set(team: string, conditions: Conditions): void {
    this.#remember(team, conditions);
    this.#idle = false;
  }

  #remember(team: string, conditions: Conditions): TeamConditions {
    this.#teams.delete(team);
    if (this.#teams.size >= MAX_TEAMS) this.#teams.delete(this.#teams.keys().next().value!);
    const entry = { conditions, random: generator(conditions.seed ?? 1) };
    this.#teams.set(team, entry);
    return entry;
  }

  /** Forgets a team's conditions (or every team's): it meets the defaults again, from the start of their draws. */
  reset(team?: string): void {
    if (team === undefined) this.#teams.clear();
    else this.#teams.delete(team);
    this.#idle = this.#teams.size === 0 && !asksAnything(this.#defaults);
  }

  /** The next request's fate for a team; undefined when its conditions ask for nothing. */
  draw(team: string): Fate | undefined {
    let entry = this.#teams.get(team);
    if (entry === undefined) {
      if (!asksAnything(this.#defaults)) return undefined;
      entry = this.#remember(team, this.#defaults);
    }
    const { conditions: c, random } = entry;
    if (!asksAnything(c)) return undefined;
    // Three draws every time, whatever is asked, so one condition changed does not shift the others' sequence.
    const [dropDraw, failureDraw, latencyDraw] = [random(), random(), random()];
    const statuses = c.failure_statuses ?? [429];
    const failed = failureDraw < (c.failure_rate ?? 0);
    const latency = c.latency_ms;
    return {
      latencyMs: latency === undefined ? 0 : typeof latency === "number" ? latency : latency[0] + Math.floor(latencyDraw * (latency[1] - latency[0] + 1)),
      drop: dropDraw < (c.drop_rate ?? 0),
      // The failure's status from the same draw, rescaled: which failure is as repeatable as whether.
      failure: failed ? statuses[Math.min(statuses.length - 1, Math.floor((failureDraw / (c.failure_rate ?? 1)) * statuses.length))] : undefined,
      retryAfterS: c.retry_after_s ?? 1,
    };
  }
}
