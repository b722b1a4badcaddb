// The packed tarball, installed into a fresh project: a strict TypeScript consumer type-checks under nodenext, node16 and
// bundler resolution, and runs against the mock under plain Node ESM, plain Node require, tsx and an esbuild bundle.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath } from "../../scripts/build/lib/tools.ts";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { assertMatchesContract, contract, exampleNames, operations, responseExample } from "../support/contract.ts";
import { mockUrl } from "../support/mock.ts";
import { installPacked, OTHER_NODE, otherNodeBinary, run, startPackedMock, type PackedProject } from "../support/packed.ts";
import { json, startStub } from "../support/stub-server.ts";
import { STRICT_CONSUMER } from "../support/type-check.ts";

let project: PackedProject;
let otherNode: string;
const FIXTURE = path.join(repoRoot, "test/fixtures/consumer/consumer.ts");

beforeAll(async () => {
  [project, otherNode] = await Promise.all([installPacked(), otherNodeBinary()]);
  await copyFile(FIXTURE, path.join(project.dir, "consumer.ts"));
  // The same application as CommonJS: its imports become require() calls and resolve the package's require condition.
  await copyFile(FIXTURE, path.join(project.dir, "consumer.cts"));
  // Type annotations stripped, nothing bundled: what plain Node loads is the package as installed.
  await run(binPath("esbuild"), ["consumer.ts", "--format=esm", "--outfile=consumer.mjs", "--log-level=warning"], { cwd: project.dir });
  await run(binPath("esbuild"), ["consumer.cts", "--format=cjs", "--outfile=consumer.cjs", "--log-level=warning"], { cwd: project.dir });
}, 300_000);
afterAll(() => project?.remove());

function first<T>(operationId: string, status: number): T {
  return responseExample(operationId, status, exampleNames(operationId, status)[0]!) as T;
}

/**
 * Source files parsed once for the three programs: TypeScript's libraries, Node's types and the package's declarations
 * are the same text under each resolution, and a parsed (and bound) file is reused as tsc's watch mode reuses it.
 * Keyed by how the file is read (language version, module format), which is all that parsing depends on.
 */
const sourceFiles = new Map<string, ts.SourceFile>();
function sharingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const how =
      typeof languageVersionOrOptions === "object"
        ? `${languageVersionOrOptions.languageVersion}:${languageVersionOrOptions.impliedNodeFormat}`
        : String(languageVersionOrOptions);
    const key = `${how}:${fileName}`;
    let file = shouldCreateNewSourceFile ? undefined : sourceFiles.get(key);
    if (file === undefined) {
      file = read(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
      if (file !== undefined) sourceFiles.set(key, file);
    }
    return file;
  };
  return host;
}

/** Whether a file of a program is the consumer's or one npm installed in the project (not TypeScript's nor Node's types). */
function isInProject(file: string): boolean {
  return path.resolve(file).startsWith(`${path.resolve(project.dir)}${path.sep}`);
}

/** `declare global { }` or `declare module "name" { }`: a module's declarations that reach beyond it. */
function augments(statement: ts.Statement): boolean {
  return ts.isModuleDeclaration(statement) && ((statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0 || ts.isStringLiteral(statement.name));
}

/** The package's entry declarations the consumer (its imports: client, management, types, webhooks) reads: ESM's and, under
 * the node resolutions, CommonJS's too (consumer.cts), so a shortened program cannot pass for a checked one. */
function declarationsFor(resolution: string): string[] {
  const ends = resolution === "bundler" ? [".d.ts"] : [".d.ts", ".d.cts"];
  return ["client/index", "management/index", "types/index", "webhooks/index"].flatMap((entry) =>
    ends.map((end) => `node_modules/@svc/health-api-contract/generated/${entry}${end}`),
  );
}

/** What the consumer must print, worked out from the contract's examples the way the consumer reads them. */
function expected(): Record<string, unknown> {
  const markerPage = first<{ markers: { slug: string }[]; pages: number }>("listLabTestMarkers", 200);
  const labSlugs = (contract.components as { schemas: Record<string, { anyOf: { enum?: string[] }[] }> }).schemas.LabSlug!.anyOf.find((b) => b.enum)!.enum!;
  return {
    createLinkToken: first<{ link_web_url: string }>("createLinkToken", 200).link_web_url.startsWith("https://"),
    bulkImportConnections: { status: 202, imported: first<{ user_ids_imported: string[] }>("bulkImportConnections", 202).user_ids_imported.length },
    completeProviderMfa: first<{ state: string }>("completeProviderMfa", 200).state,
    createInsurance: first<{ company: { name: string } }>("createInsurance", 200).company.name.length > 0,
    getLatestInsurance: first<{ member_id: string }>("getLatestInsurance", 200).member_id.length > 0,
    getLatestUserInfo: first<{ first_name: string }>("getLatestUserInfo", 200).first_name.length > 0,
    createSignInToken: first<{ sign_in_token: string }>("createSignInToken", 200).sign_in_token.length > 0,
    listProviders: first<unknown[]>("listProviders", 200).length,
    listLabTestMarkers: markerPage.markers[0]?.slug ?? null,
    listOrderSetMarkers: first<{ markers: unknown[] }>("listOrderSetMarkers", 200).markers.length,
    listLabs: first<{ collection_methods: string[] }[]>("listLabs", 200)[0]!.collection_methods[0]!.toUpperCase(),
    getOrderPscInfo: first<{ slug: string }>("getOrderPscInfo", 200).slug.toUpperCase(),
    getOrderPhlebotomyAppointment: first<{ status: string }>("getOrderPhlebotomyAppointment", 200).status,
    listOrders: "abnormal",
    createUser: first<{ client_user_id: string }>("createUser", 200).client_user_id,
    createUserConflict: { code: "user_already_exists", user_id: (responseExample("createUser", 400, "user_already_exists") as { user_id: string }).user_id },
    deleteUser: 7 * 24 * 60 * 60 * 1000,
    undoUserDeletion: "deletion_grace_period_over",
    // The consumer asks for oura's operations: the mock filters the example's list (x-svc-filter).
    listBulkOps: first<{ bulk_ops: { status: string; provider: string }[] }>("listBulkOps", 200)
      .bulk_ops.filter((op) => op.provider === "oura")
      .map((op) => op.status),
    getHistoricalPullIntrospection: (
      responseExample("getHistoricalPullIntrospection", 200, "retrying") as { connections: { resources: { status: string }[] }[] }
    ).connections.flatMap((connection) => connection.resources.map((resource) => resource.status)),
    listActivitySummaries: first<{ activity: { source: { provider: string } }[] }>("listActivitySummaries", 200).activity[0]!.source.provider,
    ...Object.fromEntries(
      (["Body:body", "Meal:meal", "Profile:profile", "Sleep:sleep", "Workout:workouts"] as const).map((pair) => {
        const [name, key] = pair.split(":") as [string, string];
        return [`list${name}Summaries`, first<Record<string, unknown[]>>(`list${name}Summaries`, 200)[key]!.length];
      }),
    ),
    notFound: "not_found",
    thrown: { status: 401, code: "unauthorized", isClass: true },
    mistyped: "GET /v3/lab_test/labs is not an operation of createClient; did you mean GET /v3/lab_tests/labs?",
    paginate: markerPage.markers.length * markerPage.pages,
    knownLabSlugs: labSlugs.length,
    // The consumer signs an event of its own (provider "oura") and parses it back, then a tampered copy.
    webhook: { kind: "provider.connection.created", provider: "oura", refused: "bad_signature" },
    listTeams: first<unknown[]>("listTeams", 200).length,
    createTeamApiKey: true,
    updateWebhookEndpoint: first<{ enabled: boolean }>("updateWebhookEndpoint", 200).enabled,
    listEtlPipelines: first<{ routes: { event_type_prefix: string }[] }[]>("listEtlPipelines", 200)[0]!.routes.map((route) => route.event_type_prefix),
    deleteEtlPipeline: true,
    managementThrown: { status: 403, code: first<{ code: string }>("getOrg", 403).code, sameClass: true },
    managementMistyped:
      "GET /v3/lab_tests/labs is not an operation of createManagementClient: the rest of the contract is createClient's, from @svc/health-api-contract/client",
    // Every management operation answers its lowest success status.
    management: Object.fromEntries(
      operations
        .filter((op) => op.template.startsWith("/v2/management/"))
        .map((op) => [
          op.operationId,
          Math.min(
            ...Object.keys(op.operation.responses as object)
              .map(Number)
              .filter((status) => status >= 200 && status < 300),
          ),
        ]),
    ),
  };
}

describe("the packed tarball", () => {
  it("ships only what consumers use", () => {
    const outside = project.files.filter(
      (file) =>
        !/^generated\/(client|management|types|webhooks|mock|verify|workflows)\//.test(file) &&
        // The guides, which the README links to (test/docs-links.test.ts).
        !/^docs\/[\w-]+\.md$/.test(file) &&
        ![
          "generated/schema.d.ts",
          "generated/schema.d.cts",
          "generated/openapi.json",
          "generated/openapi.yaml",
          "package.json",
          "README.md",
          "LICENSE",
          "CHANGELOG.md",
        ].includes(file),
    );
    expect(outside).toEqual([]);
    // client/unknown-route: the unknown path's message, which the core loads when a call names one.
    const entries = ["client/index", "client/core", "client/unknown-route", "management/index", "types/index", "webhooks/index"];
    for (const needed of [
      "LICENSE",
      "CHANGELOG.md",
      "README.md",
      ...entries.flatMap((entry) => [".js", ".cjs", ".d.ts", ".d.cts"].map((end) => `generated/${entry}${end}`)),
    ]) {
      expect(project.files).toContain(needed);
    }
  });

  it("loads every JavaScript entry of its exports under plain Node, by import and by require, with the same names", async () => {
    const pkg = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as {
      name: string;
      exports: Record<string, unknown>;
      peerDependencies: Record<string, string>;
    };
    const entries = Object.keys(pkg.exports).filter((key) => key !== "./package.json" && !/\.(json|ya?ml)$/.test(key));
    expect(entries).toEqual(expect.arrayContaining([".", "./client", "./management", "./types", "./webhooks", "./mock", "./mock/msw"]));
    // One process loads every entry by import, one by require: each entry's names, printed as one JSON object. This
    // project has no msw (an optional peer): `./mock/msw` loads all the same, and its createMockHandlers says what to
    // install, printed on a line of its own.
    const specifiers = entries.map((entry) => (entry === "." ? pkg.name : `${pkg.name}/${entry.slice(2)}`));
    const msw = JSON.stringify(`${pkg.name}/mock/msw`);
    const names = (load: string) =>
      `const s = ${JSON.stringify(specifiers)}, names = {}; for (const x of s) names[x] = Object.keys(${load}).sort().join(); console.log(JSON.stringify(names));` +
      ` try { (${load.replace(/\bx\b/, msw)}).createMockHandlers(); console.log("no error"); } catch (error) { console.log(error.message); }`;
    const importedOutput = (await run(process.execPath, ["--input-type=module", "-e", names("await import(x)")], { cwd: project.dir })).stdout
      .trim()
      .split("\n");
    const imported = JSON.parse(importedOutput[0]!) as Record<string, string>;
    const management = JSON.stringify(`${pkg.name}/management`);
    const requiredOutput = (
      await run(process.execPath, ["-e", `${names("require(x)")} console.log(typeof require(${management}).createManagementClient);`], { cwd: project.dir })
    ).stdout
      .trim()
      .split("\n");
    const required = JSON.parse(requiredOutput[0]!) as Record<string, string>;
    expect(Object.keys(imported)).toEqual(specifiers);
    for (const specifier of specifiers) {
      expect(imported[specifier], specifier).not.toBe("");
      expect(required[specifier], specifier).toBe(imported[specifier]);
    }
    const install = `npm install --save-dev msw@${pkg.peerDependencies.msw}`;
    expect(importedOutput[1]).toContain(install);
    expect(requiredOutput[1]).toContain(install);
    expect(requiredOutput[2]).toBe("function");
  });

  for (const resolution of ["nodenext", "node16", "bundler"] as const) {
    it(`type-checks a strict consumer with ${resolution} resolution, the package's declarations included`, () => {
      const files = resolution === "bundler" ? ["consumer.ts"] : ["consumer.ts", "consumer.cts"];
      const config = {
        compilerOptions: {
          target: "ES2022",
          module: resolution === "bundler" ? "ESNext" : resolution,
          moduleResolution: resolution,
          ...STRICT_CONSUMER,
        },
        files,
      };
      // The program `tsc -p` would make of this tsconfig.json, made in this process: three tsc processes each loaded
      // TypeScript and spent seconds checking the standard library and Node's types.
      const parsed = ts.parseJsonConfigFileContent(config, ts.sys, project.dir);
      const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host: sharingHost(parsed.options) });
      const sources = program.getSourceFiles();
      const inProject = sources.filter((source) => isInProject(source.fileName));
      expect(inProject.map((source) => path.relative(project.dir, source.fileName))).toEqual(
        expect.arrayContaining([...files, ...declarationsFor(resolution)]),
      );
      // Only the consumer and what the project installed (the package, openapi-fetch) are checked, not TypeScript's
      // libraries nor Node's types: what they hold is this repository's pick, not the package's. That leaves nothing
      // out while no installed declaration file adds to the global scope (a script, `declare global`, `declare module`),
      // which a problem in those libraries could only come from.
      const global = inProject.filter((source) => source.isDeclarationFile && (!ts.isExternalModule(source) || source.statements.some(augments)));
      expect(global.map((source) => source.fileName)).toEqual([]);
      const diagnostics = [
        ...parsed.errors,
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...sources.flatMap((source) => program.getSyntacticDiagnostics(source)),
        ...inProject.flatMap((source) => program.getSemanticDiagnostics(source)),
      ];
      expect(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => project.dir, getNewLine: () => "\n" })).toBe(
        "",
      );
    });
  }

  const env = { ...process.env, SVC_BASE_URL: mockUrl };
  const ways: [string, () => Promise<string>][] = [
    [`plain Node ${process.version} ESM (import)`, async () => (await run(process.execPath, ["consumer.mjs"], { cwd: project.dir, env })).stdout],
    [`plain Node ${process.version} CommonJS (require)`, async () => (await run(process.execPath, ["consumer.cjs"], { cwd: project.dir, env })).stdout],
    [`plain Node ${OTHER_NODE.version} ESM (import)`, async () => (await run(otherNode, ["consumer.mjs"], { cwd: project.dir, env })).stdout],
    [`plain Node ${OTHER_NODE.version} CommonJS (require)`, async () => (await run(otherNode, ["consumer.cjs"], { cwd: project.dir, env })).stdout],
    ["tsx", async () => (await run(binPath("tsx"), ["consumer.ts"], { cwd: project.dir, env })).stdout],
    [
      "an esbuild bundle",
      async () => {
        await run(binPath("esbuild"), ["consumer.ts", "--bundle", "--platform=node", "--format=esm", "--outfile=bundle.mjs", "--log-level=warning"], {
          cwd: project.dir,
        });
        return (await run(process.execPath, ["bundle.mjs"], { cwd: project.dir, env })).stdout;
      },
    ],
    [
      "a Vite build with every dependency bundled",
      async () => {
        const config = { logLevel: "warn", build: { ssr: "consumer.ts", outDir: "vite-out", emptyOutDir: true }, ssr: { noExternal: true } };
        await writeFile(path.join(project.dir, "vite.config.mjs"), `export default ${JSON.stringify(config)};\n`);
        await run(binPath("vite"), ["build"], { cwd: project.dir });
        return (await run(process.execPath, ["vite-out/consumer.js"], { cwd: project.dir, env })).stdout;
      },
    ],
  ];
  for (const [how, start] of ways) {
    it(`calls every operation against the mock under ${how}`, async () => {
      const output = await start();
      expect(JSON.parse(output.trim().split("\n").pop()!)).toEqual(expected());
    });
  }
});

/** The packaged mock command in the fresh project, on a free port, until `stop` (the --help test launches it by npx). */
const startCommand = (...options: string[]) => startPackedMock(project, ...options);

const API_KEY = { "x-svc-api-key": "sk_test_0000_not_a_real_key" };

describe("the packaged mock command (npx svc-health-mock)", () => {
  it("starts from the fresh project with Node alone and answers from the contract the package ships", async () => {
    const mock = await startCommand();
    try {
      const labs = await fetch(`${mock.url}/v3/lab_tests/labs`, { headers: API_KEY });
      expect(labs.status).toBe(200);
      expect(await labs.json()).toEqual(first("listLabs", 200));
      const refused = await fetch(`${mock.url}/v3/lab_tests/labs`);
      expect(refused.status).toBe(401);
      // The project installed no Prism (an optional peer dependency): a dynamic answer is the declared example, said so.
      const dynamic = await fetch(`${mock.url}/v3/lab_tests/labs`, { headers: { ...API_KEY, prefer: "dynamic=true" } });
      expect(dynamic.status).toBe(200);
      expect(dynamic.headers.get("x-svc-mock-dynamic-fallback")).toMatch(/Prism is not installed/);
      expect(await dynamic.json()).toEqual(first("listLabs", 200));
      const contractServed = await fetch(`${mock.url}/openapi.json`);
      expect(((await contractServed.json()) as { info: { title: string } }).info.title).toBe((contract.info as { title: string }).title);
      // The banner may reach the pipe after the port opens: read it last.
      expect(mock.output()).toContain(mock.url);
    } finally {
      mock.stop();
    }
  });

  it("carries no Prism inside: Prism is the project's own optional install, found at run time", async () => {
    const command = await readFile(path.join(project.dir, "node_modules/@svc/health-api-contract/generated/mock/cli.js"), "utf8");
    // Names only Prism's own code holds (its generator, its faker, its router's errors).
    for (const inside of ["JSONSchemaFaker", "NO_PATH_MATCHED_ERROR", "negotiateOptionsForValidRequest"]) expect(command).not.toContain(inside);
    expect(command).toContain("@stoplight/prism-http");
  });

  it("lists its options with --help, prints the package's version with --version, and refuses an unknown one in one line", async () => {
    const help = await run("npx", ["--no-install", "svc-health-mock", "--help"], { cwd: project.dir });
    expect(help.stdout).toContain("--port <port>");
    // The peer to install for dynamic answers, at the release the package pins.
    const { peerDependencies } = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    expect(peerDependencies).toMatchObject({ "@stoplight/prism-http": expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(help.stdout).toContain(`npm install --save-dev @stoplight/prism-http@${peerDependencies["@stoplight/prism-http"]}`);
    expect(help.stdout).toContain("--stateful");
    // --version: the installed package's own version (package.json, its one place).
    const version = await run(path.join(project.dir, "node_modules/.bin/svc-health-mock"), ["--version"], { cwd: project.dir });
    const installed = JSON.parse(await readFile(path.join(project.dir, "node_modules/@svc/health-api-contract/package.json"), "utf8")) as { version: string };
    expect(version.stdout.trim()).toBe(installed.version);
    // The same command npx ran, from node_modules/.bin without npx's start-up: one launch by npx is enough.
    const wrong = await run(path.join(project.dir, "node_modules/.bin/svc-health-mock"), ["--remember"], { cwd: project.dir }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.split("\n").filter((line) => line.startsWith("svc-health-mock"))).toEqual([
      "svc-health-mock: unknown option --remember (--help lists the options)",
    ]);
  });

  it("remembers each team's calls with --stateful, and /_mock/state forgets them", async () => {
    const mock = await startCommand("--stateful");
    const json = { ...API_KEY, "content-type": "application/json" };
    const create = () => fetch(`${mock.url}/v2/user`, { method: "POST", headers: json, body: JSON.stringify({ client_user_id: "packed-1" }) });
    try {
      const created = await create();
      expect(created.status).toBe(200);
      const { user_id } = (await created.json()) as { user_id: string };
      const again = await create();
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({ code: "user_already_exists", user_id });
      const reset = await fetch(`${mock.url}/_mock/state`, { method: "DELETE", headers: API_KEY });
      expect(reset.status).toBe(200);
      expect((await create()).status).toBe(200);
      // The banner may reach the pipe after the port opens: read it last.
      expect(mock.output()).toContain("stateful: remembers each team's calls");
    } finally {
      mock.stop();
    }
  });
});

describe("the packaged mock command as a validating proxy (--proxy)", () => {
  it("passes on a real server's answer as it came, naming the field that breaks the contract", async () => {
    const broken = { user_id: "not-a-uuid", client_user_id: "packed-2", created_on: "2026-02-03T14:05:00Z" };
    const upstream = await startStub((_arrival, res) => json(res, 200, broken));
    const proxy = await startCommand("--proxy", upstream.url);
    try {
      const answer = await fetch(`${proxy.url}/v2/user`, {
        method: "POST",
        headers: { ...API_KEY, "content-type": "application/json" },
        body: JSON.stringify({ client_user_id: "packed-2" }),
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-svc-contract-violations")).toBe('1; response 200: /user_id must match format "uuid"');
      expect(await answer.json()).toEqual(broken);
      expect(upstream.arrivals.map((arrival) => arrival.headers["x-svc-api-key"])).toEqual([API_KEY["x-svc-api-key"]]);
    } finally {
      proxy.stop();
      await upstream.close();
    }
  });
});

describe("the packaged mock command with Prism installed in the project (the optional peer dependency)", () => {
  let withPrism: PackedProject;
  beforeAll(async () => {
    // The release the package pins as its peer, installed by npm after the package (from the npm cache, where this
    // repository's own install put it), in a project of this file's own.
    const { peerDependencies } = JSON.parse(await readFile(path.join(repoRoot, "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    withPrism = await installPacked({ peer: `@stoplight/prism-http@${peerDependencies["@stoplight/prism-http"]}` });
  }, 300_000);
  afterAll(() => withPrism?.remove());

  it("loads it from the project on the first dynamic request and sends its invented answer when it keeps the contract", async () => {
    const mock = await startPackedMock(withPrism);
    try {
      // The banner may reach the pipe after the port opens.
      await expect.poll(() => mock.output()).toContain("Prism loads on the first Prefer: dynamic=true");
      const dynamic = await fetch(`${mock.url}/v3/lab_tests/labs`, { headers: { ...API_KEY, prefer: "dynamic=true" } });
      expect(dynamic.status).toBe(200);
      expect(dynamic.headers.get("x-svc-mock-dynamic-fallback"), mock.output()).toBeNull();
      const body: unknown = await dynamic.json();
      assertMatchesContract("listLabs", 200, body);
      expect(body).not.toEqual(first("listLabs", 200));
      expect(mock.output()).toMatch(
        /prism: loaded @stoplight\/prism-http 5\.12\.0 \(.*svc-consumer-[^/\\]+[\\/]node_modules[\\/]@stoplight[\\/]prism-http\) into this process/,
      );
    } finally {
      mock.stop();
    }
  });
});
