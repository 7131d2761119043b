import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _cleanEnv, _repoRoot } from "../support/helpers";
import { _engineVersion } from "../support/pulumi-cli";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const root = _repoRoot();
const sdk = path.join(root, "sdks", "nodejs");
const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

/** `git status` of sdks/nodejs, ignored files included: what an install may have written into the clone. */
/** Runs npm in `cwd`; resolves what it printed (stdout and stderr), rejects with it. */
async function npmIn(cwd: string, ...args: string[]): Promise<string> {
  try {
    const out = await run(npm, args, { cwd, env: _cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
    return `${out.stdout}\n${out.stderr}`;
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    e.message = `npm ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${(e.stderr ?? "").slice(-4000)}`;
    throw e;
  }
}

const status = (): string => execFileSync("git", ["status", "--porcelain", "--ignored", "--", "sdks/nodejs"], { cwd: root, encoding: "utf8" });

/**
 * Issue 33 §2: the Node.js SDK generated from the schema, installed from a clone as the docs say
 * (`install-links=true` in the program's .npmrc, then `npm install <clone>/sdks/nodejs`). It used to
 * hold TypeScript sources with no built JavaScript and no `main`, so
 * `require("@pulumi-dns-account/dns-account")` failed with MODULE_NOT_FOUND. It is now Pulumi's local
 * SDK (what `pulumi package gen-sdk --local` writes): `main` is bin/index.js and a postinstall script
 * compiles the sources with the typescript it depends on.
 */
describe("the Node.js SDK (sdks/nodejs) installed from a clone", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  let program: string;
  let installLog: string;
  let statusBefore: string;

  before(async () => {
    statusBefore = status();
    program = tmp("dns-account-nodejs-sdk-");
    writeFileSync(path.join(program, "package.json"), JSON.stringify({ name: "dns-account-nodejs-sdk-program", private: true }));
    // As the docs say (docs/installation-configuration.md), with @pulumi/pulumi at the engine's version;
    // the cache first, so that it works offline once warm.
    writeFileSync(path.join(program, ".npmrc"), "install-links=true\n");
    installLog = await npmIn(program, "install", "--prefer-offline", "--no-audit", "--no-fund", sdk, `@pulumi/pulumi@${_engineVersion()}`);
  });

  const installed = (): string => path.join(program, "node_modules", "@pulumi-dns-account", "dns-account");

  it("packs the sources, tsconfig.json and the postinstall script, and no build output", async () => {
    const { stdout } = await run(npm, ["pack", "--dry-run", "--json"], { cwd: sdk, env: _cleanEnv() });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const needed of ["package.json", "tsconfig.json", "scripts/postinstall.js", "index.ts", "dnsServer.ts", "types/input.ts", "utilities.ts"]) assert.ok(files.includes(needed), needed);
    assert.deepEqual(files.filter((f) => /^(bin|node_modules)\//.test(f)), []);
    const manifest = JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8")) as { main?: string; scripts: Record<string, string>; dependencies: Record<string, string> };
    assert.equal(manifest.main, "bin/index.js");
    assert.equal(manifest.scripts.postinstall, "node ./scripts/postinstall.js");
    for (const dep of ["@pulumi/pulumi", "typescript", "@types/node"]) assert.ok(manifest.dependencies[dep], `${dep} is a dependency (the postinstall compiles with it)`);
  });

  it("installs a copy, built by its postinstall: bin/ with the JavaScript, the declarations and package.json; the clone is untouched", () => {
    const dir = installed();
    assert.ok(!realpathSync(dir).startsWith(realpathSync(sdk)), "a copy, not a link to the clone");
    for (const file of ["bin/index.js", "bin/index.d.ts", "bin/dnsServer.js", "bin/device.js", "bin/types/input.d.ts", "bin/config/vars.js", "bin/package.json"]) {
      assert.ok(existsSync(path.join(dir, file)), `${file} missing; npm said:\n${installLog.slice(-3000)}`);
    }
    const dependency = (JSON.parse(readFileSync(path.join(program, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["@pulumi-dns-account/dns-account"];
    assert.match(dependency ?? "", /^file:.*sdks\/nodejs$/);
    assert.equal(status(), statusBefore, "the install wrote nothing into sdks/nodejs");
  });

  it('require("@pulumi-dns-account/dns-account") gives the resources, functions and enums, on the program\'s own @pulumi/pulumi', async () => {
    const script = `
      const dns = require("@pulumi-dns-account/dns-account");
      const utilities = require("@pulumi-dns-account/dns-account/bin/utilities");
      console.log(JSON.stringify({
        resources: ["DnsServer", "Device", "DedicatedIpv4", "Token", "Provider"].map((n) => typeof dns[n]),
        functions: ["getAccountLimits", "getFilterLists", "getWebServices", "getParentalControlCategories"].map((n) => typeof dns[n]),
        linux: dns.DeviceType.Linux,
        version: utilities.getVersion(),
        pulumi: require.resolve("@pulumi/pulumi", { paths: [require.resolve("@pulumi-dns-account/dns-account")] }),
      }));`;
    const { stdout } = await run(process.execPath, ["-e", script], { cwd: program, env: _cleanEnv() });
    const got = JSON.parse(stdout) as { resources: string[]; functions: string[]; linux: string; version: string; pulumi: string };
    assert.deepEqual(got.resources, Array(5).fill("function"));
    assert.deepEqual(got.functions, Array(4).fill("function"));
    assert.equal(got.linux, "LINUX");
    assert.equal(got.version, version, "getVersion() reads bin/package.json: the plugin version the engine starts");
    assert.equal(realpathSync(got.pulumi), realpathSync(require.resolve("@pulumi/pulumi", { paths: [program] })), "one @pulumi/pulumi: the program's");
  });

  it("a TypeScript program compiles against the installed package (types from bin/*.d.ts)", async () => {
    writeFileSync(
      path.join(program, "index.ts"),
      `import * as dns from "@pulumi-dns-account/dns-account";
const server = new dns.DnsServer("home", { name: "Home", settings: { protectionEnabled: true, blockingMode: { mode: dns.BlockingModeKind.Nxdomain } } });
export const serverId: import("@pulumi/pulumi").Output<string> = server.serverId;
export const used = dns.getAccountLimitsOutput().devices.used;
`,
    );
    writeFileSync(
      path.join(program, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es2020", module: "nodenext", moduleResolution: "nodenext", types: ["node"] }, files: ["index.ts"] }),
    );
    const tsc = path.join(program, "node_modules", "typescript", "bin", "tsc");
    const result = await run(process.execPath, [tsc, "-p", program], { cwd: program }).then(
      (r) => r.stdout,
      (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ""}${err.stderr ?? ""}` || String(err),
    );
    assert.equal(result.trim(), "");
  });

  it("a later `npm install` (as `pulumi install` runs it) builds it again from the clone, and `npm install-scripts approve` records it in allowScripts", async () => {
    rmSync(installed(), { recursive: true, force: true });
    const log = await npmIn(program, "install", "--prefer-offline", "--no-audit", "--no-fund");
    assert.ok(existsSync(path.join(installed(), "bin", "index.js")), `bin/index.js missing; npm said:\n${log.slice(-3000)}`);
    const { stdout } = await run(process.execPath, ["-e", 'console.log(typeof require("@pulumi-dns-account/dns-account").DnsServer)'], { cwd: program, env: _cleanEnv() });
    assert.equal(stdout.trim(), "function");
    const npmVersion = (await npmIn(program, "--version")).trim();
    const [major, minor] = npmVersion.split(".").map(Number) as [number, number];
    if (major < 11 || (major === 11 && minor < 16)) {
      console.log(`      (npm ${npmVersion} has no install-scripts command: the approval step is for npm 11.16 and newer)`);
      return;
    }
    await npmIn(program, "install-scripts", "approve", "@pulumi-dns-account/dns-account");
    const allow = (JSON.parse(readFileSync(path.join(program, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    assert.deepEqual(Object.entries(allow).filter(([k]) => k.endsWith("sdks/nodejs")).map(([, v]) => v), [true], JSON.stringify(allow));
  });
});
