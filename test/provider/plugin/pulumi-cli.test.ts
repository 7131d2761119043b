import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../../emulator";
import { createClient } from "../../../sdk";
import { _assertNoSecrets } from "../../support/helpers";
import { _installedProgram } from "../../support/program";
import { _hasPulumi, _pulumiProject } from "../../support/pulumi-cli";
import { _useTempDirs } from "../../support/temp";

/**
 * The plugin with the real `pulumi` CLI (local file backend): a Pulumi YAML program, then `pulumi import`
 * of a server made in the dashboard, after which a preview shows no change. The plugin is found on PATH,
 * as `npm install -g pulumi-dns-account` puts it. Runs wherever `pulumi` is on PATH.
 */
describe("the plugin with the real pulumi CLI", function () {
  const tmp = _useTempDirs();
  this.timeout(600_000);
  let emu: Emulator;
  let pulumi: (...args: string[]) => Promise<string>;
  const API_KEY = "key-PULUMI-CLI-7e2a9d40";

  before(async function () {
    if (!_hasPulumi()) {
      console.log("      skipped: no pulumi CLI");
      this.skip();
    }
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    const installed = await _installedProgram();
    // The plugin on PATH, as a global npm install puts it.
    const project = _pulumiProject(tmp("dns-account-yaml-"), { PATH: `${path.join(installed, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}` });
    pulumi = project.pulumi;
    writeFileSync(
      path.join(project.dir, "Pulumi.yaml"),
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
