// Whether a URL names this machine (127.0.0.0/8, localhost, [::1]): what may see credentials over plain http, and where
// verify may use placeholders and show data.

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]", "::1"]);

export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}
