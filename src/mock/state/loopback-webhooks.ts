// The stateful mock's one departure from the contract: a webhook endpoint may also be a loopback `http://` address, so
// a test can receive the mock's deliveries without TLS. The service requires `https://`; this copy of the contract,
// which only the stateful mock validates against, widens exactly the patterns that say so.
import { isObject, type JsonObject } from "../../contract/json.ts";

export const HTTPS_ONLY = "^https://";
/** https, or http to 127.0.0.1, localhost or [::1] with an optional port. */
export const HTTPS_OR_LOOPBACK = "^(https://|http://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]{1,5})?(/|$))";

/** A copy of the contract whose `^https://` URL patterns also take loopback http; throws when it has none to widen. */
export function allowLoopbackWebhooks(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  let widened = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    if (node.pattern === HTTPS_ONLY) {
      node.pattern = HTTPS_OR_LOOPBACK;
      widened++;
    }
    Object.values(node).forEach(visit);
  };
  visit((copy.components as JsonObject).schemas);
  if (widened === 0) throw new Error(`the contract has no ${HTTPS_ONLY} pattern for the stateful mock to widen to loopback webhook URLs`);
  return copy;
}
