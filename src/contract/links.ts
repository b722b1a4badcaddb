// The links an operation's answers declare (OpenAPI `links`): the relations between operations (a create's answer
// links to the read, update and delete of what it made), read in one place for verify's state checks and the
// reference's table. `x-svc-credential` on a link names the field of the answer that holds the credential the linked
// call is made with; `x-svc-state: none` marks a link that only hands the next operation an id, which state checks skip.
import { isObject, type JsonObject } from "./json.ts";
import { deref, type ContractOperation } from "./operations.ts";

export const CREDENTIAL_LINK = "x-svc-credential";
export const STATE_LINK = "x-svc-state";

export interface ResponseLink {
  name: string;
  /** The linked operation's id. */
  operationId: string;
  /** Its parameters, each a value or a runtime expression (`$response.body#/id`, `$request.path.team_id`). */
  parameters: Record<string, unknown>;
  /** A runtime expression for the credential the linked call is made with. */
  credential?: string;
  description?: string;
  /** The linked call's whole body, with runtime expressions where the ids go. */
  requestBody?: unknown;
  /** False for a link marked `x-svc-state: none`: it hands an id on and claims nothing about what the server keeps. */
  state: boolean;
}

/** The links of an operation's answer with this status (`"201"`), in the order the contract gives them. */
export function responseLinks(document: JsonObject, op: ContractOperation, status: string): ResponseLink[] {
  const response = deref(document, op.responses[status]);
  const links = isObject(response) && isObject(response.links) ? response.links : {};
  return Object.entries(links).flatMap(([name, raw]) => {
    const link = deref(document, raw);
    if (!isObject(link) || typeof link.operationId !== "string") return [];
    const credential = link[CREDENTIAL_LINK];
    return [
      {
        name,
        operationId: link.operationId,
        parameters: isObject(link.parameters) ? link.parameters : {},
        ...(typeof credential === "string" ? { credential } : {}),
        ...(typeof link.description === "string" ? { description: link.description } : {}),
        ...(link.requestBody === undefined ? {} : { requestBody: link.requestBody }),
        state: link[STATE_LINK] !== "none",
      },
    ];
  });
}
