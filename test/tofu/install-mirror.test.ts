import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { unzipSync } from "fflate";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuBin, _tofuEnv, _tofuMissing } from "../support/tofu-cli";
import { _sharedTofuRelease, type TofuRelease } from "../support/tofu-face";

const run = promisify(execFile);

/**
 * Go's dirhash.Hash1 of a zip's files, the `h1:` hash tofu records in `.terraform.lock.hcl`: SHA-256 of
 * the lines `<sha256 hex>  <name>\n`, sorted by name, in base64.
 */
function h1(zip: Buffer): string {
  const files = unzipSync(zip);
  const lines = Object.keys(files)
    .sort()
    .map((name) => `${createHash("sha256").update(files[name]!).digest("hex")}  ${name}\n`)
    .join("");
  return `h1:${createHash("sha256").update(lines).digest("base64")}`;
}

/** The `hashes` of the lock file's entry for `address`. */
function lockedHashes(lock: string, address: string): { version: string; hashes: string[] } {
  const block = new RegExp(`provider "${address.replace(/[.]/g, "\\.")}" \\{([\\s\\S]*?)\\n\\}`).exec(lock);
  assert.ok(block, `no entry for ${address} in:\n${lock}`);
  const version = /version\s*=\s*"([^"]+)"/.exec(block[1]!)?.[1] ?? "";
  const hashes = [...(/hashes\s*=\s*\[([\s\S]*?)\]/.exec(block[1]!)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  return { version, hashes };
}

/**
 * Issue 34, Distribution: the release as tofu installs it. `npm run package:tofu`'s packed filesystem mirror,
 * named in a CLI configuration of the test's own, installs the provider under its registry address at
 * package.json's version with the real `tofu init` (no network: the mirror is the only installation
 * method); the lock file records the zip's `h1:`, and a lock file holding the `zh:` a registry records
 * (SHA256SUMS' line) is honoured, a wrong one refused; `tofu validate` runs the installed executable.
 */
describe("tofu: the release zip installed from a filesystem mirror", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  let release: TofuRelease;
  let tofu: string;

  before(async () => {
    _failWithoutTofu(_tofuMissing());
    tofu = path.join(_tofuBin(), "tofu");
    // The release the other tofu suites of this process install too (built by the first of them to ask).
    release = await _sharedTofuRelease();
  });

  /** A configuration folder requiring the provider from `host` at the release's version, with `body`, and its environment. */
  function project(host: string, body: string): { dir: string; env: NodeJS.ProcessEnv } {
    const root = tmp("dns-account-tofu-mirror-");
    const dir = path.join(root, "config");
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, "main.tf"),
      `terraform {\n  required_providers {\n    dnsaccount = {\n      source  = "${host}/pulumi-dns-account/dnsaccount"\n      version = "${release.version}"\n    }\n  }\n}\n\nprovider "dnsaccount" {\n  base_url = "http://127.0.0.1:9"\n}\n${body}`,
    );
    const env = _tofuEnv(root, `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(release.mirror)}\n  }\n}\n`);
    return { dir, env };
  }

  const DNS_SERVER = `\nresource "dnsaccount_dns_server" "home" {\n  name = "Home"\n  settings {\n    block_ttl_seconds = 60\n  }\n}\n`;

  it("tofu init installs registry.opentofu.org/pulumi-dns-account/dnsaccount at package.json's version, executable, and locks the zip's h1:; tofu validate passes", async () => {
    const { dir, env } = project("registry.opentofu.org", DNS_SERVER);
    const init = await run(tofu, ["init", "-no-color"], { cwd: dir, env });
    assert.match(init.stdout, new RegExp(`Installed pulumi-dns-account/dnsaccount v${release.version.replace(/\./g, "\\.")}`), init.stdout);
    const installed = path.join(dir, ".terraform", "providers", "registry.opentofu.org", "pulumi-dns-account", "dnsaccount", release.version, "linux_amd64", `terraform-provider-dnsaccount_v${release.version}`);
    assert.equal(statSync(installed).mode & 0o777, 0o755, "the zip's mode, kept by tofu's unzipping");
    const lock = lockedHashes(readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8"), "registry.opentofu.org/pulumi-dns-account/dnsaccount");
    assert.equal(lock.version, release.version);
    // From a filesystem mirror tofu can vouch for the package's contents only (h1:); a registry adds the zh: of SHA256SUMS.
    assert.deepEqual(lock.hashes, [h1(readFileSync(release.zip))]);
    const validate = await run(tofu, ["validate", "-no-color"], { cwd: dir, env });
    assert.match(validate.stdout, /Success! The configuration is valid\./);
  });

  it("tofu validate reads the installed executable's schema: an attribute it does not have is refused", async () => {
    const { dir, env } = project("registry.opentofu.org", `\nresource "dnsaccount_dns_server" "home" {\n  name     = "Home"\n  nonsense = 1\n}\n`);
    await run(tofu, ["init", "-no-color"], { cwd: dir, env });
    const validate = await run(tofu, ["validate", "-no-color"], { cwd: dir, env }).then(
      () => assert.fail("validate passed"),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.equal(validate.code, 1);
    assert.match(`${validate.stdout}${validate.stderr}`, /An argument named "nonsense" is not expected here/);
  });

  it("a lock file holding the zh: a registry records (the zip's SHA256SUMS line) is honoured, h1: added; a wrong zh: is refused", async () => {
    const name = path.basename(release.zip);
    const zh = readFileSync(release.sums, "utf8")
      .split("\n")
      .find((l) => l.endsWith(`  ${name}`))!
      .split("  ")[0]!;
    assert.equal(zh, createHash("sha256").update(readFileSync(release.zip)).digest("hex"));
    const lockFile = (hash: string) =>
      `provider "registry.opentofu.org/pulumi-dns-account/dnsaccount" {\n  version     = "${release.version}"\n  constraints = "${release.version}"\n  hashes = [\n    "zh:${hash}",\n  ]\n}\n`;

    const good = project("registry.opentofu.org", DNS_SERVER);
    writeFileSync(path.join(good.dir, ".terraform.lock.hcl"), lockFile(zh));
    await run(tofu, ["init", "-no-color"], { cwd: good.dir, env: good.env });
    const lock = lockedHashes(readFileSync(path.join(good.dir, ".terraform.lock.hcl"), "utf8"), "registry.opentofu.org/pulumi-dns-account/dnsaccount");
    assert.deepEqual(lock.hashes.sort(), [h1(readFileSync(release.zip)), `zh:${zh}`].sort());

    const bad = project("registry.opentofu.org", DNS_SERVER);
    writeFileSync(path.join(bad.dir, ".terraform.lock.hcl"), lockFile(`${zh.slice(0, -4)}0000`));
    const refused = await run(tofu, ["init", "-no-color"], { cwd: bad.dir, env: bad.env }).then(
      () => assert.fail("init passed"),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    assert.match(`${refused.stdout}${refused.stderr}`.replace(/\s+/g, " "), /doesn't match any of the checksums previously recorded in the dependency lock file/);
  });

  it("the mirror serves the registry.terraform.io address too (terraform's default host)", async () => {
    const { dir, env } = project("registry.terraform.io", DNS_SERVER);
    const init = await run(tofu, ["init", "-no-color"], { cwd: dir, env });
    assert.match(init.stdout, /Installed registry\.terraform\.io\/pulumi-dns-account\/dnsaccount v/, init.stdout);
    const lock = lockedHashes(readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8"), "registry.terraform.io/pulumi-dns-account/dnsaccount");
    assert.deepEqual(lock.hashes, [h1(readFileSync(release.zip))]);
    assert.match((await run(tofu, ["validate", "-no-color"], { cwd: dir, env })).stdout, /Success!/);
  });
});
