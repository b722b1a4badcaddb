// Which credential each operation takes and under which header, from the contract: the client option per operation
// (generate-tables' operationRows, the same the client is built from) and the header its security scheme names.
import type { ContractOperation } from "../../src/contract/operations.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import type { ContractValidator } from "../../src/contract/validator.ts";
import { operationRows } from "../generate-tables.ts";
import type { Credential } from "./calls.ts";
import type { Credentials } from "./options.ts";

export type CredentialOption = keyof Credentials;

/** The command-line option that gives a credential, for the reason a check is skipped without it. */
export const OPTION_FLAGS: Record<CredentialOption, string> = { apiKey: "--api-key", managementKey: "--management-key", linkToken: "createLinkToken's answer" };

export class CredentialMap {
  readonly #options = new Map<string, CredentialOption>();
  readonly #headers = new Map<CredentialOption, string>();

  constructor(document: JsonObject, operations: ContractOperation[], validator: ContractValidator) {
    const rows = new Map(operationRows(document).map((row) => [row.operationId, row.credential as CredentialOption | null]));
    for (const op of operations) {
      const option = rows.get(op.operationId);
      const header = validator.credentialHeader(op);
      if (option == null || header === undefined) continue;
      this.#options.set(op.operationId, option);
      this.#headers.set(option, header);
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

  /** The operation's own credential with its value, or the option it lacks. */
  credentialFor(op: ContractOperation, values: Credentials): { credential?: Credential; missing?: CredentialOption } {
    const option = this.optionOf(op);
    if (option === undefined) return {};
    const value = values[option];
    return value === undefined ? { missing: option } : { credential: { header: this.header(option), value } };
  }
}
