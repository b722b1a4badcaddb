// The values a writer must not let through free text, found as whole tokens: a value is replaced only where it stands
// on its own (no letter, digit or underscore glued to an edge that is itself one), so a remembered `phone` never cuts
// `phone_number` and a remembered `event` never cuts `default_event_hub`. Looked up by a short prefix, not by one
// alternation of every value: the index grows with what a server sends, and is read on every line written.

/** The shortest value looked for: shorter ones (`US`, `IL`) tell little and would stand in too many sentences. */
export const MIN_TOKEN_LENGTH = 4;

const WORD = /[\p{L}\p{N}_]/u;
const isWordChar = (char: string | undefined): boolean => char !== undefined && WORD.test(char);

export class TokenIndex {
  /** A value's first characters → the values starting so, longest first, with what each is written as. */
  readonly #byPrefix = new Map<string, { value: string; written: string }[]>();
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
    const bucket = this.#byPrefix.get(prefix) ?? [];
    const kept = bucket.filter((each) => each.value !== value);
    // Longest first: a value inside a longer one does not leave the rest of the longer behind.
    const at = kept.findIndex((each) => each.value.length < value.length);
    kept.splice(at === -1 ? kept.length : at, 0, { value, written });
    this.#byPrefix.set(prefix, kept);
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
      const found = this.#byPrefix.get(text.slice(i, i + MIN_TOKEN_LENGTH))?.find(({ value }) => text.startsWith(value, i) && this.#whole(text, value, i));
      if (found === undefined) {
        i++;
        continue;
      }
      out += text.slice(last, i) + found.written;
      i = last = i + found.value.length;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  #whole(text: string, value: string, at: number): boolean {
    const end = at + value.length;
    const startsClean = !isWordChar(value[0]) || !isWordChar(text[at - 1]);
    const endsClean = !isWordChar(value[value.length - 1]) || !isWordChar(text[end]);
    return startsClean && endsClean;
  }
}
