// The release's assets, built and listed; nothing is uploaded.
//
//   node scripts/release.mjs --dry-run [--platform linux-amd64,...] [--out artifacts]
//
// Builds every asset into the output folder (default artifacts/): the plugin tarball of each platform
// (scripts/package-plugin.mjs; default every platform it can build), the npm tarball (`npm pack`), and
// `pulumi-dns-account_<version>_checksums.txt` (SHA-256, as `sha256sum` prints it). Then prints the
// GitHub release they belong to, tag v<version> of the repository that the schema's pluginDownloadURL
// (`github://api.github.com/<owner>/<repo>`) names, where the engine looks for
// `pulumi-resource-dns-account-v<version>-<os>-<arch>.tar.gz`, and one "would upload" line per asset.
// Uploading itself needs the repository's token and is not done by this script (it refuses without
// --dry-run).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EXECUTABLE, PLATFORMS, packagePlugin, packageVersion, sha256 } from "./package-plugin.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

/**
 * The release of `files` (asset paths): its tag, repository and assets, checked against the
 * conventions the engine relies on. Throws when the schema's pluginDownloadURL does not name the
 * package's repository, or an asset's name is not one the release may carry.
 *
 * @param {{ version: string, repositoryUrl: string, pluginDownloadURL: string, files: string[] }} input
 */
export function releasePlan({ version, repositoryUrl, pluginDownloadURL, files }) {
  const m = /github\.com[/:]([^/]+)\/([^/.]+?)(\.git)?$/.exec(repositoryUrl);
  if (!m) throw new Error(`package.json's repository is not on GitHub: ${repositoryUrl}`);
  const [, owner, repo] = m;
  const expected = `github://api.github.com/${owner}/${repo}`;
  if (pluginDownloadURL !== expected) throw new Error(`the schema's pluginDownloadURL is ${pluginDownloadURL}; the engine would look for the plugin in ${pluginDownloadURL}, the package's repository is ${expected}`);
  const escaped = version.replace(/\./g, "\\.");
  const allowed = [
    new RegExp(`^${EXECUTABLE}-v${escaped}-(linux|darwin|windows)-(amd64|arm64)\\.tar\\.gz$`),
    new RegExp(`^pulumi-dns-account-${escaped}\\.tgz$`),
    new RegExp(`^pulumi-dns-account_${escaped}_checksums\\.txt$`),
  ];
  const assets = files.map((file) => ({ name: path.basename(file), path: file }));
  for (const a of assets) if (!allowed.some((r) => r.test(a.name))) throw new Error(`${a.name} is not a name the release carries for version ${version}`);
  if (!assets.some((a) => a.name.startsWith(`${EXECUTABLE}-v`))) throw new Error("the release holds no plugin tarball");
  return { tag: `v${version}`, owner, repo, assets };
}

/** Builds every asset into `outDir` and returns the plan (see {@link releasePlan}). */
export async function buildRelease({ platforms = Object.keys(PLATFORMS), outDir = path.join(root, "artifacts"), log = console.log } = {}) {
  mkdirSync(outDir, { recursive: true });
  const version = packageVersion();
  const tarballs = await packagePlugin({ platforms, outDir, log });
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", outDir], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }))[0].filename;
  const npmTarball = path.join(outDir, packed);
  const checksums = path.join(outDir, `pulumi-dns-account_${version}_checksums.txt`);
  writeFileSync(checksums, [...tarballs, npmTarball].map((f) => `${sha256(f)}  ${path.basename(f)}\n`).join(""));
  return releasePlan({
    version,
    repositoryUrl: readJson("package.json").repository.url,
    pluginDownloadURL: readJson("provider/schema/schema.json").pluginDownloadURL,
    files: [...tarballs, npmTarball, checksums],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!args.includes("--dry-run")) {
    console.error("release: only --dry-run is implemented (uploading needs the repository's token): npm run release:dry-run");
    process.exit(2);
  }
  const platforms = flag("--platform")?.split(",").filter(Boolean);
  const outDir = path.resolve(flag("--out") ?? path.join(root, "artifacts"));
  buildRelease({ ...(platforms ? { platforms } : {}), outDir })
    .then((plan) => {
      console.log(`release ${plan.tag} of github.com/${plan.owner}/${plan.repo} (dry run: nothing is uploaded)`);
      for (const a of plan.assets) {
        console.log(`would upload ${a.name} (${statSync(a.path).size} bytes) to release ${plan.tag} of ${plan.owner}/${plan.repo}`);
      }
    })
    .catch((err) => {
      console.error(`release: ${err.message}`);
      process.exit(1);
    });
}
