// The conditions part of `/_mock/state`, stateful mock or not: a PATCH's `conditions` set the team's (checked before
// anything changes), DELETE forgets them with the rest, and every answer that names a team says what its conditions
// are. The stateless mock answers `/_mock/state` for conditions alone.
import { readConditions, type ConditionDetail, type Conditions } from "./conditions.ts";
import { stateRefusal, type StateAnswer } from "./state/vocabulary.ts";
import { conditionsPerTeam, invalidParts } from "./refusals.ts";
import type { StateMethod } from "./paths.ts";
import type { StepContext } from "./steps/exchange.ts";
import type { HeaderBag } from "./http-shapes.ts";

const invalid = (details: ConditionDetail[]) => stateRefusal(invalidParts(details));

/**
 * A PATCH body's conditions, split from the rest: the rest's text (what the stateful mock reads) and its fields
 * (undefined when the body is not a JSON object, which the stateful mock words itself), or the refusal of bad ones.
 */
function splitPatch(text: string): { conditions?: Conditions; rest: string; fields: string[] | undefined } | StateAnswer {
  let body: unknown;
  try {
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { rest: text, fields: undefined };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { rest: text, fields: undefined };
  const { conditions, ...rest } = body as Record<string, unknown>;
  if (conditions === undefined) return { rest: text, fields: Object.keys(rest) };
  const read = readConditions(conditions, "/conditions");
  if (Array.isArray(read)) return invalid(read);
  return { conditions: read, rest: JSON.stringify(rest), fields: Object.keys(rest) };
}

function statelessAnswer(method: StateMethod, fields: string[] | undefined): StateAnswer {
  if (method === "GET" || method === "DELETE") return { status: 200, body: { stateful: false } };
  if (fields === undefined) return invalid([{ location: "body", field: "", message: "must be a JSON object with conditions" }]);
  if (fields.length > 0)
    return invalid(
      fields.map((key) => ({ location: "body", field: `/${key}`, message: "needs the stateful mock (--stateful): the stateless mock keeps only conditions" })),
    );
  return { status: 200, body: { stateful: false } };
}

/** `/_mock/state`'s answer, its conditions part done here and the rest by the stateful mock when there is one. */
export function stateControl(method: StateMethod, headers: HeaderBag, text: string, context: StepContext): StateAnswer {
  const team = context.teamOf(headers);
  let conditions: Conditions | undefined;
  let rest = text;
  let fields: string[] | undefined = [];
  if (method === "PATCH") {
    const split = splitPatch(text);
    if ("status" in split) return split;
    ({ conditions, rest, fields } = split);
    if (conditions !== undefined && team === "") return stateRefusal(conditionsPerTeam());
  }
  const answer = context.stateful === undefined ? statelessAnswer(method, fields) : context.stateful.control(method, headers, rest);
  if (answer.status !== 200) return answer;
  if (conditions !== undefined) context.conditions.set(team, conditions);
  if (method === "DELETE") context.conditions.reset(team === "" ? undefined : team);
  return team === "" ? answer : { ...answer, body: { ...(answer.body as object), conditions: context.conditions.of(team) } };
}
