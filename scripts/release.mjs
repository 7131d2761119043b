// The release's assets, built and listed; nothing is uploaded.
//
//   node scripts/release.mjs --dry-run [--platform linux-amd64,...] [--out artifacts]
//   node scripts/release.mjs --tag [--commit <rev>]
//
// Builds every asset into the output folder (default artifacts/): the plugin tarball of each platform
// (scripts/package-plugin.mjs; default every platform it can build), the npm tarball (`npm pack`), and
// `pulumi-dns-account_<version>_checksums.txt` (SHA-256, as `sha256sum` prints it). Then prints the
// GitHub release they belong to, tag v<version> of the repository that the schema's pluginDownloadURL
// (`github://api.github.com/<owner>/<repo>`) names, where the engine looks for
// `pulumi-resource-dns-account-v<version>-<os>-<arch>.tar.gz`, and one "would upload" line per asset.
// It also prints the two git tags the release's commit carries: v<version>, the release's, and
// sdks/go/v<version>, the only tag by which Go versions the module in the subfolder sdks/go
// (`go get github.com/<owner>/<repo>/sdks/go@v<version>`). `--tag` creates both, annotated, on HEAD (or
// --commit), without building or pushing, and prints the `git push` that publishes them. Uploading needs
// the repository's token and is not done by this script (it refuses without --dry-run or --tag).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EXECUTABLE, PLATFORMS, packagePlugin, packageVersion, sha256 } from "./package-plugin.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

/** The folder of the Go SDK's module, relative to the repository's root: its tags start with it. */
export const GO_MODULE_DIR = "sdks/go";

/** The `module` line of the go.mod text given. */
export function goModulePathOf(goMod) {
  const m = /^module\s+(\S+)\s*$/m.exec(goMod);
  if (!m) throw new Error(`${GO_MODULE_DIR}/go.mod has no module line`);
  return m[1].replace(/^"(.*)"$/, "$1");
}

/**
 * The git tags of release `version` of the repository github.com/`owner`/`repo`: `v<version>` (the
 * release's, where the engine looks for the plugin) and `sdks/go/v<version>` (Go's version of the module
 * in that folder). Throws when Go would not resolve that tag to the Go SDK: a version that is not
 * semantic, a module path that is not `github.com/<owner>/<repo>/sdks/go` (with `/v<major>` from
 * major version 2 on, Go's import compatibility rule, and without it before), or a Go SDK whose
 * pulumi-plugin.json asks the engine for another version of the plugin.
 *
 * @example
 * releaseTags({ version: "0.3.0", owner: "o", repo: "r", goModulePath: "github.com/o/r/sdks/go", goPluginVersion: "0.3.0" });
 * // ["v0.3.0", "sdks/go/v0.3.0"]
 *
 * @param {{ version: string, owner: string, repo: string, goModulePath: string, goPluginVersion: string }} input
 */
export function releaseTags({ version, owner, repo, goModulePath, goPluginVersion }) {
  const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(version);
  if (!semver) throw new Error(`version ${version} is not a semantic version (X.Y.Z): Go ignores a tag sdks/go/v${version}`);
  const major = Number(semver[1]);
  const expected = `github.com/${owner}/${repo}/${GO_MODULE_DIR}${major >= 2 ? `/v${major}` : ""}`;
  if (goModulePath !== expected) {
    throw new Error(`${GO_MODULE_DIR}/go.mod's module is ${goModulePath}; for the tag ${GO_MODULE_DIR}/v${version} Go needs it to be ${expected}`);
  }
  if (goPluginVersion !== version) {
    throw new Error(`${GO_MODULE_DIR}/dnsaccount/pulumi-plugin.json asks for plugin version ${goPluginVersion}, the release is ${version}: regenerate the SDKs first`);
  }
  return [`v${version}`, `${GO_MODULE_DIR}/v${version}`];
}

/** The GitHub owner and repository of package.json's `repository.url`. */
export function githubRepository(repositoryUrl) {
  const m = /github\.com[/:]([^/]+)\/([^/.]+?)(\.git)?$/.exec(repositoryUrl);
  if (!m) throw new Error(`package.json's repository is not on GitHub: ${repositoryUrl}`);
  return { owner: m[1], repo: m[2] };
}

/** What the release's tags are checked against (see {@link releaseTags}), read by `read(file)`. */
export function goModule(read = (file) => readFileSync(path.join(root, file), "utf8")) {
  return {
    goModulePath: goModulePathOf(read(`${GO_MODULE_DIR}/go.mod`)),
    goPluginVersion: JSON.parse(read(`${GO_MODULE_DIR}/dnsaccount/pulumi-plugin.json`)).version,
  };
}

/**
 * Tags `commit` of the git repository at `cwd` as the release of the version its package.json holds:
 * the annotated tags of {@link releaseTags}, checked against the files of that commit (not of the work
 * tree). Returns the commit's hash and the tags. A tag that already names that commit is kept; one that
 * names another commit is an error, and then no tag is created. Nothing is pushed.
 *
 * @example
 * tagRelease(); // { hash: "4a7ca8b…", tags: ["v0.3.0", "sdks/go/v0.3.0"] }
 *
 * @param {{ commit?: string, cwd?: string }} [input]
 */
export function tagRelease({ commit = "HEAD", cwd = root } = {}) {
  const git = (...args) => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  let hash;
  try {
    hash = git("rev-parse", "--verify", "--quiet", `${commit}^{commit}`);
  } catch {
    throw new Error(`${commit} is not a commit of the repository at ${cwd}`);
  }
  const read = (file) => git("show", `${hash}:${file}`);
  const pkg = JSON.parse(read("package.json"));
  const tags = releaseTags({ version: pkg.version, ...githubRepository(pkg.repository.url), ...goModule(read) });
  const existing = tags.filter((tag) => {
    let at;
    try {
      at = git("rev-parse", "--verify", "--quiet", `refs/tags/${tag}^{commit}`);
    } catch {
      return false;
    }
    if (at !== hash) throw new Error(`tag ${tag} already names commit ${at}, not ${hash}`);
    return true;
  });
  for (const tag of tags) if (!existing.includes(tag)) git("tag", "--annotate", "--message", `${pkg.name} ${pkg.version}`, tag, hash);
  return { hash, tags };
}

/**
 * The release of `files` (asset paths): its tag, repository and assets, checked against the
 * conventions the engine relies on. Throws when the schema's pluginDownloadURL does not name the
 * package's repository, or an asset's name is not one the release may carry.
 *
 * Its `tags` are those of {@link releaseTags}, checked the same way.
 *
 * @param {{ version: string, repositoryUrl: string, pluginDownloadURL: string, files: string[], goModulePath: string, goPluginVersion: string }} input
 */
export function releasePlan({ version, repositoryUrl, pluginDownloadURL, files, goModulePath, goPluginVersion }) {
  const { owner, repo } = githubRepository(repositoryUrl);
  const tags = releaseTags({ version, owner, repo, goModulePath, goPluginVersion });
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
  return { tag: tags[0], tags, owner, repo, assets };
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
    ...goModule(),
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (args.includes("--tag")) {
    try {
      const { hash, tags } = tagRelease({ commit: flag("--commit") ?? "HEAD" });
      console.log(`tagged ${hash} as ${tags.join(" and ")} (not pushed); publish them with: git push origin ${tags.join(" ")}`);
      process.exit(0);
    } catch (err) {
      console.error(`release: ${String(err.stderr ?? "").trim() || err.message}`);
      process.exit(1);
    }
  }
  if (!args.includes("--dry-run")) {
    console.error("release: only --dry-run and --tag are implemented (uploading needs the repository's token): npm run release:dry-run");
    process.exit(2);
  }
  const platforms = flag("--platform")?.split(",").filter(Boolean);
  const outDir = path.resolve(flag("--out") ?? path.join(root, "artifacts"));
  buildRelease({ ...(platforms ? { platforms } : {}), outDir })
    .then((plan) => {
      console.log(`release ${plan.tag} of github.com/${plan.owner}/${plan.repo} (dry run: nothing is uploaded)`);
      console.log(`would tag the release's commit ${plan.tags.join(" and ")} (node scripts/release.mjs --tag)`);
      for (const a of plan.assets) {
        console.log(`would upload ${a.name} (${statSync(a.path).size} bytes) to release ${plan.tag} of ${plan.owner}/${plan.repo}`);
      }
    })
    .catch((err) => {
      console.error(`release: ${err.message}`);
      process.exit(1);
    });
}
