// The package's types entry: every type of the contract without the client, and the values each enumeration lists.
export { knownValues } from "../../generated/known-values.js";
export type * from "../../generated/schema.js";
