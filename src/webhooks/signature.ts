// The events' signature (the Standard Webhooks convention): HMAC-SHA256 of `<id>.<timestamp>.<body>` with the secret
// after `whsec_`, sent as `v1,<base64>`; one implementation for the parser and the sender, on Web Crypto so it runs anywhere.

const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The key bytes of a `whsec_<base64>` secret. */
export function secretKey(secret: string): Uint8Array {
  if (typeof secret !== "string" || !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) {
    throw new TypeError("a webhook secret is `whsec_` followed by base64, as the webhook endpoint's settings show it");
  }
  return fromBase64(secret.slice("whsec_".length));
}

function bodyBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? encoder.encode(body) : body;
}

/** `v1,<base64 HMAC-SHA256>` of one message with one secret. */
export async function signature(secret: string, id: string, timestamp: string, body: string | Uint8Array): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey("raw", secretKey(secret) as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const content = bodyBytes(body);
  const signed = new Uint8Array(prefix.length + content.length);
  signed.set(prefix);
  signed.set(content, prefix.length);
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, signed as BufferSource));
  return `v1,${toBase64(mac)}`;
}

/** Compares in time that does not depend on where the strings differ, so timing does not leak the signature. */
export function sameSignature(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) difference |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return difference === 0;
}

/** A new random secret, `whsec_` and 24 bytes of base64. */
export function newSecret(): string {
  return `whsec_${toBase64(globalThis.crypto.getRandomValues(new Uint8Array(24)))}`;
}

/** The headers the service sends with a message: its id, when it was signed, and its signature with each secret. */
export async function signedHeaders(
  secrets: string | readonly string[],
  message: { id: string; timestamp: number; body: string | Uint8Array },
): Promise<{ "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string }> {
  const timestamp = String(Math.floor(message.timestamp));
  const all = typeof secrets === "string" ? [secrets] : secrets;
  const signatures = await Promise.all(all.map((secret) => signature(secret, message.id, timestamp, message.body)));
  return { "webhook-id": message.id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}
