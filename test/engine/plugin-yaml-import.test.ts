import assert from "node:assert/strict";
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { createClient } from "../../sdk";
import { _assertNoSecrets } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

/**
 * The plugin with the real `pulumi` CLI (local file backend): a Pulumi YAML program, then `pulumi import`
 * of a server made in the dashboard, after which a preview shows no change. The plugin is found on PATH,
 * as `npm install -g pulumi-dns-account` puts it. Runs the engine `npm run engine` built.
 */
describe("the plugin with the real pulumi CLI", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let project: PulumiProject | undefined;
  let pulumi: (...args: string[]) => Promise<string>;
  const API_KEY = "key-PULUMI-CLI-7e2a9d40";

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    const installed = await _installedProgram();
    // The plugin on PATH, as a global npm install puts it.
    project = await _stackProject("dns-account-yaml-", {
      env: { PATH: path.join(installed, "node_modules", ".bin") },
      program: `name: dns-account-yaml
runtime: yaml
outputs:
  serverId: \${home.serverId}
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
      settings:
        blockTtlSeconds: 60
`,
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
    pulumi = project.pulumi;
  });

  after(async () => {
    await emu?.close();
    project?.remove();
  });

  it("up of a YAML program, import of a dashboard server, then no changes; destroy", async () => {
    const logs: string[] = [];
    const dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    try {
      logs.push(await pulumi("up", "--yes", "--skip-preview"));
      const serverId = (await pulumi("stack", "output", "serverId")).trim();
      assert.equal((await dashboard.dnsServers.get(serverId)).name, "Home");
      const made = await dashboard.dnsServers.create({ name: "Made in the dashboard" });
      const generated = path.join(project!.dir, "imported.yaml");
      logs.push(await pulumi("import", "dns-account:index:DnsServer", "imported", made.id, "--yes", "--protect=false", "--out", generated));
      // The real engine keeps only what the program declares: the code `pulumi import` generated goes
      // into the program (its resources after the program's), else the next preview deletes the import.
      const code = readFileSync(generated, "utf8");
      assert.match(code, /type: dns-account:(index:)?DnsServer\n/);
      appendFileSync(path.join(project!.dir, "Pulumi.yaml"), code.slice(code.indexOf("resources:") + "resources:".length).replace(/^\n/, ""));
      logs.push(await pulumi("preview", "--expect-no-changes", "--refresh"));
      assert.equal((await dashboard.dnsServers.get(made.id)).name, "Made in the dashboard");
      logs.push(await pulumi("destroy", "--yes", "--skip-preview"));
      for (const id of [serverId, made.id]) await assert.rejects(dashboard.dnsServers.get(id), (e: { status?: number }) => e.status === 404);
    } finally {
      await dashboard.close();
    }
    _assertNoSecrets(logs.join("\n") + (await pulumi("stack", "export")), [API_KEY]);
  });
});
