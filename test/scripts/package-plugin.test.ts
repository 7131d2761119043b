import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as bundled from "../../provider/plugin/grpc-bundled";
import * as installed from "../../provider/plugin/grpc-installed";
import { _repoRoot } from "../support/helpers";

type PackagePlugin = {
  bundle(): Promise<{ text: string; inputs: number; files: string[] }>;
  tarballName(version: string, platform: string): string;
  PLATFORMS: Record<string, unknown>;
};
const load = async (): Promise<PackagePlugin> => (await import(pathToFileURL(path.join(_repoRoot(), "scripts", "package-plugin.mjs")).href)) as PackagePlugin;

/**
 * scripts/package-plugin.mjs, short of the single executable (test/engine/plugin-tarball.test.ts runs
 * that under the real engine): the bundle it embeds holds everything the plugin loads, because inside
 * the executable `require` finds only Node's built-ins.
 */
describe("package:plugin: the bundle the plugin's executable embeds", function () {
  this.timeout(60_000);

  it("names every module by a literal path: the build fails on any require left for run time", async () => {
    const { text, files } = await (await load()).bundle();
    // undici's dispatcher modules are embedded (a template-literal require would have left the
    // transport to fall back to all of undici), and so are @pulumi/pulumi's proto files.
    assert.ok(files.includes("node_modules/undici/lib/dispatcher/agent.js"));
    assert.ok(files.includes("node_modules/@pulumi/pulumi/proto/provider_grpc_pb.js"));
    assert.ok(!files.includes("provider/plugin/grpc-installed.ts"), "the createRequire of @pulumi/pulumi's folder is swapped out");
    assert.ok(files.includes("provider/plugin/grpc-bundled.ts"));
    assert.match(text, /pluginDownloadURL:\s*"github:\/\/api\.github\.com\//, "the schema is inlined");
  });

  it("grpc-bundled gives the same modules as grpc-installed, role by role", () => {
    const a = installed.grpcPieces();
    const b = bundled.grpcPieces();
    assert.deepEqual(Object.keys(b).sort(), Object.keys(a).sort());
    for (const key of Object.keys(a) as (keyof typeof a)[]) assert.equal(b[key], a[key], key);
    assert.equal(bundled.pulumiMissing(), undefined);
    assert.equal(installed.pulumiMissing(), undefined);
  });

  it("tarballs are named pulumi-resource-<name>-v<version>-<os>-<arch>.tar.gz, for the platforms that can be built here", async () => {
    const m = await load();
    assert.equal(m.tarballName("1.2.3", "linux-amd64"), "pulumi-resource-dns-account-v1.2.3-linux-amd64.tar.gz");
    assert.deepEqual(Object.keys(m.PLATFORMS), ["linux-amd64", "linux-arm64", "windows-amd64"]);
  });
});
