// What each credential is, in one table: its security scheme, its header and its deprecation as the contract says them,
// and what the contract cannot say (the client option that carries it, its kind, its label, its placeholder in
// samples, where verify gets it). Every part that needs one of these asks here; adding a credential is one row.
import { isObject, type JsonObject } from "./json.ts";

/** The client option that carries a credential (`createClient({ apiKey })`). */
export type CredentialOption = "apiKey" | "linkToken" | "managementKey";
/** Which credential it is to the service: the regular API's team key, the link token, or a management key. */
export type CredentialKind = "team" | "token" | "management";

interface Declared {
  kind: CredentialKind;
  /** What a reader calls it (the reference's credentials table). */
  label: string;
  /** The client option; none for a deprecated header the client never sends (the org key stands in for the management key). */
  option?: CredentialOption;
  /** The generated client's doc comment for the option. */
  doc?: string;
  /**
   * The placeholder a reader replaces in samples, and verify's loopback runs send: obviously not a key, and accepted by
   * the mock (which takes any non-empty credential), so the samples run against it unchanged but for the base address.
   */
  placeholder?: string;
  /** Where verify gets it: a command-line option, or a call of its own. */
  source?: string;
}

const DECLARED: Record<string, Declared> = {
  TeamApiKey: { kind: "team", label: "Team API key", option: "apiKey", doc: "Team API key", placeholder: "YOUR_TEAM_API_KEY", source: "--api-key" },
  LinkToken: {
    kind: "token",
    label: "Link token",
    option: "linkToken",
    doc: "Link token from `POST /v2/link/token`",
    placeholder: "YOUR_LINK_TOKEN",
    source: "createLinkToken's answer",
  },
  ManagementKey: {
    kind: "management",
    label: "Management key",
    option: "managementKey",
    doc: "Management key (org or team), for the management API",
    placeholder: "YOUR_MANAGEMENT_KEY",
    source: "--management-key",
  },
  OrgKey: { kind: "management", label: "Org key" },
};

/** The extension naming a deprecated security scheme's replacement (OpenAPI 3.1 has no `deprecated` for one). */
export const DEPRECATED_SCHEME = "x-svc-deprecated";

export interface Credential extends Declared {
  /** The security scheme's name in the contract (`TeamApiKey`). */
  scheme: string;
  /** The header as the contract writes it (`X-Management-Key`). */
  header: string;
  /** The header lower-case, as Node and fetch hand header names over. */
  headerKey: string;
  /** The scheme to use instead, when this one is deprecated. */
  replacedBy?: string;
  /** The scheme as the contract declares it. */
  definition: JsonObject;
}

/** Every credential of the contract, in the order it declares them; a scheme this table does not know is an error. */
export function credentialTable(document: JsonObject): Credential[] {
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  return Object.entries(schemes).map(([scheme, definition]) => {
    const declared = DECLARED[scheme];
    if (declared === undefined) throw new Error(`security scheme ${scheme} is not in src/contract/credentials.ts: add its row`);
    if (!isObject(definition) || definition.in !== "header" || typeof definition.name !== "string")
      throw new Error(`security scheme ${scheme} is not a header credential`);
    const replacement = definition[DEPRECATED_SCHEME];
    if (replacement !== undefined && (typeof replacement !== "string" || !(replacement in schemes)))
      throw new Error(`${scheme}'s ${DEPRECATED_SCHEME} names no security scheme`);
    return {
      ...declared,
      scheme,
      header: definition.name,
      headerKey: definition.name.toLowerCase(),
      definition,
      ...(typeof replacement === "string" ? { replacedBy: replacement } : {}),
    };
  });
}

/** Looks up credentials by scheme and by client option. */
export class Credentials {
  readonly all: Credential[];
  readonly #byScheme: Map<string, Credential>;

  constructor(document: JsonObject) {
    this.all = credentialTable(document);
    this.#byScheme = new Map(this.all.map((credential) => [credential.scheme, credential]));
  }

  scheme(name: string): Credential | undefined {
    return this.#byScheme.get(name);
  }

  option(option: CredentialOption): Credential | undefined {
    return this.all.find((credential) => credential.option === option);
  }

  /** Every credential header, lower-case. */
  headerKeys(): string[] {
    return this.all.map((credential) => credential.headerKey);
  }
}

/** The placeholder of each client option, for samples and verify's loopback runs. */
export const CREDENTIAL_PLACEHOLDERS = Object.fromEntries(
  Object.values(DECLARED).flatMap((row) => (row.option !== undefined && row.placeholder !== undefined ? [[row.option, row.placeholder]] : [])),
) as Record<CredentialOption, string>;

/** Where verify gets each client option's credential, for the reason a check is skipped without it. */
export const CREDENTIAL_SOURCES = Object.fromEntries(
  Object.values(DECLARED).flatMap((row) => (row.option !== undefined && row.source !== undefined ? [[row.option, row.source]] : [])),
) as Record<CredentialOption, string>;

/** The client option of a scheme, by the table alone (the generated tables read it before a document is at hand). */
export function declaredOption(scheme: string): { option: CredentialOption; doc: string } | undefined {
  const row = DECLARED[scheme];
  return row?.option === undefined ? undefined : { option: row.option, doc: row.doc ?? row.label };
}
