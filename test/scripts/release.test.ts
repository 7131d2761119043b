import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { _repoRoot } from "../support/helpers";

type Plan = { tag: string; owner: string; repo: string; assets: { name: string; path: string }[] };
type Release = { releasePlan(input: { version: string; repositoryUrl: string; pluginDownloadURL: string; files: string[] }): Plan };
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
    const plan = (await load()).releasePlan({ version, repositoryUrl, pluginDownloadURL, files });
    assert.equal(plan.tag, "v1.2.3");
    assert.equal(`${plan.owner}/${plan.repo}`, "pulumi-dns-account/pulumi-dns-account");
    assert.deepEqual(plan.assets.map((a) => a.name), files.map((f) => path.basename(f)));
  });

  it("refuses a name the engine would not look for, and a pluginDownloadURL naming another repository", async () => {
    const { releasePlan } = await load();
    for (const wrong of ["/out/pulumi-resource-dns-account-1.2.3-linux-amd64.tar.gz", "/out/pulumi-resource-dns-account-v1.2.4-linux-amd64.tar.gz", "/out/dns-account-linux-amd64.tar.gz"]) {
      assert.throws(() => releasePlan({ version, repositoryUrl, pluginDownloadURL, files: [...files, wrong] }), new RegExp(path.basename(wrong).replace(/\./g, "\\.")));
    }
    assert.throws(() => releasePlan({ version, repositoryUrl, pluginDownloadURL: "github://api.github.com/someone/else", files }), /pluginDownloadURL/);
    assert.throws(() => releasePlan({ version, repositoryUrl, pluginDownloadURL, files: files.slice(2) }), /no plugin tarball/);
  });
});
