// The workflows the package ships (generated/workflows/) point at the bundle beside them, not at the repository's
// layout, and the build refuses a source description it could not point at anything the package holds.
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { renderWorkflows, shipWorkflow } from "../../scripts/build/ship-workflows.ts";

const sources = (text: string) => (YAML.parse(text) as { sourceDescriptions: { url: string }[] }).sourceDescriptions.map((source) => source.url);

describe("the shipped workflows (generated/workflows/)", () => {
  it("name the shipped bundle as ../openapi.yaml and keep the control description beside them", async () => {
    const shipped = await renderWorkflows();
    const arazzo = Object.keys(shipped).filter((file) => file.endsWith(".arazzo.yaml"));
    expect(arazzo.length).toBeGreaterThan(0);
    expect(Object.keys(shipped)).toContain("workflows/mock-control.openapi.yaml");
    for (const file of arazzo) expect(sources(shipped[file]!), file).toEqual(["../openapi.yaml", "./mock-control.openapi.yaml"]);
  });

  it("rewrites the bundle's url, quoted or not, and leaves every other url as it was", () => {
    const text = [
      "sourceDescriptions:",
      "  - name: svc",
      "    url: '../../generated/openapi.yaml'",
      "  - name: mock",
      "    url: ./mock-control.openapi.yaml",
      "steps:",
      "  - url: $inputs.webhookUrl",
      "    redirect_url: https://app.example.com/done",
      "",
    ].join("\n");
    const shipped = shipWorkflow("x.arazzo.yaml", text);
    expect(sources(shipped)).toEqual(["../openapi.yaml", "./mock-control.openapi.yaml"]);
    expect(shipped).toContain("  - url: $inputs.webhookUrl\n    redirect_url: https://app.example.com/done\n");
  });

  it("refuses any other url that leaves openapi/workflows/, naming the file", () => {
    expect(() => shipWorkflow("x.arazzo.yaml", "sourceDescriptions:\n  - name: other\n    url: ../shared/other.yaml\n")).toThrow(
      /x\.arazzo\.yaml: url \.\.\/shared\/other\.yaml leaves the folder/,
    );
  });
});
