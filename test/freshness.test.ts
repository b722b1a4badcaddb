// The committed files in generated/ are what the scripts make from the current sources; a stale or leftover one fails with its name.
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderArtifacts, staleArtifacts } from "../scripts/build/build.ts";
import { generatedDir, repoRoot } from "../scripts/build/lib/paths.ts";
import { manifestInput } from "../scripts/build/up-to-date.js";

/** Files in generated/ that no render makes: its README, and the reference, which is built but not committed. */
const NOT_RENDERED = ["README.md", "reference.html"];

// One render serves every test (a render is a Redocly bundle, the types and the client): none of them changes what it reads.
let rendering: Promise<Record<string, string>> | undefined;
const render = async () => ({ ...(await (rendering ??= renderArtifacts())) });

describe("generated/", () => {
  it("is fresh: regenerating would change nothing", async () => {
    const rendered = await render();
    expect(Object.keys(rendered)).toEqual(
      expect.arrayContaining(
        [
          "openapi.json",
          "openapi.yaml",
          "schema.d.ts",
          "schema.d.cts",
          "operations.ts",
          "management-operations.ts",
          "client-entries.ts",
          "known-values.ts",
          "events.ts",
          "traceability.md",
          "mock/cli.js",
          "verify/cli.js",
          "workflows/mock-control.openapi.yaml",
          "workflows/users.arazzo.yaml",
        ].concat(
          ...["client/index", "client/core", "client/unknown-route", "management/index", "types/index", "webhooks/index"].map((entry) =>
            [".js", ".cjs", ".d.ts", ".d.cts"].map((end) => `${entry}${end}`),
          ),
        ),
      ),
    );
    expect(await staleArtifacts(rendered), "run `npm run build` and commit generated/").toEqual([]);
  });

  it("holds nothing the scripts do not make", async () => {
    const rendered = new Set(Object.keys(await render()));
    const present = readdirSync(generatedDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `${entry.parentPath.slice(generatedDir.length + 1)}/${entry.name}`.replace(/^\//, ""));
    expect(present.filter((file) => !rendered.has(file) && !NOT_RENDERED.includes(file))).toEqual([]);
  });

  it("notices a stale artifact", async () => {
    const rendered = await render();
    rendered["openapi.yaml"] += "# an edit by hand\n";
    rendered["client/index.cjs"] += "// an edit by hand\n";
    expect(await staleArtifacts(rendered)).toEqual(["openapi.yaml", "client/index.cjs"]);
  });

  it("counts of package.json what the build reads: the registry's fields need no rebuild, engines and the version do", async () => {
    const manifest = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as Record<string, unknown>;
    const input = (changes: Record<string, unknown>) => manifestInput(JSON.stringify({ ...manifest, ...changes }));
    const now = input({});
    expect(input({ homepage: "https://svc.example/contract", keywords: ["health"], scripts: {} })).toBe(now);
    expect(input({ engines: { node: ">=22.0.0" } })).not.toBe(now);
    expect(input({ version: "9.9.9" })).not.toBe(now);
  });
});
