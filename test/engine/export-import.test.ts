import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _seededAccount } from "../support/engine-suite";
import { _assertNoSecrets, _cleanEnv } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

const API_KEY = "key-ENGINE-EXPORT-5b1f7c92";

/**
 * `dns-account export` → `pulumi import --file` under the real engine (issue 23 §3): on a seeded
 * emulator account, the export (the `dns-account` bin of an `npm pack` install) is imported into a Pulumi
 * YAML program through the plugin, the code the engine generates is added to the program, the next
 * preview changes nothing, and destroy removes everything at the service. A Token import fails with the
 * plugin's message.
 */
describe("engine: dns-account export, then pulumi import --file in a YAML program", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let project: PulumiProject | undefined;
  let dashboard: Client;
  let bin: string;

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator({ seed: _seededAccount() });
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    const installed = await _installedProgram();
    bin = path.join(installed, "node_modules", ".bin");
    project = await _stackProject("dns-account-engine-import-", {
      env: { PATH: bin },
      program: "name: dns-account-engine-import\nruntime: yaml\n",
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    project?.remove();
  });

  it("export's file imports, the generated YAML previews with no changes, destroy removes all", async () => {
    const pulumi = project!.pulumi;
    const logs: string[] = [];
    const configDir = path.join(path.dirname(project!.dir), "dns-account-config");
    mkdirSync(configDir);
    const { stdout: exported } = await promisify(execFile)(path.join(bin, "dns-account"), ["export"], {
      env: _cleanEnv({ DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_CONFIG_DIR: configDir }),
    });
    const file = JSON.parse(exported) as { resources: { type: string; name: string; logicalName: string; id: string }[] };
    assert.deepEqual(
      file.resources.map((r) => [r.type.split(":").pop(), r.name, r.logicalName, r.id]),
      [
        ["DnsServer", "homeServer", "home-server", "home0001"],
        ["DnsServer", "kidsServer", "kids", "kids0001"],
        ["Device", "phoneDevice", "phone", "phone001"],
        ["Device", "phone2Device", "phone-2", "phone002"],
        ["Device", "phone2Device2", "phone2", "phone003"],
        ["Device", "unnamedDevice", "_", "under001"],
        ["DedicatedIpv4", "ip198_51_100_7Address", "ip-198.51.100.7", "198.51.100.7"],
      ],
    );
    writeFileSync(path.join(project!.dir, "account.json"), exported);

    const generated = path.join(project!.dir, "generated.yaml");
    logs.push(await pulumi("import", "--file", "account.json", "--yes", "--protect=false", "--generate-code", "--out", generated));
    const code = readFileSync(generated, "utf8");
    // The engine names each YAML resource by the file's `name` and keeps `logicalName` as its `name:`,
    // and refers to another imported resource by its id (`${homeServer.id}`) where the export had an id.
    for (const r of file.resources) {
      const esc = r.logicalName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      assert.match(code, new RegExp(`^  ${r.name}:\\n    type: dns-account:${r.type.split(":").pop()}\\n    name: ${esc}\\n`, "m"), `the generated YAML declares ${r.name} named ${r.logicalName}`);
    }
    assert.match(code, /^ {6}dnsServerId: \$\{kidsServer\.id\}$/m);
    assert.match(code, /^ {6}deviceId: \$\{phoneDevice\.id\}$/m);
    // The real engine keeps only what the program declares: the generated resources go into the program.
    appendFileSync(path.join(project!.dir, "Pulumi.yaml"), code.slice(code.indexOf("resources:")));
    logs.push(await pulumi("preview", "--expect-no-changes"));
    logs.push(await pulumi("preview", "--expect-no-changes", "--refresh"));

    const state = await pulumi("stack", "export");
    const deployment = (JSON.parse(state) as { deployment: { resources: { urn: string; type: string; id?: string }[] } }).deployment;
    const ours = deployment.resources.filter((r) => r.type.startsWith("dns-account:index:"));
    assert.deepEqual(
      ours.map((r) => [r.urn.split("::").pop(), r.id]).sort(),
      file.resources.map((r) => [r.logicalName, r.id]).sort(),
      "each resource's name in the state is the export's logicalName",
    );

    logs.push(await pulumi("destroy", "--yes", "--skip-preview"));
    for (const id of ["phone001", "phone002", "phone003", "under001"]) await assert.rejects(dashboard.devices.get(id), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get("kids0001"), (e: { status?: number }) => e.status === 404);
    // The default server stays (the service always has one) and an address cannot be released: unlinked.
    assert.deepEqual((await dashboard.dnsServers.list()).map((s) => [s.id, s.default]), [["home0001", true]]);
    assert.deepEqual((await dashboard.dedicatedIpv4.list()).map((a) => [a.ip, a.device_id ?? null]), [["198.51.100.7", null]]);
    _assertNoSecrets(logs.join("\n") + state, [API_KEY]);
  });

  it("pulumi import of a Token fails with the plugin's message", async () => {
    const err = await project!.pulumi("import", "dns-account:index:Token", "x", "someid", "--yes").then(
      () => assert.fail("a Token import succeeded"),
      (e: Error) => e,
    );
    assert.match(err.message, /A Token cannot be imported: the service cannot show an existing token/);
  });
});
