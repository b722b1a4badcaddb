// What JSON the validator refuses before or beside its schema: text that nests too deeply to parse safely, and values
// holding a number that is not finite (which JSON Schema's integer and number accept). Both iterative, so no input can
// overflow the stack.
import { isObject } from "./json.ts";

/** How deeply a JSON body may nest: far beyond any body of the contract, far below what recursion anywhere could overflow. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text opens more than `limit` arrays or objects inside each other (brackets in strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}

/** Whether a value holds a number that is not finite anywhere inside it. */
export function hasNonFinite(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "number" && !Number.isFinite(next)) return true;
    if (Array.isArray(next)) pending.push(...next);
    else if (isObject(next)) pending.push(...Object.values(next));
  }
  return false;
}
