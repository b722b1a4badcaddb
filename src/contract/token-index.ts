// The values a writer must not let through free text, found as whole tokens: a value is replaced only where it stands
// on its own (no letter, digit or underscore glued to an edge that is itself one), so a remembered `phone` never cuts
// `phone_number` and a remembered `event` never cuts `default_event_hub`. Looked up by a short prefix, not by one
// alternation of every value, nor a list to scan: the index grows with what a server sends (values that share a start,
// `Name1`, `Name2`, … among them), and is read on every line written.

/** The shortest value looked for: shorter ones (`US`, `IL`) tell little and would stand in too many sentences. */
export const MIN_TOKEN_LENGTH = 4;

const WORD = /[\p{L}\p{N}_]/u;
const isWordChar = (char: string | undefined): boolean => char !== undefined && WORD.test(char);

/** The values that start alike: each with what it is written as, and their lengths, longest first. */
interface Bucket {
  written: Map<string, string>;
  lengths: number[];
}

export class TokenIndex {
  /** A value's first characters → the values starting so. Adding is constant time whatever the values share. */
  readonly #byPrefix = new Map<string, Bucket>();
  readonly #written = new Map<string, string>();

  get size(): number {
    return this.#written.size;
  }

  has(value: string): boolean {
    return this.#written.has(value);
  }

  /** Remembers a value (one shorter than MIN_TOKEN_LENGTH is not looked for) and what it is written as. */
  add(value: string, written: string): void {
    if (value.length < MIN_TOKEN_LENGTH || this.#written.get(value) === written) return;
    const prefix = value.slice(0, MIN_TOKEN_LENGTH);
    let bucket = this.#byPrefix.get(prefix);
    if (bucket === undefined) this.#byPrefix.set(prefix, (bucket = { written: new Map(), lengths: [] }));
    bucket.written.set(value, written);
    // Longest first: a value inside a longer one does not leave the rest of the longer behind.
    if (!bucket.lengths.includes(value.length)) {
      const at = bucket.lengths.findIndex((length) => length < value.length);
      bucket.lengths.splice(at === -1 ? bucket.lengths.length : at, 0, value.length);
    }
    this.#written.set(value, written);
  }

  clear(): void {
    this.#byPrefix.clear();
    this.#written.clear();
  }

  /** The text with every remembered value that stands as a whole token replaced. */
  replace(text: string): string {
    if (this.#written.size === 0 || text.length < MIN_TOKEN_LENGTH) return text;
    let out = "";
    let last = 0;
    let i = 0;
    while (i <= text.length - MIN_TOKEN_LENGTH) {
      const found = this.#at(text, i);
      if (found === undefined) {
        i++;
        continue;
      }
      out += text.slice(last, i) + found.written;
      i = last = i + found.value.length;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  /** The longest remembered value standing as a whole token at this place of the text, if any. */
  #at(text: string, at: number): { value: string; written: string } | undefined {
    const bucket = this.#byPrefix.get(text.slice(at, at + MIN_TOKEN_LENGTH));
    if (bucket === undefined) return undefined;
    for (const length of bucket.lengths) {
      if (at + length > text.length) continue;
      const value = text.slice(at, at + length);
      const written = bucket.written.get(value);
      if (written !== undefined && this.#whole(text, value, at)) return { value, written };
    }
    return undefined;
  }

  #whole(text: string, value: string, at: number): boolean {
    const end = at + value.length;
    const startsClean = !isWordChar(value[0]) || !isWordChar(text[at - 1]);
    const endsClean = !isWordChar(value[value.length - 1]) || !isWordChar(text[end]);
    return startsClean && endsClean;
  }
}
