// generated/openapi.yaml loads as generated/openapi.json under YAML 1.1 readers too, which take a plain 1990-01-02 for a date and yes/on for true.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { toPortableYaml } from "../scripts/build/bundle.ts";
import { bundleJsonPath, bundleYamlPath } from "../scripts/build/lib/paths.ts";

const yamlText = readFileSync(bundleYamlPath, "utf8");
const json: unknown = JSON.parse(readFileSync(bundleJsonPath, "utf8"));
// js-yaml (3.x, a YAML 1.1 reader with timestamps) comes with the tools; it is not a dependency of the package.
const jsYaml = createRequire(import.meta.url)("js-yaml") as { safeLoad(text: string): unknown };

describe("generated/openapi.yaml", () => {
  it("equals generated/openapi.json when a YAML 1.1 reader loads it (yaml, version 1.1)", () => {
    expect(YAML.parse(yamlText, { version: "1.1" })).toEqual(json);
  });

  it("equals generated/openapi.json when js-yaml loads it", () => {
    expect(jsYaml.safeLoad(yamlText)).toEqual(json);
  });

  it("equals generated/openapi.json when a YAML 1.2 reader loads it", () => {
    expect(YAML.parse(yamlText)).toEqual(json);
  });
});

describe("toPortableYaml", () => {
  const tricky = {
    dob: "1990-01-02",
    at: "2026-03-02T09:15:00Z",
    yes: "yes",
    on: "on",
    off: "Off",
    y: "y",
    octal: "0123",
    octal12: "0o17",
    sexagesimal: "1:20",
    underscore: "12_345",
    hex: "0x1F",
    tilde: "~",
    float: ".5",
    exp: "1e3",
    infinity: ".inf",
    zip: "06103",
    plain: "plain text",
    multiline: "one\ntwo\n",
  };

  it("writes strings that either YAML version would read as something else so that both read them back as strings", () => {
    const text = toPortableYaml(tricky);
    expect(YAML.parse(text, { version: "1.1" })).toEqual(tricky);
    expect(YAML.parse(text, { version: "1.2" })).toEqual(tricky);
    expect(jsYaml.safeLoad(text)).toEqual(tricky);
  });

  it("leaves ordinary strings plain", () => {
    expect(toPortableYaml({ plain: "plain text" })).toBe("plain: plain text\n");
  });
});
