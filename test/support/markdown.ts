// Reads the README, the guides and CONTRIBUTING.md as the doc tests need them: their fenced blocks with the tag each carries,
// their relative links, and the anchors their headings make; one reader, so the block test and the link test see the same files.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../scripts/build/lib/paths.ts";

/** The Markdown files whose blocks are accounted for, relative to the repository; `shipped` ones are in the package too. */
export function documentationFiles(): { file: string; shipped: boolean }[] {
  const guides = readdirSync(path.join(repoRoot, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => ({ file: `docs/${name}`, shipped: true }));
  return [{ file: "README.md", shipped: true }, ...guides, { file: "CONTRIBUTING.md", shipped: false }];
}

/** What the suite does with a block: compile it, run it (a command, or a file the commands use), or nothing, for a reason. */
export type BlockTag = { kind: "typecheck" } | { kind: "run"; file?: string } | { kind: "no-run"; reason: string };

export interface CodeBlock {
  /** The Markdown file, relative to the repository. */
  file: string;
  /** The line of the opening fence, counted from 1: what a failure names. */
  line: number;
  language: string;
  /** Undefined when the info string carries no tag the suite knows. */
  tag: BlockTag | undefined;
  /** The info string after the language, as written, to name a tag it does not know. */
  info: string;
  code: string;
}

/** `typecheck`, `run`, `run: <file>` or `no-run: <reason>`, and nothing else after the language. */
export function parseTag(info: string): BlockTag | undefined {
  if (info === "typecheck") return { kind: "typecheck" };
  if (info === "run") return { kind: "run" };
  const file = /^run: (\S+)$/.exec(info);
  if (file !== null) return { kind: "run", file: file[1]! };
  const reason = /^no-run: (\S.*)$/.exec(info);
  if (reason !== null) return { kind: "no-run", reason: reason[1]! };
  return undefined;
}

/** Every fenced block of a Markdown text, in order, with the line its fence opens on. */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = /^(`{3,})(.*)$/.exec(lines[index]!);
    if (open === null) continue;
    const [, fence, rawInfo] = open as unknown as [string, string, string];
    const end = lines.findIndex((line, at) => at > index && line.startsWith(fence) && line.slice(fence.length).trim() === "");
    const close = end < 0 ? lines.length : end;
    const [language = "", ...rest] = rawInfo.trim().split(/\s+/);
    const info = rest.join(" ");
    blocks.push({ file, line: index + 1, language, tag: parseTag(info), info, code: `${lines.slice(index + 1, close).join("\n")}\n` });
    index = close;
  }
  return blocks;
}

export function readBlocks(file: string): CodeBlock[] {
  return codeBlocks(file, readFileSync(path.join(repoRoot, file), "utf8"));
}

/** The text outside fenced blocks: where headings are headings. */
function outsideBlocks(text: string): string {
  return text.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, "");
}

/** The text outside fenced blocks and inline code: where links are links. */
function prose(text: string): string {
  return outsideBlocks(text).replace(/`[^`\n]*`/g, "");
}

/** The targets of a text's Markdown links that stay on this site: not `https:`, `http:` or `mailto:`. */
export function relativeLinks(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z+.-]*:/i.test(target));
}

/** The anchors a Markdown text's headings make, as GitHub and the registry's page make them. */
export function headingAnchors(text: string): Set<string> {
  return new Set([...outsideBlocks(text).matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
