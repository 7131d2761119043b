import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const root = _repoRoot();
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as Record<string, any>;

// A program as users write it: every public entry, a Token, the SDK types they handle.
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import {
  Token, getAccessToken, getClient, DnsServer, Device, DedicatedIpv4, rulesFromFile, DeviceTypeValues,
  getFilterListsOutput, getWebServicesOutput, getAccountLimitsOutput, getParentalControlCategoriesOutput,
  type BlockingModeKind, type DeviceType,
} from "pulumi-dns-account";
import { createClient, issueToken, DnsAccountError, defaultCredentialChain, TokenStore, type TokenSet, type Device as ServiceDevice } from "pulumi-dns-account/sdk";
import { startEmulator } from "pulumi-dns-account/emulator";

const token = new Token("ci", { rotationPeriodSeconds: 86_400 });
export const accessToken: pulumi.Output<string> = token.accessToken;
export const fromConfig = getAccessToken();
export const used = [getClient, createClient, issueToken, DnsAccountError, defaultCredentialChain, TokenStore, startEmulator].length;
export function describe(set: TokenSet, device: ServiceDevice): string {
  return set.tokenType + device.name;
}

// Inputs compose (issue 18 §2): the README's own credentials pattern, looked-up ids inside settings,
// Outputs at any depth, typed enums, the getXOutput lookups.
const credentials = { baseUrl: token.baseUrl, refreshToken: token.refreshToken };
const lists = getFilterListsOutput({ credentials }).apply((r) => r.filterLists.map((l) => l.filterId));
const tiktok = getWebServicesOutput().webServices.apply((ss) => ss.find((s) => s.name === "TikTok")?.id ?? "tiktok");
const home = new DnsServer("home", {
  name: pulumi.output("Home"),
  credentials,
  settings: {
    blockTtlSeconds: pulumi.output(60),
    blockingMode: { mode: "CUSTOM_IP", ipv4: pulumi.output("192.0.2.1") },
    filterLists: { ids: lists },
    blockedServices: [tiktok, "youtube"],
    userRules: { rules: rulesFromFile("rules.txt") },
    parentalControl: { schedule: { monday: { from: "08:00", to: pulumi.output("20:00") } } },
  },
});
const mode: BlockingModeKind = "NXDOMAIN";
const kind: DeviceType = "ROUTER";
// @ts-expect-error an unknown device type does not compile
const fridge: DeviceType = "FRIDGE";
const router = new Device("router", { name: "Router", deviceType: kind, dnsServerId: home.serverId, credentials: { apiKey: pulumi.secret("k") } });
new DedicatedIpv4("ip", { deviceId: router.deviceId });
export const doh = router.dnsAddresses.apply((a) => a.dnsOverHttpsUrl);
export const limits = getAccountLimitsOutput({ credentials }).devices.used;
export const categories = getParentalControlCategoriesOutput().categories.apply((cs) => cs.length);
export const values = [mode, fridge, DeviceTypeValues.length];
`;

// Pulumi's TypeScript template, 2024-04 to 2026-03 (no skipLibCheck, no esModuleInterop), and the current one.
const TEMPLATES: Record<string, Record<string, unknown>> = {
  "commonjs + node (2024-04 to 2026-03)": { module: "commonjs", moduleResolution: "node" },
  "nodenext (current)": { module: "nodenext", moduleResolution: "nodenext" },
};

describe("the npm package", function () {
  const tmp = _useTempDirs();
  this.timeout(300_000);
  let files: string[];
  let dir: string;
  let installLog: string;

  before(async () => {
    const { stdout } = await run(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    dir = tmp("dns-account-package-");
    await run(npm, ["pack", "--pack-destination", dir, "--ignore-scripts"], { cwd: root });
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "dns-account-template-program",
        private: true,
        dependencies: { "pulumi-dns-account": `file:./${tarball}`, "@pulumi/pulumi": pkg.devDependencies["@pulumi/pulumi"] },
        devDependencies: { "@types/node": pkg.devDependencies["@types/node"], typescript: pkg.devDependencies.typescript },
      }),
    );
    const out = await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, env: _cleanEnv(), maxBuffer: 16 * 1024 * 1024 });
    installLog = `${out.stdout}\n${out.stderr}`;
  });

  it("npm pack lists only what users need: compiled code, declarations, self-contained source maps, the plugin's schema, the faces' bundles with their code caches, README, LICENSE", () => {
    const allowed = /^(package\.json|README\.md|CHANGELOG\.md|LICENSE|dist\/provider\/schema\/schema\.json|dist\/provider\/(plugin\/plugin|tofu\/tofu|dynamic)\.bundle\.js\.cache|dist\/(sdk|emulator|provider|cli)\/.+\.(js|d\.ts|js\.map))$/;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), []);
    for (const needed of ["LICENSE", "README.md", "package.json", "dist/provider/index.js", "dist/sdk/index.d.ts", "dist/cli/main.js", "dist/provider/token/provider.js", "dist/provider/plugin/main.js", "dist/provider/plugin/bin.js", "dist/provider/plugin/plugin.bundle.js", "dist/provider/tofu/bin.js", "dist/provider/tofu/tofu.bundle.js", "dist/provider/dynamic.bundle.js", "dist/provider/rules-parser.bundle.js", "dist/provider/schema/schema.json"]) {
      assert.ok(files.includes(needed), needed);
    }
    // Source maps ship their sources: the .ts files themselves are not in the package.
    for (const map of files.filter((f) => f.endsWith(".map"))) {
      const m = JSON.parse(readFileSync(path.join(root, map), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      assert.equal(m.sourcesContent?.filter((s) => typeof s === "string").length, m.sources.length, map);
    }
  });

  it("package.json: license with a matching LICENSE, repository, homepage, bugs, keywords; builds in prepare (git installs, npm ci, npm pack), never on a tarball or registry install", () => {
    assert.equal(pkg.license, "MIT");
    assert.match(readFileSync(path.join(root, "LICENSE"), "utf8"), /^MIT License\n/);
    assert.match(pkg.repository?.url ?? "", /^git\+https:\/\/.+\.git$/);
    assert.match(pkg.homepage ?? "", /^https:\/\//);
    assert.match(pkg.bugs?.url ?? "", /^https:\/\//);
    assert.ok(Array.isArray(pkg.keywords) && pkg.keywords.includes("pulumi"));
    // npm runs no preinstall/install/postinstall of ours on any install; prepare runs only where the source is
    // (a git dependency, npm ci in a clone, npm pack), and npm pack would run a prepack build a second time.
    for (const hook of ["preinstall", "install", "postinstall", "prepack"]) assert.equal(pkg.scripts[hook], undefined, hook);
    assert.equal(pkg.scripts.prepare, pkg.scripts.build);
    assert.match(pkg.scripts.prepare, /\btsc\b/);
    assert.equal(pkg.engines.node, ">=20.18");
  });

  it("the packed tarball installs with no warning about this package, and its bin runs", async () => {
    const ours = installLog.split("\n").filter((l) => /warn|error/i.test(l) && /pulumi-dns-account/.test(l));
    assert.deepEqual(ours, []);
    const bin = path.join(dir, "node_modules", ".bin", "dns-account");
    assert.ok(existsSync(bin));
    const { stdout } = await run(bin, ["--version"], { env: _cleanEnv() });
    assert.equal(stdout.trim(), pkg.version);
  });

  for (const [name, options] of Object.entries(TEMPLATES)) {
    it(`a program with Pulumi's TypeScript template tsconfig compiles against it: ${name}`, async () => {
      const sub = mkdtempSync(path.join(dir, "program-"));
      writeFileSync(path.join(sub, "index.ts"), PROGRAM);
      writeFileSync(
        path.join(sub, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            outDir: "bin",
            target: "es2020",
            ...options,
            sourceMap: true,
            experimentalDecorators: true,
            pretty: false,
            noFallthroughCasesInSwitch: true,
            noImplicitReturns: true,
            forceConsistentCasingInFileNames: true,
          },
          files: ["index.ts"],
        }),
      );
      const tsc = path.join(dir, "node_modules", "typescript", "bin", "tsc");
      const result = await run(process.execPath, [tsc, "-p", sub], { cwd: sub }).then(
        (r) => r.stdout,
        (err: { stdout?: string }) => err.stdout ?? String(err),
      );
      assert.equal(result.trim(), "", result.split("\n").slice(0, 20).join("\n"));
      assert.ok(existsSync(path.join(sub, "bin", "index.js")));
    });
  }
});
