// Finds the split source file and line of a place in the bundled contract (a JSON Pointer), for annotations on source lines.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import YAML, { isMap, isPair, isScalar, isSeq, LineCounter, type Node as YamlNode } from "yaml";

export interface SourceLocation {
  /** Relative to the tree's root, with `/`: `openapi/link/schemas/LinkTokenRequest.yaml`. */
  file: string;
  /** 1-based. */
  line: number;
  /** False when the pointer went further than the sources hold (a part the bundle step adds): the nearest place is given. */
  exact: boolean;
}

/** The folder of the split sources that holds each kind of component, named after its file (openapi/README.md). */
const COMPONENT_FOLDERS: Record<string, string> = {
  schemas: "schemas",
  parameters: "parameters",
  responses: "responses",
  examples: "examples",
  headers: "headers",
  requestBodies: "requestBodies",
  securitySchemes: "security",
  pathItems: "webhooks",
};

interface ParsedFile {
  contents: YamlNode | null;
  lines: LineCounter;
}

export function decodePointer(pointer: string): string[] {
  const trimmed = pointer.replace(/^#/, "");
  if (trimmed === "" || trimmed === "/") return [];
  return trimmed
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

export function encodePointer(segments: readonly string[]): string {
  return segments.map((segment) => `/${segment.replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * Maps pointers of a bundle back into the split sources of one tree (the working tree, or a base revision unpacked
 * elsewhere). It walks the pointer through `openapi/openapi.yaml`, following each `$ref` into the file it names; a
 * component that Redocly's bundler moved under `components` is found by the convention that its file is named after it.
 */
export class SourceMap {
  private readonly files = new Map<string, ParsedFile>();
  private componentFiles: Map<string, string> | undefined;

  constructor(
    private readonly root: string,
    private readonly entry = "openapi/openapi.yaml",
  ) {}

  /**
   * Where a pointer of the bundle lies in the sources. A pointer that ends on a `$ref` to another file lies in that file
   * (a shared response is changed in its own file), unless `atReference` asks for the line that references it (where a
   * removed path was listed).
   */
  locate(pointer: string, { atReference = false }: { atReference?: boolean } = {}): SourceLocation {
    const segments = decodePointer(pointer);
    const found = this.walk(this.entry, segments, 0, atReference);
    if (found) return found;
    return { file: this.entry, line: 1, exact: false };
  }

  /** Where a pointer into one source file (as Redocly reports it) lies. */
  locateInFile(file: string, pointer: string): SourceLocation {
    return this.walk(this.relative(file), decodePointer(pointer), 0, true) ?? { file: this.relative(file), line: 1, exact: false };
  }

  private relative(file: string): string {
    const absolute = path.resolve(this.root, file);
    return path.relative(this.root, absolute).split(path.sep).join("/");
  }

  private parse(file: string): ParsedFile | undefined {
    let parsed = this.files.get(file);
    if (parsed) return parsed;
    let text: string;
    try {
      text = readFileSync(path.join(this.root, file), "utf8");
    } catch {
      return undefined;
    }
    const lines = new LineCounter();
    const document = YAML.parseDocument(text, { lineCounter: lines, keepSourceTokens: false });
    parsed = { contents: document.contents as YamlNode | null, lines };
    this.files.set(file, parsed);
    return parsed;
  }

  private line(file: ParsedFile, node: YamlNode | null | undefined): number {
    const offset = node?.range?.[0];
    return offset === undefined ? 1 : file.lines.linePos(offset).line;
  }

  /** Walks segments from the top of a file; undefined when the file itself cannot be read. */
  private walk(file: string, segments: readonly string[], depth: number, atReference: boolean): SourceLocation | undefined {
    const parsed = this.parse(file);
    if (!parsed || depth > 32) return undefined;
    return this.walkFrom(file, parsed, parsed.contents, segments, this.line(parsed, parsed.contents), depth, atReference);
  }

  private walkFrom(
    file: string,
    parsed: ParsedFile,
    start: YamlNode | null,
    segments: readonly string[],
    startLine: number,
    depth: number,
    atReference: boolean,
  ): SourceLocation {
    let node = start;
    let line = startLine;
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index]!;
      const ref = isMap(node) && segment !== "$ref" ? node.get("$ref") : undefined;
      if (typeof ref === "string") return this.follow(file, ref, segments.slice(index), line, depth, atReference);
      const child = childOf(node, segment);
      if (!child) {
        // Redocly moves every referenced file under the bundle's components, named after the file.
        if (file === this.entry && index <= 2 && segments[0] === "components" && segments.length > 2) {
          const moved = this.componentFile(segments[1]!, segments[2]!);
          if (moved) return this.walk(moved, segments.slice(3), depth + 1, atReference) ?? { file: moved, line: 1, exact: false };
        }
        return { file, line, exact: false };
      }
      node = child.value;
      line = this.line(parsed, child.key ?? child.value);
    }
    const ref = isMap(node) ? node.get("$ref") : undefined;
    if (!atReference && typeof ref === "string" && !ref.startsWith("#")) return this.follow(file, ref, [], line, depth, atReference);
    return { file, line, exact: true };
  }

  private follow(file: string, ref: string, rest: readonly string[], line: number, depth: number, atReference: boolean): SourceLocation {
    const [target, fragment = ""] = ref.split("#");
    const targetFile = target ? path.posix.normalize(path.posix.join(path.posix.dirname(file), target)) : file;
    const found = this.walk(targetFile, [...decodePointer(fragment), ...rest], depth + 1, atReference);
    return found ?? { file, line, exact: false };
  }

  private componentFile(kind: string, name: string): string | undefined {
    const folder = COMPONENT_FOLDERS[kind];
    if (!folder) return undefined;
    this.componentFiles ??= this.indexComponentFiles();
    // Redocly suffixes a name it has seen before (`Provider-2`).
    return this.componentFiles.get(`${folder}/${name}`) ?? this.componentFiles.get(`${folder}/${name.replace(/-\d+$/, "")}`);
  }

  private indexComponentFiles(): Map<string, string> {
    const index = new Map<string, string>();
    const visit = (dir: string) => {
      let entries;
      try {
        entries = readdirSync(path.join(this.root, dir), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const relative = `${dir}/${entry.name}`;
        if (entry.isDirectory()) visit(relative);
        else if (entry.name.endsWith(".yaml")) index.set(`${path.posix.basename(dir)}/${entry.name.slice(0, -5)}`, relative);
      }
    };
    visit(path.posix.dirname(this.entry));
    return index;
  }
}

function childOf(node: YamlNode | null, segment: string): { key: YamlNode | null; value: YamlNode | null } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === segment);
    return pair ? { key: pair.key as YamlNode, value: pair.value as YamlNode | null } : undefined;
  }
  if (isSeq(node) && /^\d+$/.test(segment)) {
    const item = node.items[Number(segment)];
    return item === undefined ? undefined : { key: null, value: item as YamlNode };
  }
  return undefined;
}
