// The wording of what is wrong with a request or a response: Ajv's errors as one detail per field, and details as a line.
import type { ErrorObject } from "ajv/dist/2020.js";

export interface ErrorDetail {
  location: "path" | "query" | "header" | "body";
  field: string;
  message: string;
}

/** Details as one line (`/user_id is required; /created_on must be string`), for a log line or a header. */
export function detailsLine(details: Pick<ErrorDetail, "field" | "message">[]): string {
  return details.map((detail) => `${detail.field || "/"} ${detail.message}`).join("; ");
}

/** A detail as a line of its own: the body's pointer (`the body` for the whole), or the parameter's place and name, then what is wrong. */
export function detailLine(detail: ErrorDetail): string {
  return detail.location === "body" ? `${detail.field || "the body"} ${detail.message}` : `${detail.location} ${detail.field} ${detail.message}`;
}

function describe(error: ErrorObject): string {
  if (error.keyword === "enum") return `must be one of: ${(error.params.allowedValues as unknown[]).join(", ")}`;
  if (error.keyword === "required") return "is required";
  return error.message ?? "is invalid";
}

const parentPath = (schemaPath: string) => schemaPath.slice(0, schemaPath.lastIndexOf("/"));

/** One detail per field: the most specific error, not the anyOf and null-branch noise around it. */
export function toDetails(location: ErrorDetail["location"], errors: ErrorObject[], fieldOf: (error: ErrorObject) => string): ErrorDetail[] {
  const byField = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const field = fieldOf(error);
    byField.set(field, [...(byField.get(field) ?? []), error]);
  }
  return [...byField].map(([field, fieldErrors]) => {
    const telling = fieldErrors.filter((e) => e.keyword !== "anyOf" && !(e.keyword === "type" && e.params.type === "null"));
    const listed = telling.find((e) => e.keyword === "enum");
    // An open enumeration's other branch takes any string, so a value refused there by its type is wrong by type, not
    // by being unlisted (a closed enumeration's own type error shares the enum's schema, and its values say more).
    const wrongType = listed && telling.find((e) => e.keyword === "type" && parentPath(e.schemaPath) !== parentPath(listed.schemaPath));
    const chosen = wrongType ?? listed ?? telling[0] ?? fieldErrors[0]!;
    return { location, field, message: describe(chosen) };
  });
}

/** A body error's field: its place in the body, and for a missing property the property's own place. */
export function bodyField(error: ErrorObject): string {
  return error.keyword === "required" ? `${error.instancePath}/${String(error.params.missingProperty)}` : error.instancePath;
}
