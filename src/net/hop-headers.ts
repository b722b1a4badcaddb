// Which headers belong to one hop of a connection and are never forwarded by a proxy: the mock's --proxy and verify's
// workflow proxy both ask here, so what one leaves out the other does too.

/**
 * The connection's own headers (RFC 9110 7.6.1); also the length, which a proxy writes again for the bytes it sends,
 * and Expect, which a proxy that reads the whole body before forwarding it has met itself.
 */
const HOP_HEADERS = new Set(["connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect"]);

/**
 * Whether a header (its name in lower case) is one hop's: a hop header, a `proxy-` one (the credentials of a proxy on
 * the way, which must not reach the server), or one the message's Connection header names.
 */
export function isHopHeader(name: string, connection: string | string[] | undefined): boolean {
  if (HOP_HEADERS.has(name) || name.startsWith("proxy-")) return true;
  if (connection === undefined) return false;
  return (Array.isArray(connection) ? connection.join(",") : connection)
    .toLowerCase()
    .split(",")
    .some((token) => token.trim() === name);
}
