// Classifies every difference between the base revision's package surface and the head's (generated/surface.json, made
// by scripts/build/surface.ts): anything removed or narrowed is breaking, anything added additive, data compared by value
// (openapi/breaking-changes.md, rule 17); each message says the difference, never both whole texts.
import semver from "semver";
import type { Surface, SurfaceExport } from "../../build/surface.ts";
import type { ContractChange, Subject } from "./contract-diff.ts";
import { diffData } from "./data-diff.ts";
import { surfaceAsNow } from "./older-surface.ts";
import type { ChangeKind } from "./schema-diff.ts";
import { clip, declarationDifference, memberDifference } from "./text-difference.ts";

/** A change of the package's surface, with the path of keys (and the listed value there) that locates it in its side's surface.json. */
export interface SurfaceChange extends ContractChange {
  keys: string[];
  element?: string | number | boolean | null;
}

const subject = (key: string, label: string, names: string[]): Subject => ({ type: "package", key, label, names });

/** Each key of either side, in the head's order, then the base's. */
const union = (a: Record<string, unknown>, b: Record<string, unknown>) => [...new Set([...Object.keys(b), ...Object.keys(a)])];

export function diffSurfaces(baseSurface: Surface, headSurface: Surface): SurfaceChange[] {
  // A snapshot older than data by value is read as one made now.
  const base = surfaceAsNow(baseSurface);
  const head = surfaceAsNow(headSurface);
  const changes: SurfaceChange[] = [];
  const add: Add = (kind, rule, about, where, message, keys, side = "head", element) =>
    changes.push({
      kind,
      rule,
      subject: about,
      where,
      message: clip(message),
      keys,
      side,
      pointer: `/${keys.join("/")}`,
      ...(element === undefined ? {} : { element }),
    });

  for (const subpath of union(base.exports, head.exports)) {
    const about = subject(subpath, `entry ${subpath}`, [subpath]);
    const was = base.exports[subpath];
    const now = head.exports[subpath];
    if (!now) add("breaking", "entry-removed", about, "exports", `entry ${subpath} removed: an import of it fails`, ["exports", subpath], "base");
    else if (!was) add("additive", "entry-added", about, "exports", `entry ${subpath} added`, ["exports", subpath]);
    else {
      for (const condition of was.filter((c) => !now.includes(c)))
        add(
          "breaking",
          "condition-removed",
          about,
          "exports",
          `condition ${condition} removed: a user whose tool resolves it fails`,
          ["exports", subpath],
          "base",
        );
      for (const condition of now.filter((c) => !was.includes(c)))
        add("additive", "condition-added", about, "exports", `condition ${condition} added`, ["exports", subpath]);
    }
  }

  for (const subpath of union(base.entries, head.entries)) {
    const was = base.entries[subpath];
    const now = head.entries[subpath];
    if (!was || !now) continue; // the entry itself is reported above
    for (const name of union(was.declared, now.declared)) diffExport(subpath, name, was.declared[name], now.declared[name], add);
    // A type the exports name without exporting it: what changed inside it changed for users; its appearing or going
    // away shows in the text of the exports that name it.
    for (const name of Object.keys(now.referenced ?? {}).filter((n) => was.referenced?.[n] !== undefined))
      diffExport(subpath, name, was.referenced![name], now.referenced![name], add, "referenced");
    for (const name of was.contractTypes.filter((n) => !now.contractTypes.includes(n)))
      add(
        "breaking",
        "export-removed",
        subject(subpath, `entry ${subpath}`, [subpath, name]),
        `type ${name}`,
        `the contract's type ${name} is no longer exported`,
        ["entries", subpath, "contractTypes"],
        "base",
      );
    for (const name of now.contractTypes.filter((n) => !was.contractTypes.includes(n)))
      add("additive", "export-added", subject(subpath, `entry ${subpath}`, [subpath, name]), `type ${name}`, `the contract's type ${name} exported`, [
        "entries",
        subpath,
        "contractTypes",
      ]);
  }

  for (const command of union(base.commands, head.commands)) {
    const about = (flag?: string) => subject(command, `command ${command}`, flag ? [command, flag] : [command]);
    const was = base.commands[command];
    const now = head.commands[command];
    if (!now) {
      add("breaking", "command-removed", about(), "bin", `command ${command} removed`, ["commands", command], "base");
      continue;
    }
    if (!was) {
      add("additive", "command-added", about(), "bin", `command ${command} added`, ["commands", command]);
      continue;
    }
    for (const flag of union(was, now)) {
      if (now[flag] === undefined)
        add(
          "breaking",
          "flag-removed",
          about(flag),
          `flag ${flag}`,
          `flag ${flag} removed: a command line with it is refused`,
          ["commands", command, flag],
          "base",
        );
      else if (was[flag] === undefined) add("additive", "flag-added", about(flag), `flag ${flag}`, `flag ${flag} added`, ["commands", command, flag]);
      else if (was[flag] !== now[flag])
        add("breaking", "flag-changed", about(flag), `flag ${flag}`, `flag ${flag} was ${was[flag]}, is ${now[flag]}`, ["commands", command, flag]);
    }
  }

  for (const engine of union(base.engines, head.engines)) {
    const about = subject("engines", `engines.${engine}`, ["engines", engine]);
    const was = base.engines[engine];
    const now = head.engines[engine];
    if (was === now) continue;
    if (was === undefined) add("breaking", "engines-narrowed", about, "engines", `engines.${engine} set to ${now}`, ["engines", engine]);
    else if (now === undefined) add("additive", "engines-widened", about, "engines", `engines.${engine} (${was}) removed`, ["engines"], "base");
    else if (covers(now, was)) add("additive", "engines-widened", about, "engines", `engines.${engine} ${was} -> ${now}`, ["engines", engine]);
    else
      add("breaking", "engines-narrowed", about, "engines", `engines.${engine} ${was} -> ${now}: a version it ran on is no longer supported`, [
        "engines",
        engine,
      ]);
  }

  for (const peer of union(base.peerDependencies, head.peerDependencies)) {
    const about = subject(peer, `peer ${peer}`, [peer]);
    const was = base.peerDependencies[peer];
    const now = head.peerDependencies[peer];
    const keys = ["peerDependencies", peer];
    if (!now) add("additive", "peer-removed", about, "peerDependencies", `peer ${peer} no longer needed`, keys, "base");
    else if (!was)
      add(
        now.optional ? "additive" : "breaking",
        "peer-added",
        about,
        "peerDependencies",
        `peer ${peer}@${now.range} added${now.optional ? " (optional)" : ": every user must install it"}`,
        keys,
      );
    else {
      if (was.optional && !now.optional) add("breaking", "peer-required", about, "peerDependencies", `peer ${peer} is required now`, keys);
      if (!was.optional && now.optional) add("additive", "peer-widened", about, "peerDependencies", `peer ${peer} is optional now`, keys);
      if (was.range !== now.range) {
        if (covers(now.range, was.range)) add("additive", "peer-widened", about, "peerDependencies", `peer ${peer} ${was.range} -> ${now.range}`, keys);
        else add("breaking", "peer-narrowed", about, "peerDependencies", `peer ${peer} ${was.range} -> ${now.range}: a version it took is refused`, keys);
      }
    }
  }
  return changes;
}

/** Whether every version `was` allows, `now` allows too (a range that is not semver is compared as text). */
function covers(now: string, was: string): boolean {
  try {
    return semver.subset(was, now);
  } catch {
    return now === was;
  }
}

type Add = (
  kind: ChangeKind,
  rule: string,
  about: Subject,
  where: string,
  message: string,
  keys: string[],
  side?: "head" | "base",
  element?: SurfaceChange["element"],
) => void;

function diffExport(
  subpath: string,
  name: string,
  before: SurfaceExport | undefined,
  after: SurfaceExport | undefined,
  add: Add,
  part: "declared" | "referenced" = "declared",
): void {
  const about = subject(subpath, `entry ${subpath}`, [subpath, name]);
  const keys = ["entries", subpath, part, name];
  const where = part === "declared" ? `export ${name}` : `type ${name} (named by the exports)`;
  if (!after) return add("breaking", "export-removed", about, where, `${name} is no longer exported: an import of it fails`, keys, "base");
  if (!before) return add("additive", "export-added", about, where, `${name} exported (${after.kind})`, keys);
  const was = before;
  const now = after;
  const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);
  if (was.kind !== now.kind) return add("breaking", "export-changed", about, where, `${name} was ${article(was.kind)}, is ${article(now.kind)}`, keys);
  // A union's name and type parameters are compared as text, its members as a set.
  const head = (text: string[] | undefined) => (text ?? []).map((line) => line.split(" = ")[0]).join("; ");
  if (was.union && now.union && head(was.text) !== head(now.text))
    return add("breaking", "export-changed", about, where, `${name} was \`${head(was.text)}\`, is \`${head(now.text)}\``, keys);
  if (was.union && now.union) {
    const removed = was.union.filter((member) => !now.union!.includes(member));
    const added = now.union.filter((member) => !was.union!.includes(member));
    if (removed.length) add("breaking", "union-narrowed", about, where, `${name} no longer allows ${removed.join(" | ")}`, keys);
    if (added.length) add("additive", "union-widened", about, where, `${name} also allows ${added.join(" | ")}`, keys);
    return;
  }
  if (was.kind === "const" && (was.data === undefined) !== (now.data === undefined)) {
    const type = (text: string[] | undefined) => `\`${clip((text ?? []).join("; "), 80)}\``;
    const message = now.data === undefined ? `no longer a value: ${type(now.text)}` : `a value now, was ${type(was.text)}`;
    return add("breaking", "export-changed", about, where, `${name}: ${message}`, keys);
  }
  // An interface's data members are keys of its data: one that is no longer a value is a key removed, and a member added.
  if (was.data !== undefined || now.data !== undefined)
    for (const change of diffData(name, was.data ?? {}, now.data ?? {})) {
      const named = subject(subpath, `entry ${subpath}`, [subpath, name, ...change.names]);
      add(
        change.kind,
        change.rule,
        named,
        change.at ? `${where}: ${change.at}` : where,
        change.message,
        [...keys, "data", ...change.keys],
        change.side,
        change.element,
      );
    }
  if (JSON.stringify(was.text ?? []) !== JSON.stringify(now.text ?? []))
    add("breaking", "export-changed", about, where, `${name}: ${declarationDifference(now.kind, was.text ?? [], now.text ?? [])}`, keys);
  const wasMembers = was.members ?? {};
  const nowMembers = now.members ?? {};
  for (const member of union(wasMembers, nowMembers)) {
    const memberKeys = [...keys, "members", member];
    const memberWhere = `${where}: ${member}`;
    if (nowMembers[member] === undefined) add("breaking", "member-removed", about, memberWhere, `${name}.${member} removed`, memberKeys, "base");
    else if (wasMembers[member] === undefined)
      add("additive", "member-added", about, memberWhere, `${name}.${member} added: \`${nowMembers[member]}\``, memberKeys);
    else if (wasMembers[member] !== nowMembers[member])
      add("breaking", "member-changed", about, memberWhere, `${name}.${member}: ${memberDifference(wasMembers[member]!, nowMembers[member]!)}`, memberKeys);
  }
}

/**
 * The 1-based line of `keys` in a surface.json as JSON.stringify(…, null, 2) writes it: the line of the last key found,
 * or of `element`, a listed value inside what the keys lead to, when it is there.
 */
export function surfaceLine(text: string, keys: string[], element?: SurfaceChange["element"]): number {
  const lines = text.split("\n");
  let line = 0;
  let depth = 0;
  for (; depth < keys.length; depth++) {
    const wanted = `${"  ".repeat(depth + 1)}${JSON.stringify(keys[depth])}:`;
    const found = lines.findIndex((candidate, index) => index >= line && candidate.startsWith(wanted));
    if (found < 0) break;
    line = found;
  }
  if (element === undefined || depth < keys.length) return line + 1;
  // Inside the block the last key opens: the lines below it indented deeper than it.
  const indent = "  ".repeat(keys.length + 1);
  const value = JSON.stringify(element);
  for (let index = line + 1; index < lines.length && lines[index]!.startsWith(indent); index++)
    if (lines[index]!.trim().replace(/,$/, "") === value) return index + 1;
  return line + 1;
}
