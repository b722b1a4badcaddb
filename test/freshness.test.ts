// The committed files in generated/ are what the scripts make from the current sources; a stale one fails with its name.
import { describe, expect, it } from "vitest";
import { renderArtifacts, staleArtifacts } from "../scripts/build.ts";

describe("generated/", () => {
  it("is fresh: regenerating would change nothing", async () => {
    const rendered = await renderArtifacts();
    expect(Object.keys(rendered).sort()).toEqual(["client.d.ts", "client.js", "client.ts", "openapi.json", "openapi.yaml", "schema.d.ts"]);
    expect(await staleArtifacts(rendered), "run `npm run build` and commit generated/").toEqual([]);
  });

  it("notices a stale artifact", async () => {
    const rendered = await renderArtifacts();
    rendered["openapi.yaml"] += "# an edit by hand\n";
    expect(await staleArtifacts(rendered)).toEqual(["openapi.yaml"]);
  });
});
