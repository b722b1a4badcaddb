// The release as a user receives it: made in a clean clone, published to a Verdaccio on loopback, installed by version into a new project, and used there.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relativeLinks } from "../support/markdown.ts";
import { startMockCommand, type MockCommand } from "../support/packed.ts";
import { publishLockedDependencies, type LockedPackage } from "./locked-dependencies.ts";
import { publishTo, startRegistry, type LocalRegistry } from "./registry.ts";
import { cloneOfTree, commitChange, inClone, releaseTree, tagHead, TEST_HOMEPAGE } from "./release-steps.ts";
import { unreleasedNote } from "../../scripts/commands/release/unreleased-note.ts";

const run = promisify(execFile);
const NAME = "@svc/health-api-contract";
const OPTIONAL_PEERS = ["msw", "@stoplight/prism-http", "@redocly/cli"];
const API_KEY = "sk_test_0000_not_a_real_key";

let registry: LocalRegistry | undefined;
let clone: string | undefined;
let project: string | undefined;
let mock: MockCommand | undefined;
let dependencies: LockedPackage[];
let version: string;
let released: string;
let installed: string;

/** A command in the new project, with the registry's environment (no npm_config_* of the run's own). */
const inProject = (command: string, args: string[]) => run(command, args, { cwd: project!, env: registry!.env });

/** `npx svc-health-mock` as the new project runs it (--no-install: a command the install failed to provide is an error
 * here, not a download), once its banner names its address. */
const startMock = (...options: string[]) =>
  startMockCommand("npx", ["--no-install", "svc-health-mock", ...options], { cwd: project!, env: registry!.env, banner: true });

beforeAll(async () => {
  // Verdaccio's start-up is CPU, the copy is disk: side by side, each kept as soon as it is made, so that afterAll
  // removes it even when the other failed.
  const made = await Promise.allSettled([startRegistry().then((started) => (registry = started)), cloneOfTree().then((dir) => (clone = dir))]);
  for (const one of made) if (one.status === "rejected") throw one.reason;
  const cloned = clone!;
  [dependencies, { version, printed: released }] = await Promise.all([publishLockedDependencies(registry!), releaseTree(cloned)]);
  const manifest = JSON.parse(await readFile(path.join(cloned, "package.json"), "utf8")) as { name: string; publishConfig?: Record<string, unknown> };
  // As the publish workflow runs it, but without --provenance: provenance needs the hosted runner's OIDC token,
  // which nothing here has (and --provenance=false, should the release set publishConfig.provenance).
  await publishTo(registry!, ".", manifest, { cwd: cloned, extra: ["--provenance=false"] });
  project = await mkdtemp(path.join(os.tmpdir(), "svc-release-consumer-"));
  // No "type": a CommonJS project, the default a user's may have.
  await writeFile(path.join(project, "package.json"), `${JSON.stringify({ name: "release-consumer", version: "1.0.0", private: true }, null, 2)}\n`);
  await inProject("npm", ["install", "--no-audit", "--no-fund", `${NAME}@${version}`]);
  installed = path.join(project, "node_modules", NAME);
  mock = await startMock("--stateful");
}, 120_000);

afterAll(async () => {
  mock?.stop();
  await registry?.stop();
  await Promise.all([clone, project].map((dir) => (dir === undefined ? undefined : rm(dir, { recursive: true, force: true }))));
});

describe("the release, published to a registry on loopback and installed by version", () => {
  it("is what the registry serves as latest, and the new project installed it and its dependencies from there alone", async () => {
    const packument = (await (await fetch(new URL("@svc%2fhealth-api-contract", registry!.url))).json()) as {
      "dist-tags": Record<string, string>;
      versions: Record<string, { dist: { tarball: string } }>;
    };
    expect(packument["dist-tags"].latest).toBe(version);
    expect(packument.versions[version]!.dist.tarball.startsWith(registry!.url)).toBe(true);
    // The clone's release, not the working tree's package: the addresses only the release step wrote.
    expect(JSON.parse(await readFile(path.join(installed, "package.json"), "utf8"))).toMatchObject({ version, homepage: TEST_HOMEPAGE });
    const lock = JSON.parse(await readFile(path.join(project!, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    const fetched = Object.entries(lock.packages).filter(([key]) => key !== "");
    // The package and exactly the lock's closure of its dependencies, at the lock's versions: nothing more was needed.
    expect(fetched.map(([key, entry]) => `${key.replace(/^.*node_modules\//, "")}@${entry.version}`).sort()).toEqual(
      [`${NAME}@${version}`, ...dependencies.map((pkg) => `${pkg.name}@${pkg.version}`)].sort(),
    );
    for (const [key, entry] of fetched) expect(entry.resolved, key).toMatch(new RegExp(`^${registry!.url.replace(/[.]/g, "\\.")}`));
    // No uplink: a package it was not given is not fetched from elsewhere.
    expect((await fetch(new URL("msw", registry!.url))).status).toBe(404);
    // The optional peers stay out, and what follows works without them.
    for (const peer of OPTIONAL_PEERS) expect(existsSync(path.join(project!, "node_modules", peer)), peer).toBe(false);
  });

  it("loads the client by import and by require, and calls the packaged mock with it", async () => {
    const call = (load: string) =>
      `${load} console.log(typeof createClient); const api = createClient({ baseUrl: ${JSON.stringify(mock!.url)}, apiKey: ${JSON.stringify(API_KEY)} });` +
      ` api.GET("/v3/lab_tests/labs").then((labs) => console.log(labs.status, Array.isArray(labs.data)));`;
    const esm = await inProject(process.execPath, ["--input-type=module", "-e", call(`import { createClient } from "${NAME}";`)]);
    expect(esm.stdout).toBe("function\n200 true\n");
    const cjs = await inProject(process.execPath, ["-e", call(`const { createClient } = require("${NAME}");`)]);
    expect(cjs.stdout).toBe("function\n200 true\n");
  });

  it("runs npx svc-health-verify against npx svc-health-mock: exit 0, nothing failed", async () => {
    // run() rejects on any exit status but 0, with verify's output in the error.
    const verify = await inProject("npx", ["--no-install", "svc-health-verify", "--base-url", mock!.url, "--report-dir", "report", "--cases", "4"]).catch(
      (error: Error & { stdout?: string }) => {
        throw new Error(`${error.message}\n${error.stdout ?? ""}\nthe mock said:\n${mock!.output()}`);
      },
    );
    expect(verify.stdout).toMatch(/verify: [1-9]\d* passed, 0 failed, \d+ skipped against \S+: \d+ requests in [\d.]+ s\n$/);
  });

  it("has the repository's README as the registry's readme, every relative link of it and of the guides it links a file of the installed package", async () => {
    const packument = (await (await fetch(new URL("@svc%2fhealth-api-contract", registry!.url))).json()) as { readme?: string };
    const readme = await readFile(path.join(clone!, "README.md"), "utf8");
    expect(packument.readme).toBe(readme);
    // The first release (1.0.0) took out the note that the package is not on the registry yet.
    expect(readme).not.toContain("not yet on the registry");
    expect(unreleasedNote(readme)).toBeUndefined();
    const links = relativeLinks(readme);
    expect(links.length).toBeGreaterThan(3);
    const missing: string[] = [];
    const guides: string[] = [];
    const check = (from: string, target: string) => {
      const file = path.posix.normalize(path.posix.join(path.posix.dirname(from), target.split("#")[0]!));
      if (file === "." || file === "") return;
      if (file.startsWith("../") || !existsSync(path.join(installed, file))) missing.push(`${from}: ${target}`);
      else if (file.startsWith("docs/") && file.endsWith(".md") && !guides.includes(file)) guides.push(file);
    };
    for (const target of links) check("README.md", target);
    expect(guides.length).toBeGreaterThan(3);
    // The guides as installed, their own links read from there.
    for (const guide of [...guides]) for (const target of relativeLinks(await readFile(path.join(installed, guide), "utf8"))) check(guide, target);
    expect(missing).toEqual([]);
  });
});

describe("the release command and the publish check, on the path the workflow takes", () => {
  it("made the first release 1.0.0, tagged v1.0.0, with its CHANGELOG section", async () => {
    expect(version).toBe("1.0.0");
    expect(released).toContain("No release tag yet: the first release is 1.0.0.");
    expect((await inClone(clone!, "git", ["tag", "--points-at", "HEAD"])).output.trim()).toBe("v1.0.0");
    const changelog = await readFile(path.join(clone!, "CHANGELOG.md"), "utf8");
    expect(changelog).toMatch(/## Unreleased\n\n## 1\.0\.0 \(\d{4}-\d\d-\d\d\)\n\nThe first release: the whole contract, 53 operations and 178 events/);
  });

  it("requires a major for a removed response field, and refuses a minor before anything reaches the registry", async () => {
    const dir = clone!;
    const lab = "openapi/lab-tests/schemas/Lab.yaml";
    await commitChange(dir, lab, "  - zipcode\n", "", "Lab: zipcode no longer required");
    await commitChange(dir, lab, "  zipcode:\n    type: string\n    description: Postal code.\n", "", "Lab: zipcode removed");
    // Built and committed with its generated/, as a reviewed pull request brings it.
    expect((await inClone(dir, "npm", ["run", "build", "--", "--no-reference"])).code).toBe(0);
    expect((await inClone(dir, "git", ["commit", "--quiet", "--no-verify", "-am", "generated/ for the change"])).code).toBe(0);
    const dry = await inClone(dir, "npm", ["run", "--silent", "release"]);
    expect(dry.output).toMatch(/Since v1\.0\.0: [1-9]\d* breaking, \d+ additive, \d+ deprecated; they require a major: 2\.0\.0 \(response-field-removed: /);
    expect(dry.code).toBe(0);
    const asMinor = await inClone(dir, "npm", ["run", "--silent", "release", "--", "--as", "1.1.0", "--write"]);
    expect(asMinor.output).toContain("release: --as 1.1.0 is lower than the 2.0.0 the changes require: response-field-removed: ");
    expect(asMinor.code).toBe(1);

    // A maintainer who skips the release command: the version set and tagged by hand, generated/ rebuilt.
    expect((await inClone(dir, "npm", ["version", "1.1.0", "--no-git-tag-version"])).code).toBe(0);
    expect((await inClone(dir, "npm", ["run", "build", "--", "--no-reference"])).code).toBe(0);
    expect((await inClone(dir, "git", ["commit", "--quiet", "--no-verify", "-am", "1.1.0 by hand"])).code).toBe(0);
    await tagHead(dir, "v1.1.0");
    // The workflow's check step, as it runs on the pushed tag.
    const check = await inClone(dir, "npm", ["run", "--silent", "release", "--", "--check", "--tag", "v1.1.0"]);
    expect(check.output).toContain(
      "release: 1.1.0 must not be published:\n  - 1.1.0 is lower than the 2.0.0 the changes since v1.0.0 require: response-field-removed: ",
    );
    expect(check.code).toBe(1);
    // Its publish step (and a laptop's `npm publish`): prepublishOnly refuses before npm sends anything.
    const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as { name: string };
    const publishing = await publishTo(registry!, ".", manifest, { cwd: dir, extra: ["--provenance=false"] }).then(
      () => "published",
      (error: Error & { stderr?: string }) => error.stderr ?? error.message,
    );
    expect(publishing).toContain("1.1.0 is lower than the 2.0.0");
    const packument = (await (await fetch(new URL("@svc%2fhealth-api-contract", registry!.url))).json()) as {
      versions: Record<string, unknown>;
      "dist-tags": Record<string, string>;
    };
    expect(Object.keys(packument.versions)).toEqual(["1.0.0"]);
    expect(packument["dist-tags"].latest).toBe("1.0.0");
  });
});
