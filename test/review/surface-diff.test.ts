// The package's surface as the review judges it (rule 17): the snapshot made from the declarations and package.json,
// and its comparison, where anything removed or narrowed is a break and anything added an addition.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedDir, repoRoot } from "../../scripts/build/lib/paths.ts";
import { renderSurface, type Surface } from "../../scripts/build/surface.ts";
import { diffSurfaces, surfaceLine } from "../../scripts/commands/review/surface-diff.ts";

const committed = async () => JSON.parse(await readFile(path.join(generatedDir, "surface.json"), "utf8")) as Surface;
const summary = (changes: ReturnType<typeof diffSurfaces>) => changes.map((change) => [change.kind, change.rule, change.where]);

describe("the surface snapshot", () => {
  it("is made from what ships: a declaration removed from an entry and engines raised in package.json are each a break", async () => {
    const entry = await readFile(path.join(generatedDir, "mock/index.d.ts"), "utf8");
    const withoutCreateMock = entry.replace(/^export declare function createMock\(.*$/m, "");
    expect(withoutCreateMock).not.toBe(entry);
    const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { engines: { node: string } };
    const raised = JSON.stringify({ ...manifest, engines: { node: ">=22.0.0" } });
    const head = JSON.parse((await renderSurface({ "mock/index.d.ts": withoutCreateMock }, raised))["surface.json"]!) as Surface;
    const changes = diffSurfaces(await committed(), head);
    expect(summary(changes)).toEqual([
      ["breaking", "export-removed", "export createMock"],
      ["breaking", "engines-narrowed", "engines"],
    ]);
    expect(changes[0]!.side).toBe("base");
  });

  it("follows the exports to the package's types they name: paginate removed from the unexported TableClient is a break", async () => {
    const types = await readFile(path.join(generatedDir, "client/types.d.ts"), "utf8");
    const withoutPaginate = types.replace(/^ {4}paginate<.*$/m, "");
    expect(withoutPaginate).not.toBe(types);
    const head = JSON.parse((await renderSurface({ "client/types.d.ts": withoutPaginate }))["surface.json"]!) as Surface;
    const changes = diffSurfaces(await committed(), head);
    expect(new Set(summary(changes).map((change) => change.join(" ")))).toEqual(
      new Set(["breaking member-removed type TableClient (named by the exports): paginate"]),
    );
    expect(changes.map((change) => change.subject.key).sort()).toEqual([".", "./client", "./management"]);
  });

  it("holds each command's flags, engines and the peers as package.json and the flag tables give them", async () => {
    const surface = await committed();
    expect(surface.commands["svc-health-mock"]).toMatchObject({ "--port": "string", "--stateful": "boolean" });
    expect(surface.commands["svc-health-verify"]).toMatchObject({ "--base-url": "string", "--only": "string, repeatable" });
    expect(surface.entries["./mock"]!.declared.MockOptions!.members).toHaveProperty("stateful");
    expect(surface.entries["./types"]!.contractTypes).toContain("paths");
  });
});

describe("the surface comparison", () => {
  it("rates additions as additive and removals, narrowings and changes as breaking", async () => {
    const base = await committed();
    const head = structuredClone(base);
    const mock = head.entries["./mock"]!.declared;
    mock.MockOptions!.members!.verbose = "verbose?: boolean;";
    delete mock.MockOptions!.members!.journalSize;
    mock.createMock!.text = ["function createMock(options: MockOptions): Mock;"];
    head.commands["svc-health-mock"]!["--quiet"] = "boolean";
    delete head.commands["svc-health-verify"]!["--har"];
    head.peerDependencies.msw = { range: "^2.20.0", optional: true };
    head.engines.node = ">=20.0.0";
    delete head.exports["./mock/msw"];
    expect(summary(diffSurfaces(base, head))).toEqual([
      ["breaking", "entry-removed", "exports"],
      ["breaking", "export-changed", "export createMock"],
      ["additive", "member-added", "export MockOptions: verbose"],
      ["breaking", "member-removed", "export MockOptions: journalSize"],
      ["additive", "flag-added", "flag --quiet"],
      ["breaking", "flag-removed", "flag --har"],
      ["additive", "engines-widened", "engines"],
      ["breaking", "peer-narrowed", "peerDependencies"],
    ]);
  });

  it("compares a union as a set of members: one added widens it, one removed narrows it", async () => {
    const base = await committed();
    const withUnion = (members: string[]) => {
      const surface = structuredClone(base);
      surface.entries["./mock"]!.declared.Level = { kind: "type", text: [`type Level = ${members.join(" | ")}`], union: members };
      return surface;
    };
    expect(summary(diffSurfaces(withUnion(['"a"', '"b"']), withUnion(['"a"', '"b"', '"c"'])))).toEqual([["additive", "union-widened", "export Level"]]);
    expect(summary(diffSurfaces(withUnion(['"a"', '"b"']), withUnion(['"a"'])))).toEqual([["breaking", "union-narrowed", "export Level"]]);
    expect(diffSurfaces(base, structuredClone(base))).toEqual([]);
    // Its name and type parameters are text: a parameter dropped is a change, whatever the members.
    const generic = withUnion(['"a"', '"b"']);
    generic.entries["./mock"]!.declared.Level!.text = ['type Level<T> = "a" | "b"'];
    const plain = withUnion(['"a"', '"b"']);
    plain.entries["./mock"]!.declared.Level!.text = ['type Level = "a" | "b"'];
    expect(summary(diffSurfaces(generic, plain))).toEqual([["breaking", "export-changed", "export Level"]]);
  });

  it("locates a change on its line of surface.json", async () => {
    const text = await readFile(path.join(generatedDir, "surface.json"), "utf8");
    const line = surfaceLine(text, ["commands", "svc-health-verify", "--har"]);
    expect(text.split("\n")[line - 1]).toContain('"--har"');
    expect(text.split("\n").slice(0, line).join("\n")).toContain('"svc-health-verify"');
  });
});
