// Finishes the page Redocly renders: nothing it loads leaves the page, its links are fragments that work over http and
// file alike, its colours and small-screen layout meet what a reader needs (reference.css), and search and screen
// readers work as a reader expects (reader.js).
import { readFileSync } from "node:fs";

/**
 * Inserts `text` before a closing tag. The page's scripts hold the same tags in strings, so which one is the page's own
 * matters: the head's is the first (it ends before any script), the body's the last.
 */
function insertBefore(html: string, marker: "</head>" | "</body>", text: string): string {
  const at = marker === "</head>" ? html.indexOf(marker) : html.lastIndexOf(marker);
  if (at < 0) throw new Error(`reference: the rendered page has no ${marker}`);
  return html.slice(0, at) + text + html.slice(at);
}

/** Replaces every match of `pattern`; throws when there is none, so a Redocly update cannot silently undo a fix. */
function replaceAll(html: string, pattern: RegExp | string, replacement: string, why: string): string {
  const found = typeof pattern === "string" ? html.includes(pattern) : pattern.test(html);
  if (!found)
    throw new Error(`reference: the rendered page no longer has what this fix changes (${why}); check scripts/reference/html.ts against the Redocly version`);
  return typeof pattern === "string" ? html.replaceAll(pattern, replacement) : html.replace(pattern, replacement);
}

/** An empty image: the attribution logo's address, so it is never fetched (the attribution itself is hidden by reference.css). */
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

/**
 * The prerendered links point at paths (`/link`), which React keeps on hydration although the page routes by
 * fragment (`#/link`): opened in a new tab or copied, they land outside the reference. Only the prerendered markup, up
 * to the first script, is changed.
 */
function fragmentLinks(html: string): string {
  const start = html.indexOf('<div id="redoc">');
  if (start < 0) throw new Error('reference: the rendered page has no <div id="redoc">');
  const end = html.indexOf("<script", html.indexOf("</div>", start) + 1);
  const markup = html.slice(start, end);
  return html.slice(0, start) + replaceAll(markup, /(<a\b[^>]*?\shref=")\/(?!\/)/g, "$1#/", "prerendered path links") + html.slice(end);
}

export function finishReferenceHtml(html: string): string {
  let page = html;
  for (const logo of ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg"]) {
    page = replaceAll(page, logo, EMPTY_SVG, "the attribution logo from a CDN");
  }
  page = fragmentLinks(page);
  const css = readFileSync(new URL("./reference.css", import.meta.url), "utf8");
  page = insertBefore(page, "</head>", `<style>\n${css}</style>\n`);
  const script = readFileSync(new URL("./reader.js", import.meta.url), "utf8");
  page = insertBefore(page, "</body>", `<script>\n${script.replaceAll("</script", "<\\/script")}</script>\n`);
  return page;
}
