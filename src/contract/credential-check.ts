// Whether a request carries a credential its operation accepts, and, when it does not, the words of the 401.
import type { Credentials } from "./credentials.ts";
import type { ContractOperation } from "./operations.ts";

export type RequestHeaders = Record<string, string | string[] | undefined>;

export class CredentialCheck {
  readonly #credentials: Credentials;
  /** The security headers of each operation's alternatives, lower-case, worked out once. */
  readonly #acceptedHeaders = new WeakMap<ContractOperation, string[][]>();

  constructor(credentials: Credentials) {
    this.#credentials = credentials;
  }

  /** The header of a security scheme, lower-case. */
  #schemeHeader(name: string): string {
    const credential = this.#credentials.scheme(name);
    if (credential === undefined) throw new Error(`no security scheme ${name} in the contract`);
    return credential.headerKey;
  }

  /** The security header an operation needs (its first requirement's), by the scheme's definition. */
  header(operation: ContractOperation): string | undefined {
    const name = operation.securitySchemes[0];
    return name === undefined ? undefined : this.#schemeHeader(name);
  }

  /**
   * Undefined when the request carries a credential the operation accepts; otherwise what to say: the header it
   * lacks, and, when it carries another kind of credential instead, that this one is not accepted here.
   */
  refusal(operation: ContractOperation, headers: RequestHeaders): string | undefined {
    if (operation.securityAlternatives.length === 0) return undefined;
    const present = (header: string) => {
      const value = headers[header];
      return value !== undefined && value !== "";
    };
    let accepted = this.#acceptedHeaders.get(operation);
    if (accepted === undefined) {
      accepted = operation.securityAlternatives.map((names) => names.map((name) => this.#schemeHeader(name)));
      this.#acceptedHeaders.set(operation, accepted);
    }
    if (accepted.some((headersOfOne) => headersOfOne.every(present))) return undefined;
    const wanted = accepted.map((headersOfOne) => headersOfOne.join(" and ")).join(", or ");
    const acceptedHeaders = new Set(accepted.flat());
    const others = this.#credentials.headerKeys().filter((header) => !acceptedHeaders.has(header) && present(header));
    return others.length === 0
      ? `The ${wanted} header is missing.`
      : `This operation takes ${wanted}; ${others.join(" and ")} is another kind of credential and is not accepted here.`;
  }
}
