// The inputs of an operation that the coverage and generated passes vary: its path and query parameters and the
// top-level fields of a JSON body with properties, each read from a call and set in a copy of it.
import { deref, type ContractOperation } from "../../contract/operations.ts";
import { isObject, type JsonObject } from "../../contract/json.ts";
import type { Call } from "../calls.ts";

export interface Input {
  /** `query size`, `body name`: how a check names it. */
  key: string;
  location: "path" | "query" | "body";
  name: string;
  schema: unknown;
  required: boolean;
}

export function inputsOf(document: JsonObject, op: ContractOperation): Input[] {
  const inputs: Input[] = op.parameters
    .filter((p) => p.in === "path" || p.in === "query")
    .map((p) => ({
      key: `${String(p.in)} ${String(p.name)}`,
      location: p.in as "path" | "query",
      name: String(p.name),
      schema: p.schema,
      required: p.required === true,
    }));
  const media = isObject(op.requestBody?.content) ? op.requestBody.content["application/json"] : undefined;
  const schema = isObject(media) ? deref(document, media.schema) : undefined;
  if (isObject(schema) && isObject(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, property] of Object.entries(schema.properties))
      inputs.push({ key: `body ${name}`, location: "body", name, schema: property, required: required.has(name) });
  }
  return inputs;
}

/** The input's value in a call; undefined when the call leaves it out. */
export function inputValue(call: Call, input: Input): unknown {
  if (input.location === "body") return isObject(call.body) ? call.body[input.name] : undefined;
  return call[input.location][input.name];
}

/** Sets one input of a call in place (leaves it out, for `undefined`). */
export function setInput(call: Call, input: Input, value: unknown): void {
  if (input.location === "body") {
    if (!isObject(call.body)) return;
    if (value === undefined) delete call.body[input.name];
    else call.body[input.name] = value;
  } else if (value === undefined) delete call[input.location][input.name];
  else call[input.location][input.name] = input.location === "path" ? String(value) : value;
}
