import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../../emulator";
import { createClient } from "../../../sdk";
import { _assertNoSecrets } from "../../support/helpers";
import { _installedProgram } from "../../support/program";

function hasPulumi(): boolean {
  try {
    execFileSync("pulumi", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The plugin with the real `pulumi` CLI (local file backend): a Pulumi YAML program, then `pulumi import`
 * of a server made in the dashboard, after which a preview shows no change. The plugin is found on PATH,
 * as `npm install -g pulumi-dns-account` puts it. Runs wherever `pulumi` is on PATH.
 */
describe("the plugin with the real pulumi CLI", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let dir = "";
  let env: NodeJS.ProcessEnv = {};
  const API_KEY = "key-PULUMI-CLI-7e2a9d40";
  const pulumi = async (...args: string[]) => (await promisify(execFile)("pulumi", [...args, "--non-interactive"], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 })).stdout;

  before(async function () {
    if (!hasPulumi()) {
      console.log("      skipped: no pulumi CLI");
      this.skip();
    }
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    const installed = await _installedProgram();
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-yaml-"));
    writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `name: dns-account-yaml
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
      settings:
        blockTtlSeconds: 60
outputs:
  serverId: \${home.serverId}
`,
    );
    mkdirSync(path.join(dir, "state"));
    env = {
      ...process.env,
      PATH: `${path.join(installed, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
      PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
      PULUMI_SKIP_UPDATE_CHECK: "true",
    };
    await pulumi("stack", "init", "dev");
    await pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await pulumi("config", "set", "--secret", "dns-account:apiKey", API_KEY);
  });

  after(async () => {
    await emu?.close();
  });

  it("up of a YAML program, import of a dashboard server, then no changes; destroy", async () => {
    const logs: string[] = [];
    logs.push(await pulumi("up", "--yes", "--skip-preview"));
    const serverId = (await pulumi("stack", "output", "serverId")).trim();
    const dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    try {
      assert.equal((await dashboard.dnsServers.get(serverId)).name, "Home");
      const made = await dashboard.dnsServers.create({ name: "Made in the dashboard" });
      logs.push(await pulumi("import", "dns-account:index:DnsServer", "imported", made.id, "--yes", "--protect=false"));
      logs.push(await pulumi("preview", "--expect-no-changes", "--refresh"));
    } finally {
      await dashboard.close();
    }
    logs.push(await pulumi("destroy", "--yes", "--skip-preview"));
    _assertNoSecrets(logs.join("\n") + (await pulumi("stack", "export")), [API_KEY]);
  });
});
