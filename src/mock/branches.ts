// Reads the branches of the interface document's rules that an operation declares (`x-svc-mock-branches`, beside the
// operation in its path file): which declared answer the mock gives a request that chose none with `Prefer`.
import { isObject } from "../contract/json.ts";
import type { ContractOperation } from "../contract/operations.ts";

export const MOCK_BRANCHES = "x-svc-mock-branches";

/** A declared answer, chosen by status, by example name, or both. */
export interface BranchAnswer {
  code?: number;
  example?: string;
}

export interface MockBranch {
  name: string;
  description: string;
  /** The request holds one of these values at this place; a branch without a condition always applies. */
  when?: { in: "body" | "query"; field: string; is: unknown[] };
  answer: BranchAnswer;
}

export interface BranchRequest {
  /** The parsed JSON body. */
  body: unknown;
  query: URLSearchParams;
}

/** The operation's branches in order (the first that applies wins); none for most operations. */
export function mockBranches(op: ContractOperation): MockBranch[] {
  const declared = op.operation[MOCK_BRANCHES];
  if (declared === undefined) return [];
  if (!Array.isArray(declared)) throw new Error(`${op.operationId}: ${MOCK_BRANCHES} is not a list`);
  return declared.map((branch, index) => {
    if (!isObject(branch) || typeof branch.name !== "string" || !isObject(branch.answer)) {
      throw new Error(`${op.operationId}: ${MOCK_BRANCHES}[${index}] needs a name and an answer`);
    }
    const when = branch.when;
    if (when !== undefined && !(isObject(when) && (when.in === "body" || when.in === "query") && typeof when.field === "string" && Array.isArray(when.is))) {
      throw new Error(`${op.operationId}: ${MOCK_BRANCHES} ${branch.name} has a condition that is not {in: body|query, field, is: [values]}`);
    }
    return { name: branch.name, description: String(branch.description ?? ""), when: when as MockBranch["when"], answer: branch.answer as BranchAnswer };
  });
}

/** The first branch whose condition the request meets. A query value is compared as the text it arrives as. */
export function chooseBranch(branches: MockBranch[], request: BranchRequest): MockBranch | undefined {
  return branches.find(({ when }) => {
    if (when === undefined) return true;
    if (when.in === "query") {
      const value = request.query.get(when.field);
      return value !== null && when.is.some((candidate) => String(candidate) === value);
    }
    const value = isObject(request.body) ? request.body[when.field] : undefined;
    return value !== undefined && when.is.includes(value as never);
  });
}
