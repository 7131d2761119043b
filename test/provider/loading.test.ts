import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { startPlugin } from "../support/engine/plugin-host";
import { startProviderHost } from "../support/engine/provider-host";
import { _cleanEnv, _closeAll, _firstServerId, _repoRoot } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);

/**
 * A `--require` probe for a provider process: appends to PROBE_OUT, one JSON line each, every CommonJS
 * module the process loads (`module`), every file it reads whole (`read`) and, when it first writes to
 * stdout (`port`), which of Node's gRPC built-ins (http2, zlib, tls) it had loaded by then, so that a test
 * sees which files of the package a face loads, and in which order.
 */
const PROBE = `
const fs = require("node:fs");
const Module = require("node:module");
const out = process.env.PROBE_OUT;
const note = (kind, file) => fs.appendFileSync(out, JSON.stringify({ kind, file: String(file) }) + "\\n");
const js = Module._extensions[".js"];
Module._extensions[".js"] = function (module, filename) { note("module", filename); return js.call(this, module, filename); };
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) { if (typeof file === "string") note("read", file); return read.call(this, file, ...rest); };
const write = process.stdout.write;
let first = true;
process.stdout.write = function (...args) {
  if (first) { first = false; note("port", process.moduleLoadList.filter((m) => /^NativeModule (http2|zlib|tls)$/.test(m)).map((m) => m.slice(13)).join(",")); }
  return write.apply(this, args);
};
`;

type Seen = { modules: string[]; reads: string[] };
type Entry = { kind: string; file: string };

/** Everything the probe saw, in order. */
function entries(out: string): Entry[] {
  const lines = existsSync(out) ? readFileSync(out, "utf8").trim().split("\n").filter(Boolean) : [];
  return lines.map((l) => JSON.parse(l) as Entry);
}

/** What the probe saw before the process's first write to stdout (the port), and that write's own entry. */
function beforePort(out: string): { before: Entry[]; port: Entry } {
  const all = entries(out);
  const at = all.findIndex((e) => e.kind === "port");
  assert.ok(at >= 0, "the process wrote nothing to stdout");
  return { before: all.slice(0, at), port: all[at]! };
}

/** What the probe saw of the installed package's files (paths relative to it). */
function seen(out: string, pkgDir: string): Seen {
  const all = entries(out);
  const ours = (kind: string) => [...new Set(all.filter((e) => e.kind === kind && e.file.startsWith(pkgDir + path.sep)).map((e) => path.relative(pkgDir, e.file)))];
  return { modules: ours("module"), reads: ours("read") };
}

/**
 * Each npm face of the provider loads its bundle in one step (issue 25, "Loading"): the plugin started by
 * the npm bin, and the dynamic provider as the dynamic-provider host loads a resource's `__provider`.
 * Counted in the process itself: the modules of the package it loads besides its entry must be none.
 */
describe("loading: one bundle per face, from an npm install", function () {
  this.timeout(180_000);
  const tmp = _useTempDirs();
  let emu: Emulator;
  let program: string;
  let pkgDir: string;
  let serverId: string;
  const key = "key-LOADING-3f9a1c2e";

  before(async () => {
    emu = await startEmulator({ apiKeys: [{ key, username: "loading@example.com" }] });
    program = await _installedProgram();
    pkgDir = path.join(program, "node_modules", "pulumi-dns-account");
    serverId = await _firstServerId(emu.url, key);
  });

  after(async () => {
    await _closeAll(() => emu?.close());
  });

  const probeEnv = (dir: string): { env: NodeJS.ProcessEnv; out: string } => {
    const probe = path.join(dir, "probe.js");
    writeFileSync(probe, PROBE);
    const out = path.join(dir, "seen.jsonl");
    return { env: _cleanEnv({ NODE_OPTIONS: `--require ${probe}`, PROBE_OUT: out, DNS_ACCOUNT_CONFIG_DIR: path.join(dir, "config") }), out };
  };

  it("the npm-installed plugin: its bin and its bundle (with its code cache), no other module of the package; the rules parser only when rules are checked", async () => {
    const dir = tmp("dns-account-loading-");
    const { env, out } = probeEnv(dir);
    const plugin = await startPlugin({ programDir: program, env });
    try {
      await plugin.configureArgs({ baseUrl: emu.url, apiKey: key }, ["apiKey"]);
      await plugin.create("urn:pulumi:dev::loading::dns-account:index:Device::d", { name: "Loading", deviceType: "LINUX", dnsServerId: serverId });
      const first = seen(out, pkgDir);
      assert.deepEqual(first.modules, ["dist/provider/plugin/bin.js"]);
      assert.ok(first.reads.includes("dist/provider/plugin/plugin.bundle.js"), first.reads.join(", "));
      assert.ok(first.reads.includes("dist/provider/plugin/plugin.bundle.js.cache"), first.reads.join(", "));
      assert.deepEqual(first.reads.filter((f) => f.endsWith(".js")).sort(), ["dist/provider/plugin/bin.js", "dist/provider/plugin/plugin.bundle.js"], "no other file of the package is read as code");
      // A DnsServer with rules: the parser's bundle, loaded then and only then.
      const checked = await plugin.check("urn:pulumi:dev::loading::dns-account:index:DnsServer::s", {}, { name: "S", settings: { userRules: { rules: ["||a.example^"] } } });
      assert.deepEqual(checked.failures, []);
      assert.deepEqual(seen(out, pkgDir).modules, ["dist/provider/plugin/bin.js", "dist/provider/rules-parser.bundle.js"]);
    } finally {
      await plugin.stop();
    }
  });

  it("the plugin prints its port before it loads its gRPC server: the npm bin before reading its bundle, start() before node:http2 and the message classes", async () => {
    // The npm bin, from the install: nothing but the bin itself is read before the port.
    const dir = tmp("dns-account-loading-");
    const { env, out } = probeEnv(dir);
    const plugin = await startPlugin({ programDir: program, env });
    try {
      assert.match(await plugin.getPluginInfo(), /^\d+\.\d+\.\d+/, "it serves on the port it printed");
      const { before, port } = beforePort(out);
      const read = before.filter((e) => e.kind === "read" && e.file.startsWith(pkgDir + path.sep)).map((e) => path.relative(pkgDir, e.file));
      assert.deepEqual(read.filter((f) => f.startsWith("dist/")), ["dist/provider/plugin/bin.js"], "the bundle is read after the port is printed");
      assert.equal(port.file, "", "no gRPC built-in is loaded before the port");
      assert.ok(seen(out, pkgDir).reads.includes("dist/provider/plugin/plugin.bundle.js"), "the bundle is read once the port is out");
    } finally {
      await plugin.stop();
    }
    // start() itself, as the single executable runs it (its entry is main.ts), unbundled: the message
    // classes and grpc-js are separate modules here, so the probe sees when each loads.
    const dir2 = tmp("dns-account-loading-");
    const probe2 = probeEnv(dir2);
    const root = _repoRoot();
    const bin = path.join(dir2, "pulumi-resource-dns-account");
    writeFileSync(bin, `#!${process.execPath}\nrequire(${JSON.stringify(path.join(root, "dist", "provider", "plugin", "main.js"))});\n`, { mode: 0o755 });
    const main = await startPlugin({ programDir: root, env: probe2.env, bin });
    try {
      assert.match(await main.getPluginInfo(), /^\d+\.\d+\.\d+/, "it serves on the port it printed");
      const { before, port } = beforePort(probe2.out);
      const grpcModule = (e: Entry) => e.kind === "module" && /[\\/](@grpc[\\/]grpc-js|google-protobuf|proto)[\\/]/.test(e.file);
      assert.deepEqual(before.filter(grpcModule), [], "no module of grpc-js, google-protobuf or @pulumi/pulumi/proto loads before the port");
      assert.ok(!before.some((e) => e.kind === "module" && e.file.endsWith(`${path.sep}plugin${path.sep}server.js`)), "the server module loads after the port");
      assert.equal(port.file, "", "no gRPC built-in is loaded before the port");
      const after = entries(probe2.out);
      assert.ok(after.some((e) => e.kind === "module" && e.file.endsWith(`${path.sep}proto${path.sep}provider_pb.js`)), "the message classes load once the port is out");
    } finally {
      await main.stop();
    }
  });

  it("the dynamic host: a resource's provider.js and the dynamic bundle (with its code cache), no other module of the package", async () => {
    const dir = tmp("dns-account-loading-");
    const { env, out } = probeEnv(dir);
    const { stdout } = await _runInProgram(
      "loading-device-provider",
      `${MOCKS_PRELUDE}
const { Device } = require("pulumi-dns-account");
new Device("d", { name: "d", deviceType: "LINUX", dnsServerId: "s" });
registered((r) => r.type.endsWith(":Device") && r.inputs.__provider).then((r) => console.log(JSON.stringify(r.inputs.__provider)));`,
    );
    const provider = JSON.parse(stdout) as string;
    assert.match(provider, /require\("pulumi-dns-account\/dist\/provider\/device\/provider\.js"\)/, "the serialized provider is still a require() of provider.js");
    const host = await startProviderHost({ programDir: program, env });
    try {
      await host.configure({ "dns-account:baseUrl": emu.url, "dns-account:apiKey": key }, ["dns-account:apiKey"]);
      await host.create("urn:pulumi:dev::loading::pulumi-nodejs:dynamic/dns-account:Device::d", { __provider: provider, name: "Loading", deviceType: "LINUX", dnsServerId: serverId });
      const s = seen(out, pkgDir);
      assert.deepEqual(s.modules, ["dist/provider/device/provider.js"]);
      assert.ok(s.reads.includes("dist/provider/dynamic.bundle.js"), s.reads.join(", "));
      assert.ok(s.reads.includes("dist/provider/dynamic.bundle.js.cache"), s.reads.join(", "));
      assert.deepEqual(s.reads.filter((f) => f.endsWith(".js")).sort(), ["dist/provider/device/provider.js", "dist/provider/dynamic.bundle.js"], "no other file of the package is read as code");
    } finally {
      await host.close();
    }
  });

  it("the bundles leave nothing to run time but Node's built-ins and the rules parser, and carry a code cache this Node accepts", async () => {
    const root = _repoRoot();
    const code = `
const l = require(${JSON.stringify(path.join(root, "dist", "provider", "shared", "load-bundle.js"))});
const out = {};
for (const f of ${JSON.stringify(["plugin/plugin.bundle.js", "dynamic.bundle.js"].map((f) => path.join(root, "dist", "provider", f)))}) { l.loadBundle(f); out[f] = l.cacheUsed(f); }
console.log(JSON.stringify(out));`;
    const { stdout } = await run(process.execPath, ["-e", code]);
    for (const [file, used] of Object.entries(JSON.parse(stdout) as Record<string, boolean>)) assert.equal(used, true, file);
  });

  it("zod validators are compiled once per process, not per call; the rules parser loads only when rules are checked", async () => {
    const root = _repoRoot();
    const dist = (...p: string[]) => JSON.stringify(path.join(root, "dist", ...p));
    // zod's namespace is frozen: the child counts z.compile through a copy of the module it hands out.
    const code = `
const Module = require("node:module");
const load = Module._load;
let compiles = 0;
Module._load = function (request) {
  const m = load.apply(this, arguments);
  if (request !== "zod") return m;
  const z = { ...m.z, compile: (...a) => { compiles++; return m.z.compile(...a); } };
  return { ...m, z };
};
const device = require(${dist("provider", "device", "lifecycle.js")});
const server = require(${dist("provider", "dns-server", "lifecycle.js")});
const ctx = { config: { baseUrl: process.env.EMU, apiKey: process.env.KEY }, allowInsecureHttp: true, warn: () => undefined };
const agtree = () => Object.keys(require.cache).some((f) => f.includes("@adguard"));
(async () => {
  const counts = [];
  const { id: serverId } = await server.create(ctx, (await server.check(ctx, {}, { name: "Once" })).inputs);
  const made = async () => {
    const checked = await device.check(ctx, {}, { name: "D" + counts.length, deviceType: "LINUX", dnsServerId: serverId });
    const { id, outs } = await device.create(ctx, checked.inputs);
    await device.read(ctx, id, outs);
    await device.remove(ctx, id, outs);
  };
  await made();
  counts.push(compiles);
  for (let i = 0; i < 5; i++) await made();
  counts.push(compiles);
  const agtreeBefore = agtree();
  await server.check(ctx, {}, { name: "Rules", settings: { userRules: { rules: ["||a.example^"] } } });
  console.log(JSON.stringify({ counts, agtreeBefore, agtreeAfter: agtree() }));
})().catch((e) => { console.error(e); process.exit(1); });`;
    const { stdout } = await run(process.execPath, ["-e", code], { env: _cleanEnv({ EMU: emu.url, KEY: key, DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-loading-") }) });
    const r = JSON.parse(stdout) as { counts: number[]; agtreeBefore: boolean; agtreeAfter: boolean };
    assert.ok(r.counts[0]! > 0, "the first calls compile their validators");
    assert.equal(r.counts[1], r.counts[0], "five more devices compile nothing more");
    assert.deepEqual([r.agtreeBefore, r.agtreeAfter], [false, true]);
  });
});
