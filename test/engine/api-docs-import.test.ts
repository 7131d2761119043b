import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets, _repoRoot } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

/** The `$ pulumi import …` lines of the generated API docs (docs/api-docs/<name>/_index.md), by page. */
function importCommands(): { page: string; args: string[] }[] {
  const root = path.join(_repoRoot(), "docs", "api-docs");
  const found: { page: string; args: string[] }[] = [];
  for (const name of readdirSync(root).sort()) {
    const page = path.join(root, name, "_index.md");
    let text: string;
    try {
      text = readFileSync(page, "utf8");
    } catch {
      continue; // the package's own _index.md is a file, not a folder
    }
    for (const line of text.split("\n")) {
      const m = /^\$ pulumi import (.+)$/.exec(line.trim());
      if (m) found.push({ page: `docs/api-docs/${name}/_index.md`, args: m[1]!.trim().split(/\s+/) });
    }
  }
  return found;
}

/**
 * Every `pulumi import` command of the generated API docs (the schema's Import sections), run as written
 * by the real `pulumi` with the plugin on PATH, against an emulator seeded with the very ids the docs
 * name: the command imports what it says. `--yes` is added (the engine asks for confirmation otherwise).
 */
describe("engine: the API docs' pulumi import commands, as written", function () {
  this.timeout(600_000);
  const API_KEY = "key-API-DOCS-IMPORT-4b7e1f90";
  let emu: Emulator | undefined;
  let project: PulumiProject | undefined;

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator({
      seed: {
        version: 1,
        dns_servers: [{ id: "0a1b2c3d", name: "Home", settings: { block_ttl_seconds: 60 } }],
        devices: [{ id: "4e5f6a7b", name: "Laptop", device_type: "MAC", dns_server_id: "0a1b2c3d" }],
        dedicated_ipv4: [{ ip: "203.0.113.7", device_id: "4e5f6a7b" }],
      },
    });
    emu.addApiKey("user@example.com", API_KEY);
    const installed = await _installedProgram();
    project = await _stackProject("dns-account-api-docs-import-", {
      env: { PATH: path.join(installed, "node_modules", ".bin") },
      program: "name: api-docs-import\nruntime: yaml\n",
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
  });

  after(async () => {
    await emu?.close();
    project?.remove();
  });

  it("imports the server, the device and the address each page names, by the id it shows", async () => {
    const commands = importCommands();
    // One per importable resource (a Token cannot be imported: its page says so instead).
    assert.deepEqual(commands.map((c) => c.args[0]).sort(), ["dns-account:index:DedicatedIpv4", "dns-account:index:Device", "dns-account:index:DnsServer"]);
    const logs: string[] = [];
    for (const { page, args } of commands) {
      assert.equal(args.length, 3, `${page}: pulumi import <type> <name> <id>`);
      logs.push(await project!.pulumi("import", ...args, "--yes"));
    }
    const state = JSON.parse(await project!.pulumi("stack", "export")) as {
      deployment: { resources?: { type: string; urn: string; id?: string }[] };
    };
    for (const { args } of commands) {
      const [type, name, id] = args as [string, string, string];
      const resource = state.deployment.resources?.find((r) => r.type === type && r.urn.endsWith(`::${name}`));
      assert.ok(resource, `${type} ${name} is in the state`);
      assert.equal(resource.id, id);
    }
    _assertNoSecrets(logs.join("\n") + JSON.stringify(state), [API_KEY]);
  });
});
