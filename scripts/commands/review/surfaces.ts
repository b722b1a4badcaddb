// The package's surface on both sides of a review: the base revision's generated/surface.json from git (none before the
// snapshot existed: nothing to compare) and the working tree's, compared and located on their lines.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { git } from "../../build/lib/git.ts";
import type { Surface } from "../../build/surface.ts";
import type { LocatedChange } from "./report.ts";
import { diffSurfaces, surfaceLine } from "./surface-diff.ts";

export const SURFACE_FILE = "generated/surface.json";

/** A revision's surface.json, or undefined when that revision has none. */
export async function surfaceAt(root: string, commit: string): Promise<string | undefined> {
  return git(root, ["show", `${commit}:${SURFACE_FILE}`]).catch(() => undefined);
}

/** The surface changes from `commit` to the working tree, each located on its line of its side's surface.json. */
export async function readSurfaces(root: string, commit: string, headText?: string): Promise<{ changes: LocatedChange[]; compared: boolean }> {
  const [baseText, head] = await Promise.all([surfaceAt(root, commit), headText ?? readFile(path.join(root, SURFACE_FILE), "utf8").catch(() => undefined)]);
  if (baseText === undefined || head === undefined) return { changes: [], compared: false };
  const changes = diffSurfaces(JSON.parse(baseText) as Surface, JSON.parse(head) as Surface).map(({ keys, element, ...change }) => ({
    ...change,
    location: { file: SURFACE_FILE, line: surfaceLine(change.side === "base" ? baseText : head, keys, element), exact: true },
  }));
  return { changes, compared: true };
}
