// The end of the message of a method and path a client does not have: the nearest operation it has, or the entry whose
// API the path is. A file of its own (generated/client/unknown-route.js and .cjs) that the client loads only when a
// call names an unknown path, so that no application carries it, nor the names of the other entries, in its first load.
import { clientEntries } from "../../generated/client-entries.js";
import { nearestName } from "../shared/nearest-name.js";

/**
 * What `where` (createClient, createManagementClient) says of `method path` after `... is not an operation of where`:
 * the entry that holds the path, when another does (a management path on createClient, any other path on
 * createManagementClient); else the nearest of `known`, the client's own routes, when one is near enough to be meant.
 */
export function unknownRoute(where: string, method: string, path: string, known: string[]): string {
  const holder = clientEntries.find((entry) => path.startsWith(entry.prefix))!;
  if (holder.factory !== where) return `: ${holder.what} is ${holder.factory}'s, from ${holder.entry}`;
  const near = nearestName(`${method} ${path}`, known);
  return near === undefined ? "" : `; did you mean ${near}?`;
}
