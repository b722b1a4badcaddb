// What the mock's three ways of starting share around the mock itself (the packaged `svc-health-mock`, `npm start`, and
// the repository's server the tests start): the usage, a failure as one line, the start-up failures named alike, the
// banner, and a stop on Ctrl-C (or on npm's shell going) that lets open connections go. One copy, so the commands cannot
// tell different stories.
import { OPTIONS_USAGE } from "./command-options.ts";
import { proxyBanner, ProxyError } from "./proxy.ts";
import { SeedError } from "./state/seed.ts";
import { MOCK_PATHS } from "../shared/mock-paths.ts";

/** A command's usage: its first line, what it says before the options (if anything), the options, and what follows them. */
export function commandUsage(synopsis: string, before: string | undefined, after?: string): string {
  return [synopsis, ...(before === undefined ? [] : [before]), OPTIONS_USAGE, ...(after === undefined ? [] : [after])].join("\n\n");
}

/** Stops with one line naming the cause, after the command's name: what a person starting the mock needs, not a stack trace. */
export function failWith(command: string): (line: string) => never {
  return (line) => {
    console.error(`${command}: ${line}`);
    process.exit(1);
  };
}

/** What a command knows of how it was started, to name a failure in the terms it was given. */
export interface StartFacts {
  port: number;
  host: string;
  dataFile: string | undefined;
  /** The command line that starts it on another port, for the port-in-use line. */
  onPort: (port: number) => string;
}

/** A failure to start (bad seed data, a proxy it cannot be, a port in use, anything else), as the one line that ends the command. */
export function startFailure(error: unknown, facts: StartFacts, fail: (line: string) => never): never {
  if (error instanceof SeedError) fail(error.describe(`--data ${facts.dataFile}`));
  if (error instanceof ProxyError) fail(error.message);
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    fail(`port ${facts.port} on ${facts.host} is in use. Stop what holds it, or run: ${facts.onPort(facts.port + 1)}`);
  }
  return fail(`the mock did not start: ${(error as Error).message}`);
}

/** What the banner tells of a running mock. */
export interface BannerFacts {
  url: string;
  stateful: boolean;
  /** With --strict-keys: said in the mode, since every unknown key's 401 would otherwise look like a broken client. */
  strictKeys?: boolean;
  /** With --proxy: the upstream, and where it records. */
  proxy: URL | undefined;
  record: string | undefined;
  /** What dynamic answers do here (Prism loaded on demand, or the examples when it is missing). */
  prism: string;
  /** The reference's line, where the command serves it. */
  reference?: string | undefined;
  /** The repository's start says more: a blank line around the try line, and how to take a branch. */
  long?: boolean;
}

/** The lines a command prints once the mock listens. */
export function banner(facts: BannerFacts): string {
  const { url } = facts;
  const lead = facts.long ? "\n" : "";
  if (facts.proxy !== undefined) return `${lead}${proxyBanner(url, facts.proxy, facts.record)}\nStop with Ctrl-C.`;
  const mode = facts.stateful
    ? `stateful${facts.strictKeys ? " with strict keys (a key it does not know is 401)" : ""}: remembers each team's calls; ${url}${MOCK_PATHS.state} resets it and moves its clock`
    : "answers from the contract's examples";
  return [
    `${lead}Mock server:  ${url}   (${mode}; ${facts.prism})`,
    ...(facts.reference === undefined ? [] : [`Reference:    ${facts.reference}`]),
    `Contract:     ${url}/openapi.yaml   ${url}/openapi.json`,
    ...(facts.long ? [""] : []),
    `Try:  curl -s -H 'x-svc-api-key: sk_test_example_not_a_real_key' ${url}/v3/lab_tests/labs`,
    ...(facts.long ? ["Branches:  add -H 'Prefer: code=404' or -H 'Prefer: example=<name>' (names are in the reference)."] : []),
    "Stop with Ctrl-C.",
  ].join("\n");
}

/** How often a command started by npm looks whether npm's shell is still its parent. */
const PARENT_CHECK_MS = 250;

/**
 * Stops once and exits 0: on SIGINT or SIGTERM (a second signal while stopping changes nothing), and, when npm started
 * the command (`npx`, `npm exec`, `npm run`, `npm start`), when the shell npm ran it in is gone. npm passes a SIGTERM or
 * SIGINT sent to it on to that shell, which ends without passing it on: `kill $!` after `npx svc-health-mock &` left the
 * mock holding its port. A script line that puts something in the background itself (`svc-health-mock &`) may mean it
 * to outlive its shell, and is left to do so.
 */
export function stopOnSignals(stop: () => Promise<void>, env: NodeJS.ProcessEnv = process.env): void {
  let stopping = false;
  const stopOnce = () => {
    if (stopping) return;
    stopping = true;
    void stop().then(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, stopOnce);
  if (!startedByNpm(env)) return;
  const shell = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === shell) return;
    clearInterval(watch);
    stopOnce();
  }, PARENT_CHECK_MS);
  // The watch alone never keeps the process alive.
  watch.unref();
}

/** Whether npm ran the command in a shell of its own, as the whole of a script line (not sent to the background by it). */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  if (env.npm_lifecycle_event === undefined) return false;
  return !/(^|[^&])&($|[^&])/.test(env.npm_lifecycle_script ?? "");
}

/** Closes a Node server and ends its open connections, so a stop does not wait on a client's keep-alive. */
export function closeServer(server: { close(done: () => void): unknown; closeAllConnections(): void }): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
