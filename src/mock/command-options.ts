// Reads the mock's command-line options the same way for `npm start` and `svc-health-mock`, from one table of flags that
// both parseArgs and the usage read (so a flag cannot be taken and not listed): the usage on --help, one line naming the
// problem otherwise.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { readConditions, type Conditions } from "./conditions.ts";
import type { MockSettings } from "./public-types.ts";
import type { MockHostOptions } from "./host.ts";
import { upstreamRefusal } from "./upstream.ts";
import { DEFAULT_JOURNAL_SIZE } from "./journal.ts";
import { conditionProblems, isJournalSize, JOURNAL_SIZE_RANGE } from "./option-checks.ts";
import { parseArgsProblem } from "../shared/nearest-name.ts";
import { MOCK_PATHS } from "../shared/mock-paths.ts";
import { packageVersion } from "../shared/package-version.ts";

/** The settings a flag gives as it is, each present (undefined when the flag was not given). */
type FlagSettings<K extends keyof MockSettings> = { [P in K]-?: MockSettings[P] | undefined };

/**
 * What the command's flags ask for, read and checked: the command's audience's options. Its settings are the library's
 * (public-types.ts's MockSettings) where a flag gives one as it is; a seed is a file here, and the proxy is the command's.
 */
export interface MockCommandOptions extends FlagSettings<"conditions" | "journalSize"> {
  port: number;
  host: string;
  /** Whether the mock remembers what each team did (`--stateful`, `--data` or `--strict-keys`). */
  stateful: boolean;
  /** Only the keys the mock knows authenticate (`--strict-keys`). */
  strictKeys: boolean;
  /** A seed file to start the stateful mock from (`--data`). */
  dataFile: string | undefined;
  /** The real server a validating proxy forwards to. */
  proxy: URL | undefined;
  /** Where the proxy writes its exchanges as HAR, redacted. */
  record: string | undefined;
}

/** Every flag, once: how parseArgs reads it and how the usage lists it (the flag with its argument, then its lines); the
 * package's surface snapshot (scripts/build/surface.ts) reads it too, so a flag removed is a break the review sees. */
export const FLAGS = {
  port: { type: "string", usage: ["--port <port>", "the port to listen on (default: PORT, else 4010)"] },
  host: { type: "string", usage: ["--host <address>", "the address to listen on (default: 127.0.0.1)"] },
  stateful: {
    type: "boolean",
    usage: [
      "--stateful",
      "remember what each team does (users, link tokens, insurance, bulk imports, webhook",
      `endpoints), per credential; ${MOCK_PATHS.state} resets it and moves each team's clock`,
    ],
  },
  "strict-keys": {
    type: "boolean",
    usage: [
      "--strict-keys",
      "refuse with 401 every key the mock does not know, as the service does (implies",
      "--stateful): known are the seed's keys, those the management API issues, the",
      "placeholders YOUR_TEAM_API_KEY and YOUR_MANAGEMENT_KEY, and verify's own keys",
    ],
  },
  data: { type: "string", usage: ["--data <file>", `start the stateful mock from a seed file (the form GET ${MOCK_PATHS.data} exports)`] },
  conditions: {
    type: "string",
    usage: [
      "--conditions <json>",
      `what every team meets until it sets its own through ${MOCK_PATHS.state}, such as`,
      `'{"latency_ms":[50,200],"failure_rate":0.3,"failure_statuses":[429],"seed":7}'`,
      "(also retry_after_s, drop_rate)",
    ],
  },
  "journal-size": {
    type: "string",
    usage: ["--journal-size <n>", `recent requests ${MOCK_PATHS.journal} keeps per team (default ${DEFAULT_JOURNAL_SIZE}; 0 turns it off)`],
  },
  proxy: {
    type: "string",
    usage: [
      "--proxy <upstream>",
      "forward every request to a real server (https, or http on this machine), check both",
      "sides against the contract, and name each violation in an x-svc-contract-violations",
      "header (and the journal); no redirect is followed",
    ],
  },
  record: { type: "string", usage: ["--record <file>", "with --proxy: write the exchanges, redacted, as HAR"] },
  version: { type: "boolean", usage: ["--version", "the package's version"] },
  help: { type: "boolean", usage: ["--help", "this text"] },
} as const;

const OPTIONS = Object.fromEntries(Object.entries(FLAGS).map(([name, { type }]) => [name, { type }])) as {
  [K in keyof typeof FLAGS]: { type: (typeof FLAGS)[K]["type"] };
};

/** Where a flag's description starts in the usage, its later lines aligned under it. */
const USAGE_COLUMN = 23;

/** The options both commands take, as their usage lists them. */
export const OPTIONS_USAGE = `${Object.values(FLAGS)
  .map(({ usage: [flag, first, ...rest] }) =>
    [`  ${flag.padEnd(USAGE_COLUMN - 3)} ${first}`, ...rest.map((line) => `${" ".repeat(USAGE_COLUMN)}${line}`)].join("\n"),
  )
  .join("\n")}

Answers carry x-svc-mock-warning when the mock took something a caller may not mean (a value an open
enumeration does not list).`;

/**
 * The arguments with a value that starts with a dash joined to its flag (`--journal-size -1` as `--journal-size=-1`),
 * so that the value is checked against its range instead of parseArgs calling it ambiguous.
 */
function joinDashValues(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!.startsWith("--") ? args[i]!.slice(2) : undefined;
    const takesValue = name !== undefined && Object.hasOwn(OPTIONS, name) && OPTIONS[name as keyof typeof OPTIONS].type === "string";
    if (takesValue && /^-\d/.test(args[i + 1] ?? "")) joined.push(`${args[i]}=${args[++i]}`);
    else joined.push(args[i]!);
  }
  return joined;
}

/** The options, or exits: 0 after printing the usage, 1 after `fail` names what is wrong (`helpHint` says how to get help). */
export function readMockOptions(usage: string, helpHint: string, fail: (line: string) => never, args: string[] = process.argv.slice(2)): MockCommandOptions {
  let values: { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };
  try {
    ({ values } = parseArgs({ args: joinDashValues(args), options: OPTIONS, strict: true }));
  } catch (error) {
    return fail(`${parseArgsProblem(error, Object.keys(FLAGS))} (${helpHint})`);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (values.version) {
    console.log(packageVersion());
    process.exit(0);
  }
  const port = Number(values.port ?? process.env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port ${values.port ?? process.env.PORT} is not a port number (0 to 65535)`);
  let conditions: Conditions | undefined;
  if (values.conditions !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(values.conditions);
    } catch {
      fail(`--conditions takes JSON, such as '{"latency_ms":[50,200],"failure_rate":0.1}'`);
    }
    const read = readConditions(parsed);
    if (Array.isArray(read)) fail(`--conditions: ${conditionProblems(read)}`);
    conditions = read;
  }
  const journalSize = values["journal-size"] === undefined ? undefined : Number(values["journal-size"]);
  if (journalSize !== undefined && !isJournalSize(journalSize)) fail(`--journal-size ${values["journal-size"]} is not ${JOURNAL_SIZE_RANGE}`);
  let proxy: URL | undefined;
  if (values.proxy !== undefined) {
    proxy = URL.canParse(values.proxy) ? new URL(values.proxy) : undefined;
    if (proxy === undefined) fail(`--proxy ${values.proxy} is not an http or https URL`);
    const refused = upstreamRefusal(proxy);
    if (refused !== undefined) fail(refused);
    const mockOnly = (["stateful", "data", "conditions", "strict-keys"] as const).filter((name) => values[name] !== undefined);
    if (mockOnly.length > 0) {
      const one = mockOnly.length === 1;
      fail(
        `--proxy passes the upstream's answers on; ${mockOnly.map((name) => `--${name}`).join(" and ")} ${one ? "is" : "are"} for the mock's own answers: leave ${one ? "it" : "them"} out`,
      );
    }
  }
  if (values.record !== undefined && proxy === undefined) fail("--record writes what a validating proxy forwards: give --proxy <upstream> too");
  return {
    port,
    host: values.host ?? "127.0.0.1",
    stateful: values.stateful === true || values.data !== undefined || values["strict-keys"] === true,
    strictKeys: values["strict-keys"] === true,
    dataFile: values.data,
    conditions,
    journalSize,
    proxy,
    record: values.record,
  };
}

/** The seed file `--data` names, as JSON; one that cannot be read or is not JSON stops the command in one line. */
export function readDataFile(file: string, fail: (line: string) => never): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return fail(`--data ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`--data ${file} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * What the flags ask of the mock itself, in the host's terms (both commands pass it on as it is): the state, started
 * from the seed data read from `--data`; the conditions; the journal's size; the proxy and its recording.
 */
export function hostOptionsOf(options: MockCommandOptions, data: unknown): Pick<MockHostOptions, "stateful" | "conditions" | "journalSize" | "proxy"> {
  return {
    ...(options.stateful ? { stateful: { ...(data === undefined ? {} : { data }), ...(options.strictKeys ? { strictKeys: true } : {}) } } : {}),
    conditions: options.conditions,
    journalSize: options.journalSize,
    ...(options.proxy === undefined ? {} : { proxy: { upstream: options.proxy, record: options.record } }),
  };
}
