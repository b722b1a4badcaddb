// The conditions part of `/_mock/state`, stateful mock or not: a PATCH's `conditions` set the team's (checked before
// anything changes), DELETE forgets them with the rest, and every answer that names a team says what its conditions
// are. The stateless mock answers `/_mock/state` for conditions alone.
import { readConditions, type Conditions } from "./conditions.ts";
import { refuse, type StateAnswer } from "./state/answers.ts";
import { CONTROL_METHODS, CONTROL_PATH } from "./state/control.ts";
import type { HeaderBag, StepContext } from "./steps/exchange.ts";

const invalid = (details: { location: string; field: string; message: string }[]) =>
  refuse(422, "invalid_request", `The request has ${details.length === 1 ? "1 invalid part" : `${details.length} invalid parts`}.`, { details });

/** A PATCH body's conditions, split from the rest (which the stateful mock reads), or the refusal of a bad one. */
function splitPatch(text: string): { conditions?: Conditions; rest: string } | StateAnswer {
  let body: unknown;
  try {
    body = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return { rest: text };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("conditions" in body)) return { rest: text };
  const { conditions, ...rest } = body as Record<string, unknown>;
  const read = readConditions(conditions, "/conditions");
  if (Array.isArray(read)) return invalid(read);
  return { conditions: read, rest: JSON.stringify(rest) };
}

function statelessAnswer(method: string, rest: string): StateAnswer {
  if (method === "GET" || method === "DELETE") return { status: 200, body: { stateful: false } };
  if (method !== "PATCH") return { ...refuse(405, "method_not_allowed", `${method} is not a method of ${CONTROL_PATH}; it takes ${CONTROL_METHODS.join(", ")}.`), headers: { allow: CONTROL_METHODS.join(", ") } };
  const others = Object.keys(JSON.parse(rest || "{}") as object);
  if (others.length > 0) {
    return invalid(others.map((key) => ({ location: "body", field: `/${key}`, message: "needs the stateful mock (--stateful): the stateless mock keeps only conditions" })));
  }
  return { status: 200, body: { stateful: false } };
}

/** `/_mock/state`'s answer, its conditions part done here and the rest by the stateful mock when there is one. */
export function stateControl(method: string, headers: HeaderBag, text: string, context: StepContext): StateAnswer {
  const team = context.teamOf(headers);
  let conditions: Conditions | undefined;
  let rest = text;
  if (method === "PATCH") {
    const split = splitPatch(text);
    if ("status" in split) return split;
    ({ conditions, rest } = split);
    if (conditions !== undefined && team === "") return refuse(401, "unauthorized", "Conditions are per team: send the team's credential (x-svc-api-key).");
  }
  const answer = context.stateful === undefined ? statelessAnswer(method, rest) : context.stateful.control(method, headers, rest);
  if (answer.status !== 200) return answer;
  if (conditions !== undefined) context.conditions.set(team, conditions);
  if (method === "DELETE") context.conditions.reset(team === "" ? undefined : team);
  return team === "" ? answer : { ...answer, body: { ...(answer.body as object), conditions: context.conditions.of(team) } };
}
