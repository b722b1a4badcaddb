// TypeScript's compiler, loaded the first time something of it is used: loading it takes about a second, and the review
// needs it only to word a changed declaration or to read a base's older surface.json, which most reviews never do.
import { createRequire } from "node:module";
import type TypeScript from "typescript";

let loaded: typeof TypeScript | undefined;

/** The `typescript` module, required on the first property read (it is CommonJS, so a plain require gives it whole). */
export const ts: typeof TypeScript = new Proxy({} as typeof TypeScript, {
  get: (_, key) => (loaded ??= createRequire(import.meta.url)("typescript") as typeof TypeScript)[key as keyof typeof TypeScript],
});
