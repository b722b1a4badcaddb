// Servers on 127.0.0.1 that answer every request in one bad way, written on the raw socket so that each can break HTTP
// itself (no length, headers past any limit, a body cut off): what the client and verify meet in the field.
import { once } from "node:events";
import net from "node:net";
import { gzipSync } from "node:zlib";

/** How a hostile server answers. */
export const HOSTILE_KINDS = [
  "never-answers",
  "headers-then-silence",
  "huge-length-trickled",
  "endless-chunked",
  "malformed-json",
  "invalid-utf8",
  "gzip-bomb",
  "unknown-encoding",
  "redirect-loop",
  "redirect-elsewhere",
  "cut-mid-body",
  "huge-headers",
  "byte-a-second",
  "http10-no-length",
  "retry-after-a-day",
] as const;
export type HostileKind = (typeof HOSTILE_KINDS)[number];

export interface HostileServer {
  kind: HostileKind;
  url: string;
  /** Requests whose head arrived, as raw text (request line and headers). */
  heads: string[];
  close(): Promise<void>;
}

export interface HostileOptions {
  /** Where `redirect-elsewhere` points (another origin); required for that kind. */
  elsewhere?: string;
  /** How long `byte-a-second` waits between bytes (1000 ms unless a test needs it shorter). */
  byteIntervalMs?: number;
}

// One gzip member inflating to 16 MiB of zeros (about 16 kB on the wire); members in a row inflate one after another,
// so 64 of them are a gigabyte from a megabyte, made in milliseconds.
const BOMB_MEMBER = gzipSync(Buffer.alloc(16 * 1024 * 1024));
export const BOMB_MEMBERS = 64;

const head = (status: string, headers: Record<string, string | number>): string =>
  `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;

/** Writes `bytes` forever in `chunk`-sized pieces, as fast as the peer reads, until the socket closes. */
function pour(socket: net.Socket, chunk: Buffer, frame: (piece: Buffer) => Buffer = (piece) => piece, limit = Infinity): void {
  let written = 0;
  const more = (): void => {
    while (!socket.destroyed && written < limit) {
      written++;
      if (!socket.write(frame(chunk))) return void socket.once("drain", more);
    }
    if (!socket.destroyed) socket.end();
  };
  more();
}

function answer(kind: HostileKind, socket: net.Socket, request: string, options: HostileOptions, timers: Set<NodeJS.Timeout>): void {
  const json = (status: string, body: Buffer | string, extra: Record<string, string | number> = {}) => {
    const bytes = Buffer.from(body);
    // One answer per connection, said so: a client sends its next request on a new one rather than wait on this.
    socket.end(
      Buffer.concat([Buffer.from(head(status, { "content-type": "application/json", "content-length": bytes.length, connection: "close", ...extra })), bytes]),
    );
  };
  const every = (ms: number, tick: () => void) => {
    const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : tick()), ms);
    timers.add(timer);
    socket.once("close", () => clearInterval(timer));
  };
  const target = /^\S+ (\S+)/.exec(request)?.[1] ?? "/";
  switch (kind) {
    case "never-answers":
      return;
    case "headers-then-silence":
      return void socket.write(head("200 OK", { "content-type": "application/json", "content-length": 100 }));
    case "huge-length-trickled":
      socket.write(head("200 OK", { "content-type": "application/json", "content-length": 10_000_000_000 }) + "[");
      return every(100, () => socket.write(" "));
    case "endless-chunked": {
      socket.write(head("200 OK", { "content-type": "application/json", "transfer-encoding": "chunked" }) + "1\r\n[\r\n");
      const piece = Buffer.alloc(64 * 1024, 0x20);
      return pour(socket, piece, (bytes) => Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]));
    }
    case "malformed-json":
      return json("200 OK", '{"labs": [{"id": 1, "slug": ');
    case "invalid-utf8":
      // Valid JSON but for two bytes inside a string that no UTF-8 text can hold.
      return json("200 OK", Buffer.concat([Buffer.from('{"code":"not_found","message":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]));
    case "gzip-bomb":
      socket.write(head("200 OK", { "content-type": "application/json", "content-encoding": "gzip", "content-length": BOMB_MEMBER.length * BOMB_MEMBERS }));
      return pour(socket, BOMB_MEMBER, undefined, BOMB_MEMBERS);
    case "unknown-encoding":
      return json("200 OK", gzipSync("[]"), { "content-encoding": "zstd" });
    case "redirect-loop":
      return json("302 Found", "{}", { location: target });
    case "redirect-elsewhere":
      return json("307 Temporary Redirect", "{}", { location: `${options.elsewhere!}${target}` });
    case "cut-mid-body":
      return void socket.write(head("200 OK", { "content-type": "application/json", "content-length": 1000 }) + '[{"id": 1, ', () => socket.destroy());
    case "huge-headers": {
      const filler = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`x-filler-${index}`, "f".repeat(1000)]));
      return json("200 OK", "[]", filler);
    }
    case "byte-a-second": {
      const body = "[]".padEnd(40, " ");
      let sent = 0;
      socket.write(head("200 OK", { "content-type": "application/json", "content-length": body.length }));
      return every(options.byteIntervalMs ?? 1000, () => (sent < body.length ? socket.write(body[sent++]!) : socket.end()));
    }
    case "http10-no-length":
      return void socket.end("HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n[]");
    case "retry-after-a-day":
      return json("429 Too Many Requests", '{"code":"rate_limited","message":"Too many requests."}', { "retry-after": 86400 });
  }
}

/** A server of one kind on a free port of 127.0.0.1; `close` ends every connection it holds. */
export async function startHostile(kind: HostileKind, options: HostileOptions = {}): Promise<HostileServer> {
  if (kind === "redirect-elsewhere" && options.elsewhere === undefined) throw new Error("redirect-elsewhere needs options.elsewhere");
  const heads: string[] = [];
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let received = "";
    const onData = (chunk: Buffer): void => {
      received += chunk.toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end === -1) return;
      heads.push(received.slice(0, end));
      // One answer per connection: the rest of this request, and any later one on it, is not read.
      socket.off("data", onData);
      socket.resume();
      answer(kind, socket, received.slice(0, end), options, timers);
    };
    socket.on("data", onData);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    kind,
    url: `http://127.0.0.1:${port}`,
    heads,
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A plain server on another loopback address (127.0.0.2: another origin, still this machine) that records every
 * request that reaches it, and answers 200: where `redirect-elsewhere` points, to show that nothing follows it.
 */
export async function startRecorder(): Promise<{ origin: string; heads: string[]; close(): Promise<void> }> {
  const heads: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("data", (chunk) => {
      heads.push(chunk.toString("latin1"));
      socket.end("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]");
    });
  });
  server.listen(0, "127.0.0.2");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    origin: `http://127.0.0.2:${port}`,
    heads,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
