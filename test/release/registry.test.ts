// The release harness's own guards, without a registry: the loopback check, the lock's closure and the integrity check.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { lockedClosure, matchesIntegrity, type Lock } from "./locked-dependencies.ts";
import { assertLoopback, npmEnv } from "./registry.ts";

describe("assertLoopback", () => {
  it("refuses the public registry, a name that only resolves to loopback, and look-alikes", () => {
    for (const url of [
      "https://registry.npmjs.org/",
      "http://localhost:4873/",
      "http://127.0.0.1.example.com/",
      "http://10.0.0.1:4873/",
      "file:///127.0.0.1/",
      "127.0.0.1:4873",
    ])
      expect(() => assertLoopback(url), url).toThrow(/refusing to publish/);
  });

  it("accepts 127.0.0.1 and ::1", () => {
    for (const url of ["http://127.0.0.1:4873/", "http://[::1]:4873/"]) expect(() => assertLoopback(url), url).not.toThrow();
  });
});

describe("npmEnv", () => {
  it("keeps PATH and none of the run's npm_config_*", () => {
    const env = npmEnv("/tmp/x", "/tmp/x/npmrc");
    expect(
      Object.keys(env)
        .filter((key) => key.startsWith("npm_config_"))
        .sort(),
    ).toEqual(["npm_config_cache", "npm_config_globalconfig", "npm_config_update_notifier", "npm_config_userconfig"]);
    expect(env).toMatchObject({ HOME: "/tmp/x", npm_config_userconfig: "/tmp/x/npmrc", PATH: process.env.PATH });
  });
});

describe("lockedClosure", () => {
  it("follows npm's resolution (nested first, then above), keeps two versions of one name, skips optional peers", () => {
    const lock: Lock = {
      packages: {
        "": { dependencies: { a: "1" } },
        "node_modules/a": {
          version: "1.0.0",
          integrity: "sha512-a",
          dependencies: { b: "^2" },
          peerDependencies: { p: "1", q: "1" },
          peerDependenciesMeta: { q: { optional: true } },
        },
        "node_modules/a/node_modules/b": { version: "2.0.0", integrity: "sha512-b2", dependencies: { c: "1" } },
        "node_modules/b": { version: "1.0.0", integrity: "sha512-b1" },
        "node_modules/c": { version: "1.0.0", integrity: "sha512-c", dependencies: { b: "1" } },
        "node_modules/p": { version: "1.0.0", integrity: "sha512-p" },
        "node_modules/q": { version: "1.0.0", integrity: "sha512-q" },
      },
    };
    expect(lockedClosure(lock, ["a"]).map((pkg) => `${pkg.name}@${pkg.version}`)).toEqual(["a@1.0.0", "b@1.0.0", "b@2.0.0", "c@1.0.0", "p@1.0.0"]);
  });

  it("finds openapi-fetch and what it depends on in this repository's lock", () => {
    const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")) as Lock;
    const { dependencies } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const names = lockedClosure(lock, Object.keys(dependencies)).map((pkg) => pkg.name);
    expect(names).toContain("openapi-fetch");
    expect(names).toContain("openapi-typescript-helpers");
  });
});

describe("matchesIntegrity", () => {
  it("matches the bytes' sha512 and nothing else", () => {
    const bytes = Buffer.from("tarball");
    const integrity = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
    expect(matchesIntegrity(bytes, integrity)).toBe(true);
    expect(matchesIntegrity(Buffer.from("other"), integrity)).toBe(false);
    expect(matchesIntegrity(bytes, "md5-abc")).toBe(false);
  });
});
