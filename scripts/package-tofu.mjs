// Builds the OpenTofu/Terraform provider (issue 34, Distribution) as a provider registry releases it: for
// each platform, one self-contained executable `terraform-provider-dnsaccount_v<version>` (Node's single
// executable application, built by scripts/package-plugin.mjs's steps: a small entry, provider/tofu/sea.ts,
// which prints the handshake line first (provider/tofu/announce.ts), and an esbuild bundle of
// provider/tofu/main.ts as its asset `tofu.js`, with V8's code cache of it where this machine's Node is
// the executable's), zipped alone, and beside the zips what a registry reads:
//
//   artifacts/terraform-provider-dnsaccount_<v>_<os>_<arch>.zip      the executable, mode 0755, fixed time
//   artifacts/terraform-provider-dnsaccount_<v>_manifest.json        terraform-registry-manifest.json
//   artifacts/terraform-provider-dnsaccount_<v>_SHA256SUMS           `sha256sum` lines of the zips and the manifest
//   artifacts/tofu-mirror/<host>/pulumi-dns-account/dnsaccount/<zip>  a filesystem mirror in tofu's packed layout,
//                                                                    for registry.opentofu.org and registry.terraform.io
//
//   node scripts/package-tofu.mjs [--platform linux-amd64,linux-arm64,windows-amd64] [--out artifacts]
//
// Platforms are named as package-plugin names them (linux-amd64) and written as Terraform names them
// (linux_amd64); darwin is not built, for the reason package-plugin gives. `npm run build` first (the code
// cache is made with the built loader). A zip built from the same bundle, entry, Node binary and build is
// taken from the cache folder ${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account/tofu-provider (the last one of
// each platform is kept). The zip is the same bytes for the same executable: one entry, its time fixed
// (1980-01-01 00:00, DOS time, whatever the build machine's time zone), Unix mode 0755, no extra fields.
//
// A registry release signs the SHA256SUMS file: `--sign-key <fingerprint>` makes the detached
// `<stem>_<v>_SHA256SUMS.sig` with that key of the release machine's GnuPG keyring (a key made for releases;
// its passphrase, if any, from GPG_PASSPHRASE, never an argument). Without it nothing is signed. The key
// and its passphrase are the release's secrets and never in the repository (docs/opentofu.md).
//
// One executable per face: the Pulumi plugin and this provider are separate executables (their names,
// their downloads and their code are separate; each carries only its own face's bundle).
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync } from "fflate";
import { tofuInside } from "./bundle.mjs";
import { buildExecutable, buildTools, bundle, cacheKey, cacheRoot, cliOptions, nodeBinary, packageVersion, platformSpec, seaMain, sha256, storeInCache } from "./package-plugin.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/** The provider's type (the resources' prefix) and its registry namespace: `<namespace>/<type>` is its address. */
export const TYPE = "dnsaccount";
export const NAMESPACE = "pulumi-dns-account";
/** The executable's and the release files' stem. */
export const PROVIDER = `terraform-provider-${TYPE}`;
/** The registry hosts whose address the mirror serves the provider under. */
export const HOSTS = ["registry.opentofu.org", "registry.terraform.io"];
/** The repository's terraform-registry-manifest.json, released as `<stem>_<version>_manifest.json`. */
export const MANIFEST_FILE = path.join(root, "terraform-registry-manifest.json");
/** What the manifest says: registry manifest version 1, plugin protocol 6.0 only. */
export const MANIFEST = { version: 1, metadata: { protocol_versions: ["6.0"] } };
/** The face's code in the executable, and the name provider/tofu/sea.ts compiles it under. */
export const ASSET = "tofu.js";
export const SCRIPT_NAME = `${PROVIDER}/${ASSET}`;
/**
 * The zip entry's time, 1980-01-01 00:00 (the earliest a zip's DOS time can say): made from local fields
 * when it is written, as fflate writes it from local fields, so that no time zone moves it.
 *
 * @example
 * zipTime().getFullYear(); // 1980, in any time zone
 */
export function zipTime() {
  return new Date(1980, 0, 1, 0, 0, 0);
}
/** The zip entry's external attributes: a regular file, rwxr-xr-x, in the upper half (the Unix "made by"). */
export const ZIP_ATTRS = ((0o100000 | 0o755) << 16) >>> 0;

/**
 * A platform in Terraform's words (`linux_amd64`) from package-plugin's (`linux-amd64`); throws on one
 * this script does not build.
 *
 * @example
 * terraformPlatform("windows-amd64"); // "windows_amd64"
 */
export function terraformPlatform(platform) {
  platformSpec(platform);
  return platform.replace("-", "_");
}

/**
 * The executable's name inside the zip, as Terraform's provider releases name it.
 *
 * @example
 * executableName("0.2.0", "linux-amd64"); // "terraform-provider-dnsaccount_v0.2.0"
 */
export function executableName(version, platform) {
  return `${PROVIDER}_v${version}${platform.startsWith("windows") ? ".exe" : ""}`;
}

/**
 * The release zip's name for a version and platform, the name a registry and tofu's packed mirror expect.
 *
 * @example
 * zipName("0.2.0", "linux-arm64"); // "terraform-provider-dnsaccount_0.2.0_linux_arm64.zip"
 */
export function zipName(version, platform) {
  return `${PROVIDER}_${version}_${terraformPlatform(platform)}.zip`;
}

/**
 * The names of the release's checksum file and manifest for a version.
 *
 * @example
 * releaseNames("0.2.0"); // { sums: "terraform-provider-dnsaccount_0.2.0_SHA256SUMS", manifest: "terraform-provider-dnsaccount_0.2.0_manifest.json" }
 */
export function releaseNames(version) {
  return { sums: `${PROVIDER}_${version}_SHA256SUMS`, manifest: `${PROVIDER}_${version}_manifest.json` };
}

/**
 * The zip of the executable `bytes` as the one entry `name`: deflated, Unix mode 0755, {@link zipTime};
 * the same bytes for the same input.
 *
 * @example
 * writeFileSync(zip, zipExecutable(readFileSync(exe), executableName("0.2.0", "linux-amd64")));
 */
export function zipExecutable(bytes, name) {
  return Buffer.from(zipSync({ [name]: [bytes, { level: 6, mtime: zipTime(), os: 3, attrs: ZIP_ATTRS }] }));
}

/**
 * The `sha256sum` text of `files` (`<hex>  <file name>`), one line each, sorted by name as release
 * tools sort it.
 *
 * @example
 * sha256Sums([zip, manifest]); // "3a…  terraform-provider-dnsaccount_0.2.0_linux_amd64.zip\n…"
 */
export function sha256Sums(files) {
  const lines = files.map((f) => [path.basename(f), sha256(f)]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return lines.map(([name, hash]) => `${hash}  ${name}\n`).join("");
}

/**
 * Writes the release's manifest (the repository's terraform-registry-manifest.json, byte for byte) and
 * SHA256SUMS (of `zips` and the manifest) into `outDir`; returns their paths.
 *
 * @example
 * const { sums, manifest } = writeRelease(outDir, "0.2.0", zips);
 */
export function writeRelease(outDir, version, zips, manifestFile = MANIFEST_FILE) {
  const names = releaseNames(version);
  const manifest = path.join(outDir, names.manifest);
  copyFileSync(manifestFile, manifest);
  const sums = path.join(outDir, names.sums);
  writeFileSync(sums, sha256Sums([...zips, manifest]));
  return { sums, manifest };
}

/**
 * Copies `zips` into the filesystem mirror `mirror` in tofu's packed layout,
 * `<host>/<namespace>/<type>/<zip>` for each of {@link HOSTS}; returns the copies' paths.
 *
 * @example
 * mirrorZips(path.join(outDir, "tofu-mirror"), zips);
 * // CLI configuration: provider_installation { filesystem_mirror { path = "<outDir>/tofu-mirror" } }
 */
export function mirrorZips(mirror, zips) {
  const written = [];
  for (const host of HOSTS) {
    const dir = path.join(mirror, host, NAMESPACE, TYPE);
    mkdirSync(dir, { recursive: true });
    for (const zip of zips) {
      const copy = path.join(dir, path.basename(zip));
      copyFileSync(zip, copy);
      written.push(copy);
    }
  }
  return written;
}

/**
 * Fails unless the bundle's `inputs` hold what the face loads at run time (its server, the protocol's
 * descriptor, grpc-js, the certificate's module) and nothing of the Pulumi plugin's: the faces share no code.
 *
 * @example
 * checkTofuInputs(Object.keys(result.metafile.inputs));
 */
export function checkTofuInputs(inputs) {
  const holds = (file) => inputs.some((i) => i === file || i.endsWith(`/${file}`));
  for (const needed of ["provider/tofu/main.ts", "provider/tofu/server.ts", "provider/tofu/protocol.ts", "node_modules/@grpc/grpc-js/build/src/server.js", "provider/tofu/tls.ts"]) {
    if (!holds(needed)) throw new Error(`the bundle lacks ${needed}`);
  }
  const plugin = inputs.filter((i) => /(^|\/)provider\/plugin\//.test(i) || /(^|\/)node_modules\/@pulumi\/pulumi\//.test(i));
  if (plugin.length) throw new Error(`the OpenTofu face's bundle holds the Pulumi plugin's code: ${plugin.join(", ")}`);
}

/**
 * Fails unless the face's bundle was built with scripts/bundle.mjs's `tofuInside` (issue 35 §3): its
 * messages' static code and the build's GetProviderSchema answer and schema inside, never the run-time
 * codec or the empty ./schema-embedded.
 *
 * @example
 * checkTofuBuilt(Object.keys(result.metafile.inputs));
 */
export function checkTofuBuilt(inputs) {
  const holds = (file) => inputs.some((i) => i === file || i.endsWith(`/${file}`));
  for (const needed of ["provider/tofu/codec-static.ts", "tofu-built:codec", "tofu-built:protocol-static", "tofu-built:schema-embedded"]) {
    if (!holds(needed)) throw new Error(`the bundle lacks ${needed} (built without tofuInside)`);
  }
  const runtime = inputs.filter((i) => /(^|\/)provider\/tofu\/(codec|schema-embedded)\.ts$/.test(i));
  if (runtime.length) throw new Error(`the OpenTofu face's bundle holds the run-time codec: ${runtime.join(", ")}`);
}

/**
 * What builds a zip besides package-plugin's {@link buildTools}: this script and fflate's version; a
 * change to either builds anew.
 */
export function tofuTools() {
  const fflate = JSON.parse(readFileSync(require.resolve("fflate/package.json"), "utf8")).version;
  return [...buildTools(), sha256(fileURLToPath(import.meta.url)), fflate];
}

/**
 * Builds the zip of each platform, the manifest, SHA256SUMS and the mirror into `outDir`; resolves their
 * paths.
 *
 * @param {{ platforms?: string[], outDir?: string, log?: (line: string) => void }} [options]
 */
export async function packageTofu({ platforms = ["linux-amd64"], outDir = path.join(root, "artifacts"), log = console.log } = {}) {
  const version = packageVersion();
  const specs = platforms.map((platform) => [platform, { ...platformSpec(platform), exe: executableName(version, platform) }]);
  mkdirSync(outDir, { recursive: true });
  const work = path.join(outDir, ".build-tofu");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const started = Date.now();
  const { text, inputs } = await bundle({ entry: path.join(root, "provider", "tofu", "main.ts"), plugins: [await tofuInside()], check: (inputs) => (checkTofuInputs(inputs), checkTofuBuilt(inputs)) });
  writeFileSync(path.join(work, ASSET), text);
  const mainText = await seaMain(path.join(root, "provider", "tofu", "sea.ts"));
  writeFileSync(path.join(work, "sea.js"), mainText);
  log(`bundle: ${(text.length / 1024 / 1024).toFixed(1)} MiB from ${inputs} files in ${Date.now() - started} ms`);
  const zips = [];
  const cacheDir = path.join(cacheRoot(), "tofu-provider");
  const tools = tofuTools();
  try {
    for (const [platform, spec] of specs) {
      const t0 = Date.now();
      const zip = path.join(outDir, zipName(version, platform));
      const node = nodeBinary(platform);
      const cached = path.join(cacheDir, `${platform}-${cacheKey({ text, mainText, spec, node, version, tools })}.zip`);
      zips.push(zip);
      if (existsSync(cached)) {
        copyFileSync(cached, zip);
        log(`${path.relative(process.cwd(), zip)}: from the cache (same bundle, Node binary and build) in ${Date.now() - t0} ms`);
        continue;
      }
      const dir = path.join(work, platform);
      mkdirSync(dir);
      const exe = buildExecutable({ work, dir, node, spec, asset: ASSET, scriptName: SCRIPT_NAME });
      writeFileSync(zip, zipExecutable(readFileSync(exe), spec.exe));
      storeInCache(cacheDir, platform, zip, cached);
      log(`${path.relative(process.cwd(), zip)}: ${(statSync(zip).size / 1024 / 1024).toFixed(1)} MiB (executable ${(statSync(exe).size / 1024 / 1024).toFixed(1)} MiB) in ${Date.now() - t0} ms`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const { sums, manifest } = writeRelease(outDir, version, zips);
  const mirror = mirrorZips(path.join(outDir, "tofu-mirror"), zips);
  log(`${path.relative(process.cwd(), sums)}, ${path.basename(manifest)} and ${path.relative(process.cwd(), path.join(outDir, "tofu-mirror"))}/ (${HOSTS.join(", ")})`);
  return { zips, sums, manifest, mirror };
}

/** A GPG key's fingerprint (or long key id): what `--sign-key` takes. */
const FINGERPRINT = /^[0-9A-Fa-f]{16,40}$/;

/**
 * Signs `sums` as the registries want it: a binary detached signature beside it (`<sums>.sig`), made by
 * `gpg` with the key `keyId` (a fingerprint) of the keyring `GNUPGHOME` names. The passphrase, if the key has
 * one, goes to gpg on its standard input, never as an argument (which `ps` shows). Resolves the `.sig` path.
 *
 * @param {string} sums
 * @param {{ keyId: string, passphrase?: string, gpg?: string, env?: NodeJS.ProcessEnv }} options
 */
export function signSums(sums, { keyId, passphrase, gpg = "gpg", env = process.env }) {
  if (!FINGERPRINT.test(keyId)) throw new Error("--sign-key must be the key's fingerprint (16 to 40 hex digits)");
  const sig = `${sums}.sig`;
  rmSync(sig, { force: true });
  const args = ["--batch", "--yes", "--no-tty", "--local-user", keyId, "--detach-sign", "--output", sig];
  if (passphrase !== undefined) args.splice(3, 0, "--pinentry-mode", "loopback", "--passphrase-fd", "0");
  execFileSync(gpg, [...args, sums], { env, input: passphrase ?? "", stdio: ["pipe", "ignore", "pipe"] });
  return sig;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { platforms, outDir } = cliOptions();
  const at = process.argv.indexOf("--sign-key");
  const keyId = at >= 0 ? (process.argv[at + 1] ?? "") : undefined;
  if (keyId !== undefined && !FINGERPRINT.test(keyId)) {
    console.error("package:tofu: --sign-key must be the key's fingerprint (16 to 40 hex digits)");
    process.exit(2);
  }
  packageTofu({ platforms, outDir })
    .then(({ sums }) => {
      if (keyId === undefined) return;
      const sig = signSums(sums, { keyId, passphrase: process.env.GPG_PASSPHRASE });
      console.log(`${path.relative(process.cwd(), sig)}: signed by ${keyId}`);
    })
    .catch((err) => {
      console.error(`package:tofu: ${err.message}`);
      process.exit(1);
    });
}
