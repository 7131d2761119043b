import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { _repoRoot } from "../support/helpers";

type Plan = { tag: string; tags: string[]; owner: string; repo: string; assets: { name: string; path: string }[] };
type GoModule = { goModulePath: string; goPluginVersion: string };
type Release = {
  releasePlan(input: { version: string; repositoryUrl: string; pluginDownloadURL: string; files: string[] } & GoModule): Plan;
  releaseTags(input: { version: string; owner: string; repo: string } & GoModule): string[];
  goModule(): GoModule;
  tagRelease(input?: { commit?: string; cwd?: string }): { hash: string; tags: string[] };
};
const load = async (): Promise<Release> => (await import(pathToFileURL(path.join(_repoRoot(), "scripts", "release.mjs")).href)) as Release;
const readJson = (file: string) => JSON.parse(readFileSync(path.join(_repoRoot(), file), "utf8"));

/**
 * scripts/release.mjs's plan (test/engine/plugin-tarball.test.ts runs `--dry-run` itself): the release
 * tag and asset names that the schema's pluginDownloadURL makes the engine look for.
 */
describe("release:dry-run: the release the assets go to", () => {
  const version = "1.2.3";
  const repositoryUrl = "git+https://github.com/pulumi-dns-account/pulumi-dns-account.git";
  const pluginDownloadURL = "github://api.github.com/pulumi-dns-account/pulumi-dns-account";
  const go = { goModulePath: "github.com/pulumi-dns-account/pulumi-dns-account/sdks/go", goPluginVersion: version };
  const files = [
    "/out/pulumi-resource-dns-account-v1.2.3-linux-amd64.tar.gz",
    "/out/pulumi-resource-dns-account-v1.2.3-windows-amd64.tar.gz",
    "/out/pulumi-dns-account-1.2.3.tgz",
    "/out/pulumi-dns-account_1.2.3_checksums.txt",
  ];

  it("the schema's pluginDownloadURL is github://api.github.com/<owner>/<repo> of the package's repository", () => {
    const schema = readJson("provider/schema/schema.json") as { pluginDownloadURL: string; repository: string };
    assert.equal(schema.pluginDownloadURL, schema.repository.replace("https://github.com/", "github://api.github.com/"));
    assert.equal(`git+${schema.repository}.git`, (readJson("package.json") as { repository: { url: string } }).repository.url);
  });

  it("goes to the release tagged v<version> of that repository, each asset under its own name", async () => {
    const plan = (await load()).releasePlan({ version, repositoryUrl, pluginDownloadURL, files, ...go });
    assert.equal(plan.tag, "v1.2.3");
    assert.deepEqual(plan.tags, ["v1.2.3", "sdks/go/v1.2.3"], "the Go SDK's tag too: Go versions a module in sdks/go only by tags sdks/go/v…");
    assert.equal(`${plan.owner}/${plan.repo}`, "pulumi-dns-account/pulumi-dns-account");
    assert.deepEqual(plan.assets.map((a) => a.name), files.map((f) => path.basename(f)));
  });

  it("refuses a name the engine would not look for, and a pluginDownloadURL naming another repository", async () => {
    const { releasePlan } = await load();
    for (const wrong of ["/out/pulumi-resource-dns-account-1.2.3-linux-amd64.tar.gz", "/out/pulumi-resource-dns-account-v1.2.4-linux-amd64.tar.gz", "/out/dns-account-linux-amd64.tar.gz"]) {
      assert.throws(() => releasePlan({ version, repositoryUrl, pluginDownloadURL, files: [...files, wrong], ...go }), new RegExp(path.basename(wrong).replace(/\./g, "\\.")));
    }
    assert.throws(() => releasePlan({ version, repositoryUrl, pluginDownloadURL: "github://api.github.com/someone/else", files, ...go }), /pluginDownloadURL/);
    assert.throws(() => releasePlan({ version, repositoryUrl, pluginDownloadURL, files: files.slice(2), ...go }), /no plugin tarball/);
  });

  it("tags sdks/go/v<version> only when Go would resolve it to the Go SDK: its module path, /v<major> from 2 on, its plugin version", async () => {
    const { releaseTags } = await load();
    const at = { owner: "pulumi-dns-account", repo: "pulumi-dns-account" };
    const module = "github.com/pulumi-dns-account/pulumi-dns-account/sdks/go";
    assert.deepEqual(releaseTags({ version: "0.3.0", ...at, goModulePath: module, goPluginVersion: "0.3.0" }), ["v0.3.0", "sdks/go/v0.3.0"]);
    assert.deepEqual(releaseTags({ version: "1.0.0-rc.1", ...at, goModulePath: module, goPluginVersion: "1.0.0-rc.1" }), ["v1.0.0-rc.1", "sdks/go/v1.0.0-rc.1"]);
    assert.deepEqual(releaseTags({ version: "2.1.0", ...at, goModulePath: `${module}/v2`, goPluginVersion: "2.1.0" }), ["v2.1.0", "sdks/go/v2.1.0"]);
    const refused: [string, string, string, RegExp][] = [
      ["2.1.0", module, "2.1.0", /go\.mod's module is .*\/sdks\/go; for the tag sdks\/go\/v2\.1\.0 Go needs it to be .*\/sdks\/go\/v2$/],
      ["1.0.0", `${module}/v1`, "1.0.0", /Go needs it to be github\.com\/pulumi-dns-account\/pulumi-dns-account\/sdks\/go$/],
      ["0.3.0", `${module}/v2`, "0.3.0", /Go needs it to be/],
      ["0.3.0", "github.com/someone/else/sdks/go", "0.3.0", /Go needs it to be/],
      ["0.3.0", "github.com/pulumi-dns-account/pulumi-dns-account", "0.3.0", /Go needs it to be/],
      ["0.3.0", module, "0.2.0", /pulumi-plugin\.json asks for plugin version 0\.2\.0, the release is 0\.3\.0/],
      ["0.3", module, "0.3", /not a semantic version/],
      ["v0.3.0", module, "v0.3.0", /not a semantic version/],
      ["03.0.0", module, "03.0.0", /not a semantic version/],
    ];
    for (const [v, goModulePath, goPluginVersion, message] of refused) {
      assert.throws(() => releaseTags({ version: v, ...at, goModulePath, goPluginVersion }), message, `${v} ${goModulePath} ${goPluginVersion}`);
    }
  });

  it("the repository's Go SDK agrees: its go.mod's module and pulumi-plugin.json give the tags of package.json's version", async () => {
    const { releaseTags, goModule } = await load();
    const pkg = readJson("package.json") as { version: string };
    const tags = releaseTags({ version: pkg.version, owner: "pulumi-dns-account", repo: "pulumi-dns-account", ...goModule() });
    assert.deepEqual(tags, [`v${pkg.version}`, `sdks/go/v${pkg.version}`]);
  });
});

describe("release --tag: the git tags of the release's commit", () => {
  let dir = "";
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  /** A commit of the files release.mjs reads: package.json, sdks/go/go.mod and the Go SDK's pulumi-plugin.json. */
  const commit = (version: string, module = "github.com/pulumi-dns-account/pulumi-dns-account/sdks/go") => {
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "pulumi-dns-account", version, repository: { type: "git", url: "git+https://github.com/pulumi-dns-account/pulumi-dns-account.git" } }));
    writeFileSync(path.join(dir, "sdks", "go", "go.mod"), `module ${module}\n\ngo 1.25.11\n`);
    writeFileSync(path.join(dir, "sdks", "go", "dnsaccount", "pulumi-plugin.json"), JSON.stringify({ resource: true, name: "dns-account", version }));
    git("add", "-A");
    git("commit", "--quiet", "--message", `version ${version}`);
    return git("rev-parse", "HEAD");
  };
  const tags = () => git("tag", "--list").split("\n").filter(Boolean).sort();

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-release-tag-"));
    mkdirSync(path.join(dir, "sdks", "go", "dnsaccount"), { recursive: true });
    git("init", "--quiet");
    git("config", "user.name", "Release Test");
    git("config", "user.email", "release@example.invalid");
    git("config", "commit.gpgsign", "false");
    git("config", "tag.gpgsign", "false");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates v<version> and sdks/go/v<version>, annotated, on HEAD, and keeps them when run again", async () => {
    const { tagRelease } = await load();
    const head = commit("0.3.0");
    assert.deepEqual(tagRelease({ cwd: dir }), { hash: head, tags: ["v0.3.0", "sdks/go/v0.3.0"] });
    assert.deepEqual(tags(), ["sdks/go/v0.3.0", "v0.3.0"]);
    for (const tag of ["v0.3.0", "sdks/go/v0.3.0"]) {
      assert.equal(git("cat-file", "-t", `refs/tags/${tag}`), "tag", `${tag} is annotated`);
      assert.equal(git("rev-parse", `${tag}^{commit}`), head, tag);
      assert.equal(git("tag", "--list", "--format=%(contents:subject)", tag), "pulumi-dns-account 0.3.0");
    }
    assert.deepEqual(tagRelease({ cwd: dir }), { hash: head, tags: ["v0.3.0", "sdks/go/v0.3.0"] }, "a second run changes nothing");
    assert.deepEqual(tags(), ["sdks/go/v0.3.0", "v0.3.0"]);
  });

  it("tags the commit given, by that commit's files (not the work tree's)", async () => {
    const { tagRelease } = await load();
    const older = commit("0.3.0");
    commit("0.4.0");
    assert.deepEqual(tagRelease({ cwd: dir, commit: older }), { hash: older, tags: ["v0.3.0", "sdks/go/v0.3.0"] });
    assert.equal(git("rev-parse", "sdks/go/v0.3.0^{commit}"), older);
  });

  it("creates no tag when one names another commit, or when Go would not resolve sdks/go/v<version>", async () => {
    const { tagRelease } = await load();
    const first = commit("0.3.0");
    git("tag", "sdks/go/v0.3.1", first);
    commit("0.3.1");
    assert.throws(() => tagRelease({ cwd: dir }), new RegExp(`^Error: tag sdks/go/v0\\.3\\.1 already names commit ${first}, not [0-9a-f]{40}$`));
    assert.deepEqual(tags(), ["sdks/go/v0.3.1"], "v0.3.1 was not created either");
    commit("2.0.0");
    assert.throws(() => tagRelease({ cwd: dir }), /Go needs it to be github\.com\/pulumi-dns-account\/pulumi-dns-account\/sdks\/go\/v2$/);
    assert.deepEqual(tags(), ["sdks/go/v0.3.1"]);
    commit("2.0.0", "github.com/pulumi-dns-account/pulumi-dns-account/sdks/go/v2");
    assert.deepEqual(tagRelease({ cwd: dir }).tags, ["v2.0.0", "sdks/go/v2.0.0"]);
  });

  it("the script refuses to run without --dry-run or --tag, naming both (exit 2)", () => {
    const r = spawnSync(process.execPath, [path.join(_repoRoot(), "scripts", "release.mjs")], { encoding: "utf8" });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^release: only --dry-run and --tag are implemented/);
  });
});
