// Reads an export of a surface.json written before the build recorded data by value (a `const` as its whole type's
// text, an operation table's routes as member texts) as the build records it now: a review against an older base
// compares values, and a message's words left out then are left out now.
import { ts } from "../../build/lib/typescript-on-demand.ts";
import { constData, memberData, parsed, type DataValue } from "../../build/surface-data.ts";
import type { Surface, SurfaceExport } from "../../build/surface.ts";

/**
 * The surface as the build records it now: one from before data by value (no export of it carries `data`, where
 * `knownValues` always does now) has each export read again; one made now is returned as it is, unparsed, so that a
 * review loads TypeScript only for an older base.
 */
export function surfaceAsNow(surface: Surface): Surface {
  const exports = Object.values(surface.entries).flatMap((entry) => [...Object.values(entry.declared), ...Object.values(entry.referenced ?? {})]);
  if (exports.some((exported) => exported.data !== undefined)) return surface;
  const read = (declared: Record<string, SurfaceExport>) =>
    Object.fromEntries(Object.entries(declared).map(([name, exported]) => [name, withDataByValue(exported)]));
  return {
    ...surface,
    entries: Object.fromEntries(
      Object.entries(surface.entries).map(([subpath, entry]) => [
        subpath,
        { ...entry, declared: read(entry.declared), ...(entry.referenced ? { referenced: read(entry.referenced) } : {}) },
      ]),
    ),
  };
}

/** One export of an older surface.json as the build records it now. */
export function withDataByValue(exported: SurfaceExport): SurfaceExport {
  if (exported.data !== undefined) return exported;
  if (exported.kind === "const" && exported.text?.length === 1) {
    const statement = parsed(`declare const ${exported.text[0]};`);
    const declaration = statement && ts.isVariableStatement(statement) ? statement.declarationList.declarations[0] : undefined;
    const data = declaration && constData(declaration);
    return data === undefined ? exported : { kind: "const", data };
  }
  if (!exported.members) return exported;
  const members: Record<string, string> = {};
  const data: Record<string, DataValue> = {};
  let read = false;
  for (const [name, text] of Object.entries(exported.members)) {
    // Only a readonly property can carry data (surface-data.ts): the others are kept as they are, unparsed.
    const statement = text.startsWith("readonly ") ? parsed(`interface _ { ${text} }`) : undefined;
    const member = statement && ts.isInterfaceDeclaration(statement) ? statement.members[0] : undefined;
    const carried = member && memberData(name, member);
    if (carried) read = true;
    if (carried === "message") continue;
    if (carried) data[name] = carried.data;
    else members[name] = text;
  }
  if (!read) return exported;
  return Object.keys(data).length > 0 ? { ...exported, members, data } : { ...exported, members };
}
