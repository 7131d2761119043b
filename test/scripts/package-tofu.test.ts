import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { unzipSync } from "fflate";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _zipEntries } from "../support/zip-entries";

const root = _repoRoot();
const SCRIPT = path.join(root, "scripts", "package-tofu.mjs");

type Spec = { npm: string; exe: string; codeCache: boolean };
type Steps = {
  TYPE: string;
  NAMESPACE: string;
  PROVIDER: string;
  HOSTS: string[];
  MANIFEST: unknown;
  MANIFEST_FILE: string;
  ASSET: string;
  SCRIPT_NAME: string;
  ZIP_ATTRS: number;
  zipTime(): Date;
  terraformPlatform(platform: string): string;
  executableName(version: string, platform: string): string;
  zipName(version: string, platform: string): string;
  releaseNames(version: string): { sums: string; manifest: string };
  zipExecutable(bytes: Uint8Array, name: string): Buffer;
  sha256Sums(files: string[]): string;
  writeRelease(outDir: string, version: string, zips: string[], manifestFile?: string): { sums: string; manifest: string };
  mirrorZips(mirror: string, zips: string[]): string[];
  checkTofuInputs(inputs: string[]): void;
  tofuTools(): unknown[];
  packageTofu(options?: { platforms?: string[]; outDir?: string; log?: (line: string) => void }): Promise<{ zips: string[]; sums: string; manifest: string; mirror: string[] }>;
};
type PluginSteps = {
  bundle(options?: { entry?: string; plugins?: unknown[]; check?: (inputs: string[]) => void }): Promise<{ text: string; inputs: number; files: string[] }>;
  seaMain(entry?: string): Promise<string>;
  platformSpec(platform: string): Spec;
  nodeBinary(platform: string): string;
  packageVersion(): string;
  cacheKey(input: { text: string; mainText: string; spec: Spec; node: string; version: string; tools?: unknown[] }): string;
  buildTools(): unknown[];
  cliOptions(args?: string[]): { platforms: string[]; outDir: string };
};
const load = async (): Promise<Steps> => (await import(pathToFileURL(SCRIPT).href)) as Steps;
const loadPlugin = async (): Promise<PluginSteps> => (await import(pathToFileURL(path.join(root, "scripts", "package-plugin.mjs")).href)) as PluginSteps;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** `TZ` set to `zone` while `fn` runs (Node reads it again on each change). */
function inZone<T>(zone: string, fn: () => T): T {
  const saved = process.env.TZ;
  process.env.TZ = zone;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

/**
 * scripts/package-tofu.mjs's steps in-process (issue 34, Distribution): the release's names, the zip (one
 * entry, mode 0755, a fixed time, the same bytes for the same input), SHA256SUMS and the registry
 * manifest, tofu's packed mirror layout, the bundle's checks, and the whole run from a cached zip. Building
 * the executable itself is test/package/tofu-executable.test.ts's.
 */
describe("package:tofu: the release's steps", function () {
  this.timeout(120_000);
  const tmp = _useTempDirs();

  it("names the release as Terraform's providers are released: <stem>_<v>_<os>_<arch>.zip holding <stem>_v<v>, <stem>_<v>_SHA256SUMS, <stem>_<v>_manifest.json", async () => {
    const m = await load();
    assert.equal(m.PROVIDER, "terraform-provider-dnsaccount");
    assert.equal(`${m.NAMESPACE}/${m.TYPE}`, "pulumi-dns-account/dnsaccount");
    assert.equal(m.terraformPlatform("linux-amd64"), "linux_amd64");
    assert.equal(m.terraformPlatform("linux-arm64"), "linux_arm64");
    assert.equal(m.terraformPlatform("windows-amd64"), "windows_amd64");
    assert.throws(() => m.terraformPlatform("darwin-arm64"), /no such platform: darwin-arm64 \(one of linux-amd64, linux-arm64, windows-amd64;/);
    assert.equal(m.zipName("1.2.3", "linux-arm64"), "terraform-provider-dnsaccount_1.2.3_linux_arm64.zip");
    assert.equal(m.executableName("1.2.3", "linux-amd64"), "terraform-provider-dnsaccount_v1.2.3");
    assert.equal(m.executableName("1.2.3", "windows-amd64"), "terraform-provider-dnsaccount_v1.2.3.exe");
    assert.deepEqual(m.releaseNames("1.2.3"), { sums: "terraform-provider-dnsaccount_1.2.3_SHA256SUMS", manifest: "terraform-provider-dnsaccount_1.2.3_manifest.json" });
    assert.deepEqual(m.HOSTS, ["registry.opentofu.org", "registry.terraform.io"]);
    assert.equal(m.SCRIPT_NAME, "terraform-provider-dnsaccount/tofu.js");
    assert.match(readFileSync(path.join(root, "provider", "tofu", "sea.ts"), "utf8"), /runBundle\("terraform-provider-dnsaccount\/tofu\.js", getAsset\("tofu\.js", "utf8"\), seaAsset\("tofu\.js\.cache"\)/, "the entry compiles the asset under SCRIPT_NAME");
  });

  it("the repository's terraform-registry-manifest.json says registry manifest 1, protocol 6.0; package.json runs the script as package:tofu", async () => {
    const m = await load();
    assert.equal(m.MANIFEST_FILE, path.join(root, "terraform-registry-manifest.json"));
    assert.deepEqual(JSON.parse(readFileSync(m.MANIFEST_FILE, "utf8")), { version: 1, metadata: { protocol_versions: ["6.0"] } });
    assert.deepEqual(m.MANIFEST, { version: 1, metadata: { protocol_versions: ["6.0"] } });
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    assert.equal(pkg.scripts["package:tofu"], "node scripts/package-tofu.mjs");
    assert.ok(pkg.devDependencies["fflate"], "fflate is a devDependency");
  });

  it("zipExecutable: one entry, the name given, Unix mode 0755 (regular file), deflated, 1980-01-01 00:00, no extra fields; the bytes come back", async () => {
    const m = await load();
    const bytes = Buffer.from(`#!/bin/sh\necho ${"x".repeat(5000)}\n`);
    const zip = m.zipExecutable(bytes, "terraform-provider-dnsaccount_v1.2.3");
    const entries = _zipEntries(zip);
    assert.equal(entries.length, 1);
    const [e] = entries as [ReturnType<typeof _zipEntries>[number]];
    assert.equal(e.name, "terraform-provider-dnsaccount_v1.2.3");
    assert.equal(e.madeByOs, 3, "made by Unix, so that unzippers read the mode");
    assert.equal(e.externalAttrs >>> 16, 0o100755);
    assert.equal(e.method, 8, "deflated");
    assert.ok(e.compressedSize < bytes.length);
    assert.deepEqual([e.dosDate, e.dosTime], [(0 << 9) | (1 << 5) | 1, 0], "1980-01-01 00:00:00 in DOS time");
    assert.equal(e.extraLength, 0);
    assert.ok(Buffer.from(unzipSync(zip)["terraform-provider-dnsaccount_v1.2.3"]!).equals(bytes));
  });

  it("zipExecutable: the same bytes for the same input, in any time zone; other bytes for another input", async () => {
    const m = await load();
    const bytes = Buffer.from("an executable");
    const here = m.zipExecutable(bytes, "e");
    assert.ok(here.equals(m.zipExecutable(bytes, "e")));
    for (const zone of ["UTC", "Pacific/Kiritimati", "America/Los_Angeles"]) {
      assert.ok(inZone(zone, () => m.zipExecutable(bytes, "e")).equals(here), zone);
      assert.equal(inZone(zone, () => m.zipTime().getFullYear()), 1980, zone);
    }
    assert.ok(!m.zipExecutable(Buffer.from("another executable"), "e").equals(here));
    assert.ok(!m.zipExecutable(bytes, "f").equals(here));
  });

  it("writeRelease: the manifest is the repository's file byte for byte; SHA256SUMS has one sha256sum line per zip and the manifest, sorted, which sha256sum -c accepts", async () => {
    const m = await load();
    const out = tmp("dns-account-tofu-release-");
    const zips = ["linux_arm64", "linux_amd64"].map((p, i) => {
      const file = path.join(out, `terraform-provider-dnsaccount_9.8.7_${p}.zip`);
      writeFileSync(file, m.zipExecutable(Buffer.from(`exe ${i}`), "x"));
      return file;
    });
    const { sums, manifest } = m.writeRelease(out, "9.8.7", zips);
    assert.equal(sums, path.join(out, "terraform-provider-dnsaccount_9.8.7_SHA256SUMS"));
    assert.equal(manifest, path.join(out, "terraform-provider-dnsaccount_9.8.7_manifest.json"));
    assert.ok(readFileSync(manifest).equals(readFileSync(m.MANIFEST_FILE)));
    const text = readFileSync(sums, "utf8");
    const names = ["terraform-provider-dnsaccount_9.8.7_linux_amd64.zip", "terraform-provider-dnsaccount_9.8.7_linux_arm64.zip", "terraform-provider-dnsaccount_9.8.7_manifest.json"];
    assert.equal(text, names.map((n) => `${sha(readFileSync(path.join(out, n)))}  ${n}\n`).join(""));
    const check = spawnSync("sha256sum", ["--version"], { stdio: "ignore" });
    if (check.status === 0) {
      const r = spawnSync("sha256sum", ["-c", path.basename(sums)], { cwd: out, encoding: "utf8" });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout.split("\n").filter((l) => l.endsWith(": OK")).length, 3, r.stdout);
    } else {
      console.log("      sha256sum is not here: its check of the file's format is left out");
    }
    writeFileSync(zips[0]!, "changed");
    assert.notEqual(m.sha256Sums([...zips, manifest]), text, "the sums follow the files");
  });

  it("mirrorZips: tofu's packed layout, <mirror>/<host>/pulumi-dns-account/dnsaccount/<zip>, for registry.opentofu.org and registry.terraform.io", async () => {
    const m = await load();
    const out = tmp("dns-account-tofu-mirror-");
    const zip = path.join(out, "terraform-provider-dnsaccount_9.8.7_linux_amd64.zip");
    writeFileSync(zip, m.zipExecutable(Buffer.from("exe"), "x"));
    const mirror = path.join(out, "tofu-mirror");
    const written = m.mirrorZips(mirror, [zip]);
    const expected = ["registry.opentofu.org", "registry.terraform.io"].map((h) => path.join(mirror, h, "pulumi-dns-account", "dnsaccount", path.basename(zip)));
    assert.deepEqual(written, expected);
    for (const copy of expected) assert.ok(readFileSync(copy).equals(readFileSync(zip)), copy);
    assert.deepEqual(readdirSync(mirror).sort(), ["registry.opentofu.org", "registry.terraform.io"]);
  });

  it("checkTofuInputs: the face's bundle holds its server, protocol, grpc-js and the certificate's module, and nothing of the Pulumi plugin", async () => {
    const m = await load();
    const { bundle } = await loadPlugin();
    const { files, text } = await bundle({ entry: path.join(root, "provider", "tofu", "main.ts"), plugins: [], check: m.checkTofuInputs });
    assert.ok(files.includes("provider/tofu/server.ts"));
    assert.ok(!text.startsWith("#!"));
    assert.throws(() => m.checkTofuInputs(files.filter((f) => f !== "provider/tofu/server.ts")), /the bundle lacks provider\/tofu\/server\.ts/);
    assert.throws(() => m.checkTofuInputs(files.filter((f) => f !== "provider/tofu/tls.ts")), /the bundle lacks provider\/tofu\/tls\.ts/);
    assert.throws(() => m.checkTofuInputs([...files, "provider/plugin/start.ts"]), /holds the Pulumi plugin's code: provider\/plugin\/start\.ts/);
    assert.throws(() => m.checkTofuInputs([...files, "node_modules/@pulumi/pulumi/index.js"]), /holds the Pulumi plugin's code/);
  });

  it("tofuTools: package-plugin's build tools, this script's hash and fflate's version", async () => {
    const m = await load();
    const { buildTools } = await loadPlugin();
    const fflate = (JSON.parse(readFileSync(require.resolve("fflate/package.json"), "utf8")) as { version: string }).version;
    assert.deepEqual(m.tofuTools(), [...buildTools(), sha(readFileSync(SCRIPT)), fflate]);
  });

  it("cliOptions (package-plugin's, read by both scripts): --platform a,b and --out, linux-amd64 and artifacts/ by default", async () => {
    const { cliOptions } = await loadPlugin();
    assert.deepEqual(cliOptions(["--platform", "linux-amd64,linux-arm64", "--out", "x"]), { platforms: ["linux-amd64", "linux-arm64"], outDir: path.resolve("x") });
    assert.deepEqual(cliOptions([]), { platforms: ["linux-amd64"], outDir: path.join(root, "artifacts") });
  });

  it("packageTofu takes a zip from the cache when its key (bundle, entry, Node binary, build) matches, and writes the sums, the manifest and the mirror around it", async () => {
    const m = await load();
    const p = await loadPlugin();
    const dir = tmp("dns-account-tofu-cached-");
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = path.join(dir, "cache");
    try {
      // The key the script computes for linux-amd64, from the same steps.
      const version = p.packageVersion();
      // The script's bundle: the face's static codec and schema answer inside (scripts/bundle.mjs's tofuInside).
      const { tofuInside } = (await import(pathToFileURL(path.join(root, "scripts", "bundle.mjs")).href)) as { tofuInside(): Promise<object> };
      const { text } = await p.bundle({ entry: path.join(root, "provider", "tofu", "main.ts"), plugins: [await tofuInside()], check: m.checkTofuInputs });
      const mainText = await p.seaMain(path.join(root, "provider", "tofu", "sea.ts"));
      const spec = { ...p.platformSpec("linux-amd64"), exe: m.executableName(version, "linux-amd64") };
      const key = p.cacheKey({ text, mainText, spec, node: p.nodeBinary("linux-amd64"), version, tools: m.tofuTools() });
      const cacheDir = path.join(dir, "cache", "pulumi-dns-account", "tofu-provider");
      mkdirSync(cacheDir, { recursive: true });
      const cachedBytes = m.zipExecutable(Buffer.from("the cached executable"), spec.exe);
      writeFileSync(path.join(cacheDir, `linux-amd64-${key}.zip`), cachedBytes);
      const out = path.join(dir, "artifacts");
      const lines: string[] = [];
      const r = await m.packageTofu({ platforms: ["linux-amd64"], outDir: out, log: (l) => lines.push(l) });
      const zip = path.join(out, m.zipName(version, "linux-amd64"));
      assert.deepEqual(r.zips, [zip]);
      assert.ok(readFileSync(zip).equals(cachedBytes), "the cached zip, not a new build");
      assert.equal(lines.length, 3, lines.join("\n"));
      assert.match(lines[0]!, /^bundle: \d+\.\d MiB from \d+ files in \d+ ms$/);
      assert.match(lines[1]!, /terraform-provider-dnsaccount_[^ ]+_linux_amd64\.zip: from the cache \(same bundle, Node binary and build\) in \d+ ms$/);
      assert.equal(readFileSync(r.sums, "utf8").split("\n")[0], `${sha(cachedBytes)}  ${path.basename(zip)}`);
      assert.ok(readFileSync(r.manifest).equals(readFileSync(m.MANIFEST_FILE)));
      assert.equal(r.mirror.length, 2);
      for (const copy of r.mirror) assert.ok(readFileSync(copy).equals(cachedBytes));
      assert.ok(!existsSync(path.join(out, ".build-tofu")), "the build folder is gone");
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });
});
