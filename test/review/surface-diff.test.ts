// The package's surface as the review judges it (rule 17): the snapshot made from the declarations and package.json,
// and its comparison, where anything removed or narrowed is a break and anything added an addition, the data the
// declarations carry compared by value, and every change said as its difference.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedDir, repoRoot } from "../../scripts/build/lib/paths.ts";
import type { DataValue } from "../../scripts/build/surface-data.ts";
import { renderSurface, type Surface } from "../../scripts/build/surface.ts";
import { diffSurfaces, surfaceLine, type SurfaceChange } from "../../scripts/commands/review/surface-diff.ts";
import { MESSAGE_LIMIT } from "../../scripts/commands/review/text-difference.ts";

const committedText = () => readFile(path.join(generatedDir, "surface.json"), "utf8");
const committed = async () => JSON.parse(await committedText()) as Surface;
const summary = (changes: ReturnType<typeof diffSurfaces>) => changes.map((change) => [change.kind, change.rule, change.where]);
const said = (changes: SurfaceChange[]) => changes.map((change) => [change.kind, change.rule, change.message]);

/** `text` with `from` replaced, failing when the declarations no longer hold `from` (the edit would test nothing). */
function edited(text: string, from: string | RegExp, to: string): string {
  const changed = text.replace(from, to);
  if (changed === text) throw new Error(`nothing to edit: ${String(from)}`);
  return changed;
}

const read = (file: string) => readFile(path.join(generatedDir, file), "utf8");

/**
 * The real declarations with the data edits of a pull request (a listed value, an event kind, an operation and a status
 * added; a route and a listed value removed; the words of an unknown path's refusal changed), rendered once for every case: a
 * TypeScript program over the declarations costs about a second.
 */
let dataEdits: Promise<{ baseText: string; headText: string; changes: SurfaceChange[] }> | undefined;
const withDataEdits = () =>
  (dataEdits ??= (async () => {
    const knownValues = await read("types/known-values.d.ts");
    const operations = await read("client/operations.d.ts");
    const events = await read("webhooks/events.d.ts");
    const rendered = {
      "types/known-values.d.ts": edited(
        edited(knownValues, '"at_home_phlebotomy", "on_site_collection"]', '"at_home_phlebotomy", "on_site_collection", "drive_through"]'),
        '"urine", "stool"]',
        '"urine"]',
      ),
      "client/operations.d.ts": [
        (text: string) =>
          edited(text, /^ {4}readonly operations: \{\n/m, '$&        readonly "POST /v2/widgets": readonly ["createWidget", "apiKey", readonly [422]];\n'),
        (text: string) =>
          edited(
            text,
            '"GET /v2/providers": readonly ["listProviders", "apiKey", readonly [422]]',
            '"GET /v2/providers": readonly ["listProviders", "apiKey", readonly [409, 422]]',
          ),
        (text: string) => edited(text, /^ {8}readonly "DELETE \/v2\/user\/\{user_id\}": .*\n/m, ""),
      ].reduce((text, edit) => edit(text), operations),
      // The words of an unknown path's refusal, reworded: the hint's file, which no entry exports.
      "client/client-entries.d.ts": edited(await read("client/client-entries.d.ts"), '"the management API"', '"the API of the org\'s management key"'),
      "webhooks/events.d.ts": edited(events, '"provider.connection.created"]', '"provider.connection.created", "provider.connection.deleted"]'),
    };
    const [baseText, { "surface.json": headText }] = await Promise.all([committedText(), renderSurface(rendered)]);
    return { baseText, headText: headText!, changes: diffSurfaces(JSON.parse(baseText) as Surface, JSON.parse(headText!) as Surface) };
  })());

/** The changes of `edits` on `where` (`export knownValues: CollectionMethod`), each with the line it is located on. */
async function changesAt(where: string): Promise<{ said: (string | undefined)[][]; lines: string[] }> {
  const { baseText, headText, changes } = await withDataEdits();
  const found = changes.filter((change) => change.where === where);
  return {
    said: found.map((change) => [change.subject.key, change.kind, change.rule, change.message]),
    lines: found.map((change) => {
      const text = change.side === "base" ? baseText : headText;
      return text.split("\n")[surfaceLine(text, change.keys, change.element) - 1]!.trim();
    }),
  };
}

/** A surface.json as the build wrote it before it recorded data by value: a value as the text of its `as const` type. */
const asTypeText = (value: DataValue): string =>
  Array.isArray(value)
    ? `readonly [${value.map(asTypeText).join(", ")}]`
    : value !== null && typeof value === "object"
      ? `{ ${Object.entries(value)
          .map(([key, inner]) => `readonly ${JSON.stringify(key)}: ${asTypeText(inner)};`)
          .join(" ")} }`
      : JSON.stringify(value);

describe("the surface snapshot", () => {
  it("is made from what ships: a declaration removed from an entry, an entry's node10 types (typesVersions) removed and engines raised in package.json are each a break", async () => {
    const entry = await readFile(path.join(generatedDir, "mock/index.d.ts"), "utf8");
    const withoutCreateMock = entry.replace(/^export declare function createMock\(.*$/m, "");
    expect(withoutCreateMock).not.toBe(entry);
    const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as {
      engines: { node: string };
      typesVersions: { "*": Record<string, string[]> };
    };
    const { "mock/msw": _dropped, ...node10 } = manifest.typesVersions["*"];
    const raised = JSON.stringify({ ...manifest, engines: { node: ">=22.0.0" }, typesVersions: { "*": node10 } });
    const head = JSON.parse((await renderSurface({ "mock/index.d.ts": withoutCreateMock }, raised))["surface.json"]!) as Surface;
    const changes = diffSurfaces(await committed(), head);
    expect(summary(changes)).toEqual([
      ["breaking", "condition-removed", "exports"],
      ["breaking", "export-removed", "export createMock"],
      ["breaking", "engines-narrowed", "engines"],
    ]);
    expect(changes[0]!.message).toContain("typesVersions (node10)");
    expect(changes[0]!.subject.key).toBe("./mock/msw");
    expect(changes[1]!.side).toBe("base");
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
    mock.createMock!.text = ["function createMock(options: MockOptions, verbose?: boolean): Mock;"];
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
    // Each change said as its difference: the parameters by name, never the two whole declarations.
    expect(diffSurfaces(base, head).find((change) => change.rule === "export-changed")!.message).toBe(
      "createMock: parameter verbose added (optional); parameter options became required",
    );
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

  it("says a changed declaration or member as its difference, in at most 300 characters, never both whole texts", async () => {
    const base = await committed();
    const head = structuredClone(base);
    const client = head.entries["./client"]!.referenced;
    // A type of 2.7 KB, one status out of it; a method whose return type changed; a member made to allow null; and a
    // conditional type, whose parts the comparison does not name: the first part that differs, after what precedes it.
    client.Decades!.text = [edited(client.Decades!.text![0]!, "218 | ", "")];
    client.TableClient!.members!.paginate = edited(client.TableClient!.members!.paginate!, "AsyncIterableIterator<", "AsyncGenerator<");
    head.entries["./mock"]!.declared.MockOptions!.members!.journalSize = "journalSize?: number | null;";
    client.ParamsInit!.text = [edited(client.ParamsInit!.text![0]!, "{ params?: undefined; }", "{ params?: never; }")];
    const changes = diffSurfaces(base, head).filter((change) => change.subject.key === "./client" || change.subject.key === "./mock");
    expect(said(changes)).toEqual([
      ["breaking", "export-changed", 'Decades: member "21": no longer allows `218`'],
      ["breaking", "export-changed", "ParamsInit: after `…extends never ? { params?: `: `undefined` -> `never`"],
      ["breaking", "member-changed", "TableClient.paginate: returns: `AsyncIterableIterator` -> `AsyncGenerator`"],
      ["breaking", "member-changed", "MockOptions.journalSize: also allows `null`"],
    ]);
    // However much changed, a message is bounded and is not the declaration twice.
    const whole = base.entries["./client"]!.referenced.Decades!.text![0]!;
    client.Decades!.text = [whole.replaceAll(/\b2(\d\d)\b/g, "3$1")];
    const long = diffSurfaces(base, head).find((change) => change.where === "type Decades (named by the exports)")!.message;
    expect(long.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(long).toMatch(/^Decades: member "20": no longer allows `200 \| 201/);
    expect(long).not.toContain(whole.slice(whole.indexOf("{"), 200));
  });

  it("locates a change on its line of surface.json", async () => {
    const text = await readFile(path.join(generatedDir, "surface.json"), "utf8");
    const line = surfaceLine(text, ["commands", "svc-health-verify", "--har"]);
    expect(text.split("\n")[line - 1]).toContain('"--har"');
    expect(text.split("\n").slice(0, line).join("\n")).toContain('"svc-health-verify"');
  });
});

describe("the data the declarations carry, compared by value (the real build's declarations, edited)", () => {
  it("rates a value added to an open enumeration as additive, said as the value, on its line", async () => {
    expect(await changesAt("export knownValues: CollectionMethod")).toEqual({
      said: [["./types", "additive", "data-added", 'knownValues.CollectionMethod: "drive_through" added']],
      lines: ['"drive_through"'],
    });
  });

  it("rates a new operation as additive: its route and operationId, once per entry that holds the table", async () => {
    expect(await changesAt("type Table (named by the exports): route POST /v2/widgets")).toEqual({
      said: [".", "./client"].map((entry) => [entry, "additive", "data-added", "route POST /v2/widgets added (createWidget)"]),
      lines: ['"POST /v2/widgets": [', '"POST /v2/widgets": ['],
    });
  });

  it("rates a status added to an operation as additive", async () => {
    expect(await changesAt("type Table (named by the exports): route GET /v2/providers")).toEqual({
      said: [".", "./client"].map((entry) => [entry, "additive", "data-added", "route GET /v2/providers: status 409 added"]),
      lines: ["409,", "409,"],
    });
  });

  it("rates a new event kind as additive", async () => {
    expect(await changesAt("export eventKinds")).toEqual({
      said: [["./webhooks", "additive", "data-added", 'eventKinds: "provider.connection.deleted" added']],
      lines: ['"provider.connection.deleted"'],
    });
  });

  it("rates a removed route as breaking, on the base's line, and a CHANGELOG bullet may name it by route or operationId", async () => {
    const at = await changesAt("type Table (named by the exports): route DELETE /v2/user/{user_id}");
    expect(at).toEqual({
      said: [".", "./client"].map((entry) => [entry, "breaking", "data-removed", "route DELETE /v2/user/{user_id} removed (deleteUser)"]),
      lines: ['"DELETE /v2/user/{user_id}": [', '"DELETE /v2/user/{user_id}": ['],
    });
    const { changes } = await withDataEdits();
    const removed = changes.find((change) => change.rule === "data-removed" && change.where.endsWith("DELETE /v2/user/{user_id}"))!;
    expect(removed.subject.names).toEqual(expect.arrayContaining(["DELETE /v2/user/{user_id}", "deleteUser"]));
  });

  it("rates a removed listed value as breaking", async () => {
    expect(await changesAt("export knownValues: SampleType")).toEqual({
      said: [["./types", "breaking", "data-removed", 'knownValues.SampleType: "stool" removed']],
      lines: ['"stool"'],
    });
  });

  it("reports those edits and nothing else: the words of an unknown path's refusal, changed, are no surface", async () => {
    const { changes, headText } = await withDataEdits();
    const table = "type Table (named by the exports)";
    expect(changes.map((change) => `${change.subject.key} ${change.where}`).sort()).toEqual(
      [
        "./types export knownValues: CollectionMethod",
        "./types export knownValues: SampleType",
        "./webhooks export eventKinds",
        ...[".", "./client"].flatMap((entry) =>
          ["route POST /v2/widgets", "route GET /v2/providers", "route DELETE /v2/user/{user_id}"].map((route) => `${entry} ${table}: ${route}`),
        ),
      ].sort(),
    );
    expect(changes.every((change) => change.message.length <= MESSAGE_LIMIT)).toBe(true);
    // Not recorded at all, so that rewording the message is no change of the surface.
    expect(headText).not.toMatch(/the management API|management key|is not an operation of/);
  });
});

describe("the comparison of data by value", () => {
  /** The committed surface, and a copy whose client table `edit` changed. */
  async function tableEdit(edit: (table: { credentials: Record<string, string[]>; statuses: number[]; operations: Record<string, DataValue[]> }) => void) {
    const base = await committed();
    const head = structuredClone(base);
    edit(head.entries["./client"]!.referenced.Table!.data as never);
    // In the order of the table's routes, which the build decides: sorted.
    return said(diffSurfaces(base, head).filter((change) => change.subject.key === "./client")).sort();
  }

  it("compares a route's row by its parts: operationId, credential and paging", async () => {
    expect(
      await tableEdit(({ operations }) => {
        operations["POST /v2/link/token"]![0] = "makeLinkToken";
        operations["POST /v2/user"]![1] = null;
        operations["GET /v2/providers"]![1] = "linkToken";
        operations["GET /v2/link/bulk_op"]![3] = ["bulk_ops", 25, 200];
        operations["GET /v3/orders"]![3] = ["items", 50, 80];
        operations["GET /v3/lab_tests/{lab_test_id}/markers"]!.length = 3;
        operations["GET /v2/user/{user_id}/info/latest"]![3] = ["infos", 10, 20];
      }),
    ).toEqual(
      [
        ["breaking", "data-changed", "route POST /v2/link/token: operationId createLinkToken -> makeLinkToken"],
        ["additive", "data-widened", "route POST /v2/user: takes no credential now (took apiKey)"],
        ["breaking", "data-changed", "route GET /v2/providers: takes the credential linkToken, took apiKey"],
        ["additive", "data-widened", "route GET /v2/link/bulk_op: largest page size 100 -> 200"],
        ["additive", "data-default-changed", "route GET /v2/link/bulk_op: default page size 50 -> 25"],
        ["breaking", "data-removed", "route GET /v3/lab_tests/{lab_test_id}/markers: no longer paged: paginate refuses it"],
        ["breaking", "data-changed", 'route GET /v3/orders: a page\'s items in "items", were in "orders"'],
        ["breaking", "data-changed", "route GET /v3/orders: largest page size 100 -> 80: paginate refuses a size above 80"],
        ["additive", "data-added", 'route GET /v2/user/{user_id}/info/latest: paged now (items in "infos", 10 a page by default, at most 20)'],
      ].sort(),
    );
  });

  it("compares what each route declares: a status moved out of the common list into the rows is no change, one every route gains is said once", async () => {
    expect(
      await tableEdit((table) => {
        // 500 moves from the common list into every row but one; 409 joins the common list.
        table.statuses.splice(table.statuses.indexOf(500), 1);
        table.statuses.push(409);
        for (const [route, row] of Object.entries(table.operations)) if (route !== "POST /v2/user") row[2] = [...(row[2] as number[]), 500];
      }),
    ).toEqual([
      ["additive", "data-added", "every route: status 409 added"],
      ["breaking", "data-removed", "route POST /v2/user: status 500 removed"],
    ]);
  });

  it("compares a credential by the header it is sent as, and the headers that stand in for it as a set", async () => {
    const base = await committed();
    const head = structuredClone(base);
    const credentials = (head.entries["./management"]!.referenced.ManagementTable!.data as { credentials: Record<string, string[]> }).credentials;
    credentials.managementKey = ["x-management-key", "x-svc-team-key"];
    const client = (head.entries["./client"]!.referenced.Table!.data as { credentials: Record<string, string[]> }).credentials;
    client.linkToken = ["x-link-token"];
    client.sessionToken = ["x-session-token"];
    delete client.apiKey;
    expect(said(diffSurfaces(base, head).filter((change) => ["./client", "./management"].includes(change.subject.key)))).toEqual([
      ["breaking", "data-changed", "credential linkToken: sent as x-link-token, was x-svc-link-token"],
      ["additive", "data-added", "credential option sessionToken added (sent as x-session-token)"],
      ["breaking", "data-removed", "credential option apiKey removed"],
      ["breaking", "data-removed", "credential managementKey: header x-svc-org-key no longer stands in for it"],
      ["additive", "data-added", "credential managementKey: header x-svc-team-key stands in for it"],
    ]);
  });

  it("reads a surface.json made before data was recorded by value (whole type texts) as the same data, its message left out", async () => {
    const head = await committed();
    const older = structuredClone(head);
    const types = older.entries["./types"]!.declared;
    types.knownValues = { kind: "const", text: [`knownValues: ${asTypeText(types.knownValues!.data!)}`] };
    const webhooks = older.entries["./webhooks"]!.declared;
    webhooks.eventKinds = { kind: "const", text: [`eventKinds: ${asTypeText(webhooks.eventKinds!.data!)}`] };
    for (const [entry, name] of [
      [".", "Table"],
      ["./client", "Table"],
      ["./management", "ManagementTable"],
    ] as const) {
      const table = older.entries[entry]!.referenced[name]!;
      const members = Object.entries(table.data as Record<string, DataValue>).map(([key, value]) => [key, `readonly ${key}: ${asTypeText(value)};`]);
      older.entries[entry]!.referenced[name] = {
        ...table,
        data: undefined,
        members: { ...Object.fromEntries(members), unknown: 'readonly unknown: " an old message";' },
      };
    }
    // Whole: no export of it carries data, as none did then (one that does is read as made now, unparsed).
    expect(JSON.stringify(older.entries)).not.toContain('"data":{');
    expect(diffSurfaces(older, head)).toEqual([]);
    (head.entries["./types"]!.declared.knownValues!.data as Record<string, string[]>).CollectionMethod!.push("drive_through");
    expect(said(diffSurfaces(older, head))).toEqual([["additive", "data-added", 'knownValues.CollectionMethod: "drive_through" added']]);
  });
});
