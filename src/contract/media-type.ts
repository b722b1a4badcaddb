// The media-type grammar a request body is held to: one JSON media type, well-formed parameters, UTF-8 if a charset.

/**
 * Whether a Content-Type header is exactly one JSON media type (`application/json` or `application/<x>+json`) with
 * well-formed parameters and, if it names a charset, UTF-8: JSON text is UTF-8 (RFC 8259), and a header that lists
 * several types, names no charset after `charset=`, or another one, says the body is not what the mock can read.
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  // Media type names are case-insensitive (RFC 9110, 8.3.1): APPLICATION/JSON is application/json.
  const match =
    /^\s*application\/([A-Za-z0-9!#$&^_.+-]+)\s*((?:;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"(?:[^"\\\x00-\x1f\x7f-\uffff]|\\.)*")\s*)*)$/i.exec(
      header,
    );
  if (!match || !(match[1]!.toLowerCase() === "json" || match[1]!.toLowerCase().endsWith("+json"))) return false;
  for (const [, name, value] of match[2]!.matchAll(/;\s*([^=\s]+)=("(?:[^"\\]|\\.)*"|[^;\s]+)/g)) {
    if (name!.toLowerCase() === "charset" && value!.replace(/^"(.*)"$/, "$1").toLowerCase() !== "utf-8") return false;
  }
  return true;
}
