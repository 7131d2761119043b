import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../../emulator";
import { startPlugin } from "../../support/engine/plugin-host";
import { _cleanEnv, _closeAll, _firstServerId, _repoRoot } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

const run = promisify(execFile);
const DIST = path.join(_repoRoot(), "dist", "provider");

/**
 * A `--require` probe for the plugin's process: appends to PROBE_OUT, one line each and in order, every
 * V8 flag the process sets (`flag …`) and every code cache it renames into place (`cache …`).
 */
const PROBE = `
const fs = require("node:fs");
const v8 = require("node:v8");
const out = process.env.PROBE_OUT;
const note = (line) => fs.appendFileSync(out, line + "\\n");
const set = v8.setFlagsFromString;
v8.setFlagsFromString = function (flags) { note("flag " + flags); return set.call(this, flags); };
const rename = fs.renameSync;
fs.renameSync = function (from, to) { const r = rename.call(this, from, to); if (String(to).endsWith(".cache")) note("cache " + require("node:path").basename(String(to))); return r; };
`;

/**
 * The native plugin's per-process savings (issue 35 §3, as the OpenTofu face has them): zod and the first
 * validators in the bundle's code cache (its `warm()`), and Liftoff-only WebAssembly once it serves, set
 * after the npm bin refreshed its code cache so that the next start still takes that cache.
 */
describe("the native plugin's start: zod in the code cache, Liftoff-only WebAssembly after the cache is written", function () {
  this.timeout(120_000);
  const tmp = _useTempDirs();
  let emu: Emulator;
  let serverId: string;
  const key = "key-PLUGSTART-5d2e7a91";

  before(async () => {
    emu = await startEmulator({ apiKeys: [{ key, username: "start@example.com" }] });
    serverId = await _firstServerId(emu.url, key);
  });

  after(async () => {
    await _closeAll(() => emu?.close());
  });

  it("warm() runs the first validators (../../sdk/client/warm): zod is loaded after it and not before", async () => {
    // Unbundled, zod is a module of its own: a child sees whether it was loaded before and after warm(),
    // and counts the calls of warmValidators through the module's exports, as warm() calls it.
    const probe = `
const zod = () => Object.keys(require.cache).some((f) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(f));
const warm = require(${JSON.stringify(path.join(_repoRoot(), "dist", "sdk", "client", "warm.js"))});
let calls = 0;
const original = warm.warmValidators;
warm.warmValidators = () => { calls++; return original(); };
const start = require(${JSON.stringify(path.join(DIST, "plugin", "start.js"))});
const before = zod();
start.warm();
process.stdout.write(JSON.stringify({ before, after: zod(), calls }));`;
    const { stdout } = await run(process.execPath, ["-e", probe]);
    assert.deepEqual(JSON.parse(stdout), { before: false, after: true, calls: 1 });
  });

  it("the bin and its bundle alone: the code cache the bin writes for itself is one the next start's Node accepts, and --liftoff-only is set only after it is written", async () => {
    const dir = tmp("dns-account-plugin-start-");
    // The installed layout (dist/provider/plugin/), the bundle with no cache beside it: the bin writes one.
    const alone = path.join(dir, "dist", "provider", "plugin");
    mkdirSync(alone, { recursive: true });
    for (const file of ["bin.js", "plugin.bundle.js"]) copyFileSync(path.join(DIST, "plugin", file), path.join(alone, file));
    const bin = path.join(dir, "pulumi-resource-dns-account");
    writeFileSync(bin, `#!${process.execPath}\nrequire(${JSON.stringify(path.join(alone, "bin.js"))});\n`, { mode: 0o755 });
    const probe = path.join(dir, "probe.js");
    writeFileSync(probe, PROBE);
    const out = path.join(dir, "seen.txt");
    const env = _cleanEnv({ NODE_OPTIONS: `--require ${probe}`, PROBE_OUT: out, DNS_ACCOUNT_CONFIG_DIR: path.join(dir, "config") });
    const bundle = path.join(alone, "plugin.bundle.js");

    const plugin = await startPlugin({ programDir: _repoRoot(), env, bin });
    try {
      // A working process: its requests (undici's parser, the one WebAssembly module) come after the flag.
      await plugin.configureArgs({ baseUrl: emu.url, apiKey: key }, ["apiKey"]);
      await plugin.create("urn:pulumi:dev::start::dns-account:index:Device::d", { name: "Start", deviceType: "LINUX", dnsServerId: serverId });
      // The cache and the flag come in two setImmediates queued as the server started: run long before
      // the create, which took several turns of the event loop (its requests), was answered.
    } finally {
      await plugin.stop();
    }
    assert.deepEqual(readFileSync(out, "utf8").trim().split("\n"), ["cache plugin.bundle.js.cache", "flag --liftoff-only"], "the cache is renamed into place before the flag changes, and the flag is set once");
    assert.ok(existsSync(`${bundle}.cache`), "the bin wrote a code cache beside a bundle that had none");

    // A fresh node, with no flag, compiles the bundle with that cache as the bin's next start does.
    const loader = path.join(DIST, "shared", "load-bundle.js");
    const check = `const { compileBundle } = require(${JSON.stringify(loader)}); const fs = require("node:fs");
      const s = compileBundle("x", fs.readFileSync(${JSON.stringify(bundle)}, "utf8"), fs.readFileSync(${JSON.stringify(`${bundle}.cache`)}));
      process.stdout.write(String(s.cachedDataRejected));`;
    const clean = { ...process.env };
    delete clean.NODE_OPTIONS;
    assert.equal(execFileSync(process.execPath, ["-e", check], { env: clean, encoding: "utf8" }), "false", "a fresh node rejected the cache the bin wrote");
  });
});
