// The contract's ErrorBody as an Ajv check, for answers that no operation's declared response covers (refusals before routing).
import { CONTRACT_ID, createContractAjv } from "../../src/contract/ajv.ts";

/** Returns undefined when the value is an ErrorBody, else Ajv's complaint. */
export function createErrorBodyCheck(contract: object): (value: unknown) => string | undefined {
  const validate = createContractAjv(contract).compile({ $ref: `${CONTRACT_ID}#/components/schemas/ErrorBody` });
  return (value) => (validate(value) ? undefined : JSON.stringify(validate.errors).slice(0, 300));
}
