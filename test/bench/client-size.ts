// The client's size as a browser application meets it: a three-call application's production build by esbuild (with
// splitting, minified) and by `vite build`, the JavaScript loaded at start beside the vendor's SDK making the same calls
// and bare openapi-fetch, and what loads only later apart (in a development build, the unknown path's message; a
// production build leaves it out). Scratch projects under .tmp/bench/client-size/.
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/build/lib/paths.ts";
import { esbuildLoad, gzipTotal, type Load, viteLoad, writeApp } from "../support/first-load.ts";
import { type Figure, figure } from "./client.ts";

const run = promisify(execFile);
const scratch = path.join(repoRoot, ".tmp", "bench", "client-size");

/** The vendor's SDK, at the release the issue measured; installed on demand into its scratch project, never into package.json. */
const VENDOR = { name: "@tryvital/vital-node", version: "3.1.551" };

const USER = "3f6c2a1e-8b4d-4c2a-9e1f-5a7b8c9d0e1f";
const LAB_TEST = "5b2e8f1a-6c3d-4e7f-9a0b-2c4d6e8f0a1b";

/** The same three calls (the labs, a link token, a lab test's markers) through each client. */
const APPS: Record<string, string> = {
  client: `import { createClient } from "@svc/health-api-contract/client";
const api = createClient({ baseUrl: "https://api.svc.example", apiKey: "sk_test" });
await api.GET("/v3/lab_tests/labs");
await api.POST("/v2/link/token", { body: { user_id: "${USER}" } });
await api.GET("/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: "${LAB_TEST}" } } });
`,
  "openapi-fetch": `import createClient from "openapi-fetch";
const api = createClient({ baseUrl: "https://api.svc.example", headers: { "x-svc-api-key": "sk_test" } });
await api.GET("/v3/lab_tests/labs");
await api.POST("/v2/link/token", { body: { user_id: "${USER}" } });
await api.GET("/v3/lab_tests/{lab_test_id}/markers", { params: { path: { lab_test_id: "${LAB_TEST}" } } });
`,
  // Method names from the SDK's own declarations (dist/esm/api/resources/{labTests,link}/client/Client.d.mts).
  // Vite's own runtime, which any application that loads a module lazily carries: the modulepreload polyfill and the
  // preload helper Vite wraps every import() in.
  "lazy-module-only": `document.body.addEventListener("click", () => import("./later.js").then((later) => later.show()));
`,
  vendor: `import { VitalClient } from "${VENDOR.name}";
const vital = new VitalClient({ apiKey: "sk_test", baseUrl: "https://api.svc.example" });
await vital.labTests.getLabs();
await vital.link.token({ userId: "${USER}" });
await vital.labTests.getMarkersForLabTest("${LAB_TEST}");
`,
};

/** This package as an application installs it: node_modules/@svc/health-api-contract, a link to the repository (its exports map, its built files). */
async function linkThisPackage(dir: string): Promise<void> {
  const link = path.join(dir, "node_modules", "@svc", "health-api-contract");
  await rm(link, { recursive: true, force: true });
  await mkdir(path.dirname(link), { recursive: true });
  await symlink(repoRoot, link, "dir");
}

/** The vendor's SDK in `dir`, installed by npm unless that release is there already. */
async function installVendor(dir: string, log: (line: string) => void): Promise<void> {
  const manifest = path.join(dir, "node_modules", VENDOR.name, "package.json");
  const installed = await readFile(manifest, "utf8").then(
    (text) => (JSON.parse(text) as { version: string }).version,
    () => undefined,
  );
  if (installed === VENDOR.version) return;
  log(`client size: installing ${VENDOR.name}@${VENDOR.version} into ${path.relative(repoRoot, dir)}`);
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify({ private: true }, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", "--no-package-lock", `${VENDOR.name}@${VENDOR.version}`], {
    cwd: dir,
  });
}

async function app(name: string, log: (line: string) => void): Promise<string> {
  const dir = path.join(scratch, name);
  await writeApp(dir, APPS[name]!);
  if (name === "client") await linkThisPackage(dir);
  if (name === "lazy-module-only") await writeFile(path.join(dir, "later.js"), `export const show = () => console.log("later");\n`);
  if (name === "vendor") await installVendor(dir, log);
  return dir;
}

const files = (chunks: Load["start"]): string => chunks.map((chunk) => `${chunk.file} ${chunk.gzip} B`).join(", ") || "none";

export async function clientSizeFigures(log: (line: string) => void): Promise<Figure[]> {
  const [client, bare, vendor] = [await app("client", log), await app("openapi-fetch", log), await app("vendor", log)];
  const ours = { esbuild: await esbuildLoad(client), vite: await viteLoad(client), "esbuild, development": await esbuildLoad(client, "development") };
  const theirs = { esbuild: await esbuildLoad(vendor), vite: await viteLoad(vendor) };
  const bareLoad = await esbuildLoad(bare);
  const viteRuntime = await viteLoad(await app("lazy-module-only", log));
  for (const [tool, load] of Object.entries(ours)) log(`client size, ${tool}: at start ${files(load.start)}; lazily ${files(load.lazy)}`);
  const start = (load: Load) => gzipTotal(load.start);
  const vendorName = `${VENDOR.name} ${VENDOR.version}, same calls`;
  return [
    figure(
      "client: 3-call app, esbuild (splitting, minified), JS at start, gzip",
      start(ours.esbuild),
      "bytes",
      vendorName,
      start(theirs.esbuild),
      "<= 4600 bytes",
    ),
    figure(
      "client: 3-call app, esbuild (splitting, minified), JS at start, gzip",
      start(ours.esbuild),
      "bytes",
      "bare openapi-fetch, same calls",
      start(bareLoad),
    ),
    figure("client: 3-call app, vite build, JS at start, gzip", start(ours.vite), "bytes", vendorName, start(theirs.vite), "<= 5000 bytes"),
    figure(
      "client: 3-call app, production builds (esbuild, vite), loaded lazily, gzip",
      gzipTotal([...ours.esbuild.lazy, ...ours.vite.lazy]),
      "bytes",
      "esbuild's JS at start",
      start(ours.esbuild),
    ),
    figure(
      "client: 3-call app, esbuild development build, loaded lazily (the unknown path's message), gzip",
      gzipTotal(ours["esbuild, development"].lazy),
      "bytes",
      "its JS at start",
      start(ours["esbuild, development"]),
    ),
    figure(
      "vite build: its own runtime (an app that only loads a module lazily), JS at start, gzip",
      start(viteRuntime),
      "bytes",
      "the 3-call app's JS at start (vite build)",
      start(ours.vite),
    ),
  ];
}
