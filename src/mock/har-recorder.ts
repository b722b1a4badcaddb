// The validating proxy's `--record <file>`: each exchange appended to a HAR 1.2 file as it happens, redacted the way
// verify's HAR files are (src/shared/har.ts: credentials masked, marked values removed from the URL and the bodies),
// the file a whole HAR after every entry, so a proxy that dies keeps what it recorded; bounded in entries and bytes.
import { closeSync, openSync, write } from "node:fs";
import { promisify } from "node:util";
import type { JsonObject } from "../contract/json.ts";
import { Redactor } from "../contract/redact.ts";
import { redactHarEntry, type HarEntry } from "../shared/har.ts";

const writeAt = promisify(write);

/** Entries one file takes at most, and its bytes: a proxy left running for days does not fill the disk. */
export const MAX_RECORDED_ENTRIES = 10_000;
export const MAX_RECORDED_BYTES = 256 * 1024 * 1024;
/** A redactor learns every value it removes, to remove it from free text later; a fresh one now and then bounds what it holds. */
const ENTRIES_PER_REDACTOR = 500;

const HEAD = `{"log":{"version":"1.2","creator":{"name":"svc-health-mock --proxy","version":"1"},"entries":[\n`;
const TAIL = "\n]}}\n";

/** An entry as the proxy makes it: HAR 1.2's fields, before redaction. */
export interface RecordedEntry extends HarEntry {
  startedDateTime: string;
  time: number;
  request: HarEntry["request"] & { httpVersion: string; headersSize: number; bodySize: number };
  response: NonNullable<HarEntry["response"]> & {
    statusText: string;
    httpVersion: string;
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
}

export class HarRecorder {
  readonly file: string;
  readonly #document: JsonObject;
  readonly #basePath: string;
  readonly #log: (line: string) => void;
  readonly #fd: number;
  #redactor: Redactor | undefined;
  /** Where the next entry goes: just before the tail that closes the file. */
  #offset = Buffer.byteLength(HEAD);
  #count = 0;
  #stopped = false;
  #closed = false;
  #queue: Promise<void> = Promise.resolve();

  /**
   * Creates (or empties) the file at once, so a path that cannot be written stops the command before it starts.
   * `basePath` is the upstream's own (`/sandbox` of `https://host/sandbox`): an entry's URL is given without it, as the
   * contract's paths are, so the redaction finds its operation, and it is put back in the file.
   */
  constructor(file: string, document: JsonObject, basePath: string, log: (line: string) => void) {
    this.file = file;
    this.#document = document;
    this.#basePath = basePath;
    this.#log = log;
    this.#fd = openSync(file, "w");
    this.#enqueue(() => writeAt(this.#fd, HEAD + TAIL, 0).then(() => undefined));
  }

  /** Appends an exchange, redacted; written after the ones before it, never in the way of the answer. */
  add(entry: RecordedEntry): void {
    if (this.#stopped) return;
    this.#enqueue(async () => {
      if (this.#count >= MAX_RECORDED_ENTRIES)
        return this.#stop(`--record: ${this.file} holds ${MAX_RECORDED_ENTRIES} exchanges, its bound; later ones are not recorded`);
      const redactor = (this.#redactor ??= new Redactor(this.#document));
      if (this.#count % ENTRIES_PER_REDACTOR === 0) redactor.forget();
      const redacted = redactHarEntry(entry, redactor) as RecordedEntry;
      if (redacted.comment !== undefined) redacted.comment = redactor.text(redacted.comment);
      if (this.#basePath !== "") {
        const url = new URL(redacted.request.url);
        redacted.request.url = `${url.origin}${this.#basePath}${url.pathname}${url.search}`;
      }
      const chunk = `${this.#count === 0 ? "" : ",\n"}${JSON.stringify(redacted)}`;
      const size = Buffer.byteLength(chunk);
      if (this.#offset + size > MAX_RECORDED_BYTES)
        return this.#stop(`--record: ${this.file} reached ${MAX_RECORDED_BYTES} bytes, its bound; later exchanges are not recorded`);
      // The entry and the tail in one write at the entry's place: the file closes properly after each one.
      await writeAt(this.#fd, chunk + TAIL, this.#offset);
      this.#offset += size;
      this.#count++;
    });
  }

  /** Waits for every entry given so far to be written, then closes the file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = this.#stopped = true;
    await this.#queue;
    closeSync(this.#fd);
  }

  #stop(line: string): void {
    this.#stopped = true;
    this.#log(line);
  }

  #enqueue(job: () => Promise<void>): void {
    this.#queue = this.#queue
      .then(job)
      .catch((error: Error) => this.#stop(`--record: writing ${this.file} failed (${error.message}); later exchanges are not recorded`));
  }
}
