// The headers `--header 'Name: value'` adds to every request verify sends (a gateway's own, in front of a staging
// server): read and refused here, for a run and a replay alike, and named for the reproductions, which read each value
// from an environment variable of its own as they read the contract's keys.
import { readFileSync } from "node:fs";
import { credentialTable } from "../contract/credentials.ts";
import type { JsonObject } from "../contract/json.ts";
import { isHopHeader } from "../net/hop-headers.ts";
import { BUNDLE_PATH } from "./package-files.ts";

export interface GatewayHeader {
  /** As given: a reproduction writes it so. */
  name: string;
  value: string;
}

/** RFC 9110's token: what fetch takes as a header's name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The environment variable a reproduction reads a header's value from: `X-Gateway-Token` → `SVC_HEADER_X_GATEWAY_TOKEN`. */
export function headerVariable(name: string): string {
  return `SVC_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/**
 * The parts of a value free text must lose: the whole value, and each word of it long enough to be a secret of its own
 * (`Bearer <token>`: a server quoting the token alone must not write it either).
 */
export function secretParts(value: string): string[] {
  return [value, ...value.split(/\s+/).filter((word) => word.length >= 8 && word !== value)];
}

/** The contract's credential headers (lower case) and the option that gives each, read from the bundle the first time a header is given. */
let credentialFlags: Map<string, string> | undefined;
function contractCredentialFlags(): Map<string, string> {
  if (credentialFlags !== undefined) return credentialFlags;
  const table = credentialTable(JSON.parse(readFileSync(BUNDLE_PATH, "utf8")) as JsonObject);
  const sources = new Map(table.map((credential) => [credential.scheme, credential.source]));
  credentialFlags = new Map(
    table.map((credential) => {
      // A deprecated header (the org key) is given as the header that replaced it.
      const source = credential.source ?? (credential.replacedBy === undefined ? undefined : sources.get(credential.replacedBy));
      return [credential.headerKey, source ?? "the contract's security scheme"];
    }),
  );
  return credentialFlags;
}

/** Why verify sets a header itself, for the headers `--header` may not set (lower case). */
function setByVerify(name: string): string | undefined {
  if (name === "accept") return "verify sets Accept on each request as its operation declares";
  if (name === "content-type") return "verify sets Content-Type on each request with a body (and leaves it out where a check needs it left out)";
  const flag = contractCredentialFlags().get(name);
  if (flag !== undefined)
    return `it is a credential header of the contract, which verify sets itself: ${flag.startsWith("--") ? `give the key with ${flag}` : `verify takes it from ${flag}`}`;
  if (isHopHeader(name, undefined)) return "it belongs to the connection, which HTTP sets itself";
  return undefined;
}

/** The `--header` values read, or the one line saying what is wrong with the first that cannot be sent. */
export function readGatewayHeaders(given: string[]): { headers: GatewayHeader[] } | { error: string } {
  const headers: GatewayHeader[] = [];
  for (const each of given) {
    const colon = each.indexOf(":");
    const name = colon < 0 ? "" : each.slice(0, colon).trim();
    // Never the value in a refusal: it is a credential.
    if (colon < 0 || !TOKEN.test(name))
      return { error: `--header takes 'Name: value' (a header's name, a colon, its value): ${colon < 0 ? "no colon" : `"${name}" is not a header name`}` };
    const value = each.slice(colon + 1).trim();
    if (value === "") return { error: `--header ${name}: the value is empty` };
    if (/[\r\n\0]/.test(value)) return { error: `--header ${name}: the value holds a line break or a NUL, which no header may carry` };
    const refused = setByVerify(name.toLowerCase());
    if (refused !== undefined) return { error: `--header ${name} is refused: ${refused}` };
    if (headers.some((header) => header.name.toLowerCase() === name.toLowerCase())) return { error: `--header ${name} is given twice` };
    headers.push({ name, value });
  }
  return { headers };
}
