import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuBin, _tofuEnv, _tofuMissing } from "../support/tofu-cli";

const run = promisify(execFile);
const SOURCE = "registry.opentofu.org/pulumi-dns-account/dnsaccount";

/**
 * Issue 34, first step: the OpenTofu face's protocol layer (provider/tofu: go-plugin's handshake, AutoMTLS,
 * tfplugin6's GetProviderSchema, ValidateProviderConfig, ConfigureProvider, Shutdown) under the real `tofu`
 * (`npm run tofu`). The provider is this checkout's built bin (`dist/provider/tofu/bin.js`), found through a
 * `dev_overrides` entry of the test's own CLI configuration, so no `tofu init` and no mirror are needed yet.
 * `TF_LOG=debug` shows what go-plugin saw: protocol 6 negotiated, and the process leaving by itself after
 * Shutdown (go-plugin kills one that does not, after 2 s, and says so).
 */
describe("tofu: the OpenTofu face's protocol layer under the real tofu", function () {
  this.timeout(300_000);
  const tmp = _useTempDirs();
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    _failWithoutTofu(_tofuMissing());
    const root = tmp("dns-account-tofu-face-");
    const plugins = path.join(root, "plugins");
    dir = path.join(root, "config");
    mkdirSync(plugins, { recursive: true });
    mkdirSync(dir, { recursive: true });
    // tofu runs `terraform-provider-<type>` from the override folder: here, a wrapper around the npm bin.
    const wrapper = path.join(plugins, "terraform-provider-dnsaccount");
    writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(_repoRoot(), "dist", "provider", "tofu", "bin.js"))} "$@"\n`);
    chmodSync(wrapper, 0o755);
    writeFileSync(
      path.join(dir, "main.tf"),
      `terraform {\n  required_providers {\n    dnsaccount = { source = "${SOURCE}" }\n  }\n}\n\nprovider "dnsaccount" {}\n`,
    );
    env = _tofuEnv(root, `provider_installation {\n  dev_overrides {\n    "${SOURCE}" = "${plugins}"\n  }\n  direct {}\n}\n`, { TF_LOG: "debug" });
  });

  for (const command of [["validate"], ["plan", "-no-color", "-input=false"]]) {
    it(`tofu ${command[0]}: protocol 6 over mTLS, the schema read, and the provider leaves by itself on Shutdown`, async () => {
      const { stdout, stderr } = await run(path.join(_tofuBin(), "tofu"), command, { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 });
      assert.match(stdout, command[0] === "validate" ? /The configuration is valid/ : /No changes\./, stdout);
      assert.match(stderr, /provider: using plugin: version=6/, "go-plugin negotiated protocol 6");
      assert.match(stderr, /provider: plugin process exited: plugin=\S*terraform-provider-dnsaccount/);
      assert.doesNotMatch(stderr, /failed to exit gracefully|plugin process exited:.*error=|Failed to read plugin|Unrecognized remote plugin message/i);
      // Every provider process tofu started left by itself: as many "exited" lines as "started" ones.
      const count = (re: RegExp): number => stderr.match(re)?.length ?? 0;
      assert.equal(count(/provider: plugin exited\b/g), count(/provider: plugin started: path=\S*terraform-provider-dnsaccount/g));
      assert.ok(count(/provider: plugin started: path=\S*terraform-provider-dnsaccount/g) >= 1);
    });
  }
});
