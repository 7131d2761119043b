import assert from "node:assert/strict";
import { createHash, X509Certificate } from "node:crypto";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { compileBundle } from "../../provider/shared/load-bundle";
import { mintServerCertificate, type ServerCertificate } from "../../provider/tofu/tls";
import { _repoRoot } from "../support/helpers";
import { _seaBlob, SEA_FLAGS, type SeaBlob } from "../support/sea-blob";
import { _useTempDirs } from "../support/temp";
import { _faceClients, _pluginEnv, _startFace, _tofuRelease, _unary, type StartedFace, type TofuRelease } from "../support/tofu-face";
import { _zipEntries } from "../support/zip-entries";

const root = _repoRoot();

/**
 * Issue 34, Distribution: the OpenTofu/Terraform provider's single executable as `npm run package:tofu`
 * builds it (linux-amd64, this machine's: with the code cache), built once for this suite into a fresh
 * cache folder (so that it is what the current script builds), then run from its zip as go-plugin runs
 * it, with no node on PATH.
 */
describe("package:tofu: the executable it builds", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  const started: StartedFace[] = [];
  let release: TofuRelease;
  let exePath: string;
  let exe: Buffer;
  let blob: SeaBlob;
  let cacheHome: string;
  let out: string;
  let tofuCert: ServerCertificate;

  before(async () => {
    const dir = tmp("dns-account-tofu-exe-");
    cacheHome = path.join(dir, "cache");
    out = path.join(dir, "artifacts");
    release = await _tofuRelease(out, { ...process.env, XDG_CACHE_HOME: cacheHome });
    const files = unzipSync(readFileSync(release.zip));
    const name = `terraform-provider-dnsaccount_v${release.version}`;
    assert.deepEqual(Object.keys(files), [name]);
    exePath = path.join(dir, name);
    exe = Buffer.from(files[name]!);
    writeFileSync(exePath, exe);
    // The zip's mode (checked below) is what an unzipper gives it; here it is set by hand.
    chmodSync(exePath, 0o755);
    blob = _seaBlob(exe);
    tofuCert = await mintServerCertificate(new Date(), "P-521");
  });

  afterEach(async () => {
    for (const face of started.splice(0)) {
      if (face.child.exitCode === null && face.child.signalCode === null) {
        face.child.kill("SIGKILL");
        await face.exited;
      }
    }
  });

  /** The executable started as go-plugin starts it, with no node on PATH and `extra` in the environment. */
  async function face(extra: NodeJS.ProcessEnv): Promise<StartedFace> {
    const f = await _startFace(_pluginEnv({ PATH: "/nonexistent", HOME: path.dirname(exePath), ...extra }), [exePath]);
    started.push(f);
    return f;
  }

  it("prints one line for the bundle, one for the zip (sizes in MiB, time), one for the release files, nothing on stderr; the zip is kept in the cache", () => {
    const lines = release.stdout.split("\n").filter(Boolean);
    assert.equal(lines.length, 3, release.stdout);
    assert.match(lines[0]!, /^bundle: \d+\.\d MiB from \d{3,} files in \d+ ms$/);
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const m = /: (\d+\.\d) MiB \(executable (\d+\.\d) MiB\) in \d+ ms$/.exec(lines[1]!);
    assert.ok(m && lines[1]!.includes(path.basename(release.zip)), lines[1]);
    assert.equal(m[1], mib(statSync(release.zip).size));
    assert.equal(m[2], mib(exe.length));
    assert.match(lines[2]!, /_SHA256SUMS, terraform-provider-dnsaccount_.*_manifest\.json and .*tofu-mirror\/ \(registry\.opentofu\.org, registry\.terraform\.io\)$/);
    assert.equal(release.stderr, "");
    const cached = readdirSync(path.join(cacheHome, "pulumi-dns-account", "tofu-provider"));
    assert.equal(cached.length, 1, cached.join(", "));
    assert.match(cached[0]!, /^linux-amd64-[0-9a-f]{16}\.zip$/);
    assert.ok(readFileSync(path.join(cacheHome, "pulumi-dns-account", "tofu-provider", cached[0]!)).equals(readFileSync(release.zip)));
  });

  it("a second run takes the zip from the cache: the same bytes, the sums and the mirror written again", async () => {
    const again = await _tofuRelease(path.join(path.dirname(out), "again"), { ...process.env, XDG_CACHE_HOME: cacheHome });
    assert.match(again.stdout.split("\n")[1]!, /_linux_amd64\.zip: from the cache \(same bundle, Node binary and build\) in \d+ ms$/);
    assert.ok(readFileSync(again.zip).equals(readFileSync(release.zip)));
    assert.ok(readFileSync(again.sums).equals(readFileSync(release.sums)));
  });

  it("the zip holds the executable alone, mode 0755, made by Unix; SHA256SUMS holds its hash; the mirror holds it for both registries", () => {
    const [entry, ...rest] = _zipEntries(readFileSync(release.zip));
    assert.equal(rest.length, 0);
    assert.equal(entry!.name, `terraform-provider-dnsaccount_v${release.version}`);
    assert.equal(entry!.externalAttrs >>> 16, 0o100755);
    assert.equal(entry!.madeByOs, 3);
    const sums = readFileSync(release.sums, "utf8");
    const zipHash = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    assert.ok(sums.includes(`${zipHash(release.zip)}  ${path.basename(release.zip)}\n`), sums);
    assert.ok(sums.includes(`${zipHash(release.manifest)}  ${path.basename(release.manifest)}\n`), sums);
    for (const host of ["registry.opentofu.org", "registry.terraform.io"]) {
      assert.ok(readFileSync(path.join(release.mirror, host, "pulumi-dns-account", "dnsaccount", path.basename(release.zip))).equals(readFileSync(release.zip)), host);
    }
  });

  it("without tofu's magic cookie it exits 1, says on stderr that it is a plugin, and prints nothing on stdout", async () => {
    const f = await face({ TF_PLUGIN_MAGIC_COOKIE: "" });
    assert.equal(await f.exited, 1);
    assert.equal(f.stdout(), "");
    assert.match(f.stderr(), /is a plugin of OpenTofu and Terraform, not a program to run by hand/);
  });

  it("with the cookie and PLUGIN_PROTOCOL_VERSIONS=6: the handshake line first (protocol 6, its certificate), GetProviderSchema over mTLS, Shutdown ends it, nothing else on stdout", async () => {
    const f = await face({ PLUGIN_PROTOCOL_VERSIONS: "6", PLUGIN_CLIENT_CERT: tofuCert.certPem });
    assert.equal(f.fields.length, 6, `handshake line: ${f.fields.join("|")}; stderr:\n${f.stderr()}`);
    const [core, app, network, address, protocol, cert] = f.fields as [string, string, string, string, string, string];
    assert.deepEqual([core, app, network, protocol], ["1", "6", "tcp", "grpc"]);
    assert.match(address, /^127\.0\.0\.1:\d+$/);
    assert.equal(new X509Certificate(Buffer.from(cert, "base64")).subjectAltName, "DNS:localhost");
    const c = _faceClients(f, tofuCert);
    const schema = await _unary(c.provider, "GetProviderSchema");
    assert.deepEqual(schema.diagnostics, []);
    assert.ok(Object.keys(schema.resource_schemas as object).includes("dnsaccount_dns_server"));
    await _unary(c.controller, "Shutdown");
    assert.equal(await f.exited, 0);
    assert.equal(f.stdout(), `${f.fields.join("|")}\n`, "the handshake line and nothing else on stdout");
    for (const client of Object.values(c)) client.close();
  });

  it("SIGTERM ends it (plain gRPC under TF_DISABLE_PLUGIN_TLS: an empty certificate field)", async () => {
    const f = await face({ PLUGIN_PROTOCOL_VERSIONS: "6", TF_DISABLE_PLUGIN_TLS: "1" });
    assert.equal(f.fields.length, 6, f.stderr());
    assert.equal(f.fields[5], "");
    f.child.kill("SIGTERM");
    assert.equal(await f.exited, null);
    assert.equal(f.child.signalCode, "SIGTERM", "Node's default: the signal ends the process");
    assert.equal(f.stdout(), `${f.fields.join("|")}\n`);
  });

  it("holds the face's code and V8's code cache of it as assets, which this Node accepts under the name provider/tofu/sea.ts compiles it by; the entry has its code cache too", () => {
    assert.deepEqual([...blob.assets.keys()].sort(), ["tofu.js", "tofu.js.cache"]);
    assert.ok(blob.flags & SEA_FLAGS.useCodeCache);
    assert.ok(blob.flags & SEA_FLAGS.disableWarning);
    const script = compileBundle("terraform-provider-dnsaccount/tofu.js", blob.assets.get("tofu.js")!.toString("utf8"), blob.assets.get("tofu.js.cache"));
    assert.equal(script.cachedDataRejected, false);
    assert.ok(blob.assets.get("tofu.js.cache")!.length > 100_000, `a code cache of the face's code, not ${blob.assets.get("tofu.js.cache")!.length} bytes`);
    assert.doesNotMatch(blob.assets.get("tofu.js")!.toString("utf8"), /pulumi-resource-dns-account/, "nothing that names the Pulumi plugin's executable (its bundle does)");
  });

  it("carries no absolute path of the build machine: not the checkout's, not the build folder's, not the user's home", () => {
    assert.ok(!path.isAbsolute(blob.codePath), `the entry's path in the blob: ${blob.codePath}`);
    const needles = [root, out, "/.build-tofu/"];
    if (os.homedir() !== "/") needles.push(`${os.homedir()}/`);
    for (const needle of needles) assert.equal(exe.indexOf(needle), -1, `the executable holds "${needle}"`);
  });
});
