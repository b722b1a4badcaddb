// Joins the soft-wrapped lines of the reference's Markdown descriptions, so text shown without Markdown (Redoc's search
// snippets, which drop line breaks) keeps its word breaks.

/** A line that starts a Markdown block of its own, and so is never joined to the line before. */
const BLOCK_START = /^\s*([-*+]\s|\d+[.)]\s|#|>|\||```|~~~)/;

/** The Markdown with each paragraph's lines joined by a space; lists, tables, headings and code keep their lines. */
export function unwrapMarkdown(text: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    const fence = /^\s*(```|~~~)/.test(line);
    const previous = out.at(-1);
    const joinable =
      !fenced &&
      !fence &&
      previous !== undefined &&
      previous.trim() !== "" &&
      line.trim() !== "" &&
      !BLOCK_START.test(line) &&
      !/^\s*(#|\||```|~~~)/.test(previous) &&
      !previous.endsWith("  ");
    if (joinable) out[out.length - 1] = `${previous} ${line.trim()}`;
    else out.push(line);
    if (fence) fenced = !fenced;
  }
  return out.join("\n");
}

/** Unwraps every `description` in a document, in place; example values are data, and stay as they are. */
export function unwrapDescriptions(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(unwrapDescriptions);
  if (node === null || typeof node !== "object") return;
  const object = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(object)) {
    if (key === "description" && typeof value === "string") object[key] = unwrapMarkdown(value);
    else if (key !== "value" && key !== "example") unwrapDescriptions(value);
  }
}
