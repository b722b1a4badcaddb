// Reads an export of a surface.json written before the build recorded data by value (a `const` as its whole type's
// text, an operation table's routes as member texts) as the build records it now: a review against an older base
// compares values, and a message's words left out then are left out now.
import ts from "typescript";
import { constData, memberData, parsed, type DataValue } from "../../build/surface-data.ts";
import type { SurfaceExport } from "../../build/surface.ts";

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
