// What the mock's core needs of its platform, from the web's globals alone (crypto, TextEncoder, setTimeout), so the
// same core runs in Node, in a test process with no port, and in a browser under MSW.

const encoder = new TextEncoder();

/** A string's UTF-8 bytes: what an answer's body is sent as. */
export const encodeText = (text: string): Uint8Array => encoder.encode(text);

/** How many bytes a string takes in UTF-8, without encoding it. */
export function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      // A surrogate pair is 2 UTF-16 units and 4 bytes.
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        i++;
        continue;
      }
    }
    if (code > 0x7ff) length += 2;
    else if (code > 0x7f) length += 1;
  }
  return length;
}

/** A random v4 UUID. */
export const randomId = (): string => globalThis.crypto.randomUUID();

/** So many random bytes, as lower-case hex. */
export function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let hex = "";
  for (const value of values) hex += value.toString(16).padStart(2, "0");
  return hex;
}

/** Resolves after so many milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
