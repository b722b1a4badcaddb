// Tells a script whether it was run as a command, so the same module can also be imported by build and tests.
import path from "node:path";
import { fileURLToPath } from "node:url";

export function isMain(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && fileURLToPath(moduleUrl) === path.resolve(process.argv[1]);
}
