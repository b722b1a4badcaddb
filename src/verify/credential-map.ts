// Which credential each operation takes and under which header: its first security requirement's, looked up in the
// contract's credential table (src/contract/credentials.ts, which the client is built from too).
import type { ContractOperation } from "../contract/operations.ts";
import type { JsonObject } from "../contract/json.ts";
import { Credentials as CredentialTable, CREDENTIAL_SOURCES, type CredentialOption } from "../contract/credentials.ts";

export type { CredentialOption };

/** Where verify gets a credential, for the reason a check is skipped without it. */
export const OPTION_FLAGS: Record<CredentialOption, string> = CREDENTIAL_SOURCES;

export class CredentialMap {
  readonly #options = new Map<string, CredentialOption>();
  readonly #headers = new Map<CredentialOption, string>();

  constructor(document: JsonObject, operations: ContractOperation[]) {
    const table = new CredentialTable(document);
    for (const op of operations) {
      const scheme = op.securitySchemes[0];
      const credential = scheme === undefined ? undefined : table.scheme(scheme);
      if (credential?.option === undefined) continue;
      this.#options.set(op.operationId, credential.option);
      this.#headers.set(credential.option, credential.headerKey);
    }
  }

  /** The client option whose credential the operation takes; undefined for an operation that takes none. */
  optionOf(op: ContractOperation): CredentialOption | undefined {
    return this.#options.get(op.operationId);
  }

  isManagement(op: ContractOperation): boolean {
    return this.optionOf(op) === "managementKey";
  }

  /** The header of a credential, as its security scheme names it. */
  header(option: CredentialOption): string {
    const header = this.#headers.get(option);
    if (header === undefined) throw new Error(`verify: no operation of the contract takes the ${option} credential`);
    return header;
  }

  /** The credential a header carries, by the header's name in any case. */
  optionOfHeader(header: string): CredentialOption | undefined {
    const wanted = header.toLowerCase();
    return [...this.#headers].find(([, name]) => name.toLowerCase() === wanted)?.[0];
  }
}
