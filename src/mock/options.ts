// Reads the mock's command-line options (--port, --host, --stateful, --help) the same way for `npm start` and `svc-health-mock`:
// the usage on --help, one line naming the problem otherwise.
import { parseArgs } from "node:util";

export interface MockListenOptions {
  port: number;
  host: string;
  /** Whether the mock remembers what each team did (`--stateful`). */
  stateful: boolean;
}

/** The options, or exits: 0 after printing the usage, 1 after `fail` names what is wrong (`helpHint` says how to get help). */
export function readMockOptions(usage: string, helpHint: string, fail: (line: string) => never): MockListenOptions {
  let values: { port?: string; host?: string; stateful?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { port: { type: "string" }, host: { type: "string" }, stateful: { type: "boolean" }, help: { type: "boolean" } }, strict: true }));
  } catch (error) {
    return fail(`${(error as Error).message} (${helpHint})`);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const port = Number(values.port ?? process.env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port ${values.port ?? process.env.PORT} is not a port number (0 to 65535)`);
  return { port, host: values.host ?? "127.0.0.1", stateful: values.stateful === true };
}
