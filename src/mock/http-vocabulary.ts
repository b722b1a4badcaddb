// The mock's HTTP vocabulary, for any transport: the contract's error body as a reply, CORS, the request target, the
// Accept check and the preflight's answer. Node's own side (the body reader, the raw socket) is in node-http.ts.
import type { ErrorDetail } from "../contract/validator.ts";
import { encodeText } from "./platform.ts";
import type { HeaderBag, Reply } from "./http-shapes.ts";

export const MAX_BODY_BYTES = 1 << 20;

export const JSON_TYPE = "application/json";

/** Says what the mock accepted but a caller may not mean, such as a value an open enumeration does not list. */
export const MOCK_WARNING = "x-svc-mock-warning";

export function errorBody(code: string, message: string, details?: ErrorDetail[]): Uint8Array {
  return encodeText(JSON.stringify(details === undefined ? { code, message } : { code, message, details }));
}

/** Every JSON answer the mock makes: its type and length, the headers it carries (name-value pairs), CORS for the request it answers. */
export function jsonReply(requestHeaders: HeaderBag, status: number, body: Uint8Array, headers: readonly string[] = []): Reply {
  return { status, headers: ["content-type", JSON_TYPE, "content-length", String(body.length), ...headers, ...corsHeaders(requestHeaders)], body };
}

/** A refusal in the contract's error body, with CORS for the request it answers. */
export function errorReply(
  requestHeaders: HeaderBag,
  status: number,
  code: string,
  message: string,
  details?: ErrorDetail[],
  headers: Record<string, string> = {},
): Reply {
  return jsonReply(requestHeaders, status, errorBody(code, message, details), Object.entries(headers).flat());
}

/** Whether an Accept header lets the caller take JSON, the only media type of the contract's answers (no header: anything goes). */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accept.split(",").some((range) => {
    const [type = "", ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith("q="));
    if (q !== undefined && Number(q.slice(2)) === 0) return false;
    return type === "*/*" || type === "application/*" || type === "application/json";
  });
}

/** The headers a request's answer depends on besides the credentials (which `Credentials.headerKeys()` names). */
export const ANSWER_HEADERS = ["accept", "content-type", "prefer"];

/** The response headers a browser's script may read besides the simple ones. */
export const EXPOSED_HEADERS = `x-svc-mock-contract-violation, ${MOCK_WARNING}, retry-after, x-svc-contract-violations`;

/** Front ends call the mock from their own dev server's origin, so every answer allows any origin. */
export function corsHeaders(headers: HeaderBag): string[] {
  const origin = headers.origin;
  return ["access-control-allow-origin", typeof origin === "string" ? origin : "*", "vary", "origin", "access-control-expose-headers", EXPOSED_HEADERS];
}

/** A CORS preflight's answer: these methods, and the headers asked for (or, when none were named, the ones the mock reads). */
export function preflightReply(headers: HeaderBag, methods: readonly string[], readHeaders: string[]): Reply {
  const asked = headers["access-control-request-headers"];
  return {
    status: 204,
    headers: [
      ...corsHeaders(headers),
      "access-control-allow-methods",
      methods.join(", "),
      "access-control-allow-headers",
      typeof asked === "string" ? asked : readHeaders.join(", "),
      "access-control-max-age",
      "600",
    ],
  };
}

/** The request target's path and query: origin-form (`/v3/...`) or absolute-form (`http://host/v3/...`); undefined when it is neither. */
export function requestTarget(raw: string | undefined): URL | undefined {
  try {
    return raw?.startsWith("/") ? new URL(raw, "http://mock.invalid") : new URL(raw ?? "");
  } catch {
    return undefined;
  }
}

/** Text as a header may carry it: printable ASCII, anything else escaped (`\u00e9`). */
export const printableAscii = (text: string): string => text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** A header's one value: undefined when absent or (for a header Node joins as a list) sent more than once. */
export const headerValue = (headers: HeaderBag, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
};
