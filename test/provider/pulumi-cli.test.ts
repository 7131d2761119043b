import assert from "node:assert/strict";
import { cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _hasPulumi, _pulumiProject } from "../support/pulumi-cli";
import { _useTempDirs } from "../support/temp";

const PASSWORD = "pw-CLI-5a7e3c91";

/**
 * End to end with the real `pulumi` CLI (local file backend): up, up again (no changes), rotate via
 * keepers, refresh, destroy. Runs wherever `pulumi` is on PATH.
 */
describe("the real pulumi CLI", function () {
  const tmp = _useTempDirs();
  this.timeout(600_000);
  let emu: Emulator;
  let pulumi: (...args: string[]) => Promise<string>;

  before(async function () {
    if (!_hasPulumi()) {
      console.log("      skipped: no pulumi CLI on PATH");
      this.skip();
    }
    emu = await startEmulator({ users: [{ username: "ops@example.com", password: PASSWORD }] });
    const installed = await _installedProgram();
    const project = _pulumiProject(tmp("dns-account-cli-"));
    const dir = project.dir;
    pulumi = project.pulumi;
    cpSync(path.join(installed, "node_modules"), path.join(dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
    cpSync(path.join(installed, "package.json"), path.join(dir, "package.json"));
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: dns-account-e2e\nruntime: nodejs\nmain: index.js\n");
    writeFileSync(
      path.join(dir, "index.js"),
      `const pulumi = require("@pulumi/pulumi");
const { Token } = require("pulumi-dns-account");
const t = new Token("ci", { keepers: { rotation: new pulumi.Config().get("rotation") || "1" } });
exports.accessToken = t.accessToken;
exports.expiresAt = t.expiresAt;`,
    );
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await pulumi("config", "set", "dns-account:username", "ops@example.com");
    await pulumi("config", "set", "--secret", "dns-account:password", PASSWORD);
  });

  after(async () => {
    await emu?.close();
  });

  it("up, up again with no changes, rotate via keepers, refresh, destroy", async () => {
    const logs: string[] = [];
    logs.push(await pulumi("up", "--yes", "--skip-preview"));
    assert.equal(emu.stats.passwordGrants, 1);
    logs.push(await pulumi("preview", "--expect-no-changes"));
    const stateBefore = await pulumi("stack", "export");
    await pulumi("config", "set", "rotation", "2");
    logs.push(await pulumi("up", "--yes", "--skip-preview"));
    assert.equal(emu.stats.passwordGrants, 2, "replacement logs in again");
    assert.equal(emu.stats.revokeCalls, 1, "the old refresh token is revoked after the new token exists");
    logs.push(await pulumi("refresh", "--yes", "--skip-preview"));
    const state = await pulumi("stack", "export");
    const accessToken = (await pulumi("stack", "output", "accessToken", "--show-secrets")).trim();
    assert.ok(accessToken.length > 10);
    logs.push(await pulumi("destroy", "--yes", "--skip-preview"));
    assert.equal(emu.stats.revokeCalls, 2);
    // State holds secrets only as ciphertext: neither the password nor the live token appears in clear.
    const secrets = [PASSWORD, accessToken];
    _assertNoSecrets(logs.join("\n") + stateBefore + state, secrets);
  });
});
