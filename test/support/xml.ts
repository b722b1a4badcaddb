// A strict reader of the small XML the package writes (JUnit reports): elements, quoted attributes, the five named
// entities; it throws on anything not well-formed (an unclosed or crossed tag, a raw & or <), so a test can tell that
// a CI tool will read the file. No dependency: nothing here needs more of XML than this.
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (entities decoded), when it has any besides white space between tags. */
  text?: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string, where: number): string {
  return text.replace(/&([^;]*);|&/g, (match, name: string | undefined) => {
    if (name === undefined || !(name in ENTITIES)) throw new Error(`xml: a raw or unknown entity ${JSON.stringify(match)} near offset ${where}`);
    return ENTITIES[name]!;
  });
}

export function parseXml(text: string): XmlElement {
  let at = 0;
  const declaration = /^<\?xml[^?]*\?>\s*/.exec(text);
  if (declaration) at = declaration[0].length;
  const root: XmlElement = { name: "#document", attributes: {}, children: [] };
  const stack: XmlElement[] = [root];
  while (at < text.length) {
    const next = text.indexOf("<", at);
    const between = text.slice(at, next === -1 ? text.length : next);
    if (between.trim() !== "") {
      const parent = stack.at(-1)!;
      parent.text = (parent.text ?? "") + decode(between, at);
    }
    if (next === -1) break;
    const close = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(text.slice(next));
    if (close) {
      const open = stack.pop();
      if (open === undefined || open.name !== close[1]) throw new Error(`xml: </${close[1]}> closes <${open?.name}> near offset ${next}`);
      at = next + close[0].length;
      continue;
    }
    const tag = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*(\/?)>/.exec(text.slice(next));
    if (!tag) throw new Error(`xml: not a tag near offset ${next}: ${JSON.stringify(text.slice(next, next + 40))}`);
    const attributes: Record<string, string> = {};
    for (const [, name, value] of tag[2]!.matchAll(/([A-Za-z_][\w.:-]*)="([^"]*)"/g)) {
      if (name! in attributes) throw new Error(`xml: attribute ${name} twice near offset ${next}`);
      attributes[name!] = decode(value!, next);
    }
    const element: XmlElement = { name: tag[1]!, attributes, children: [] };
    stack.at(-1)!.children.push(element);
    if (tag[3] !== "/") stack.push(element);
    at = next + tag[0].length;
  }
  if (stack.length !== 1) throw new Error(`xml: <${stack.at(-1)!.name}> is never closed`);
  if (root.children.length !== 1) throw new Error(`xml: ${root.children.length} root elements`);
  return root.children[0]!;
}
