// What keeps a command-line tool quiet and offline (no telemetry, no update check): the machine may have no network, and
// a check run is not the place to ask. verify's respect runs and the repository's tool runner
// (scripts/build/lib/tools.ts) both set it.
export const QUIET_TOOL_ENV = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" } as const;
